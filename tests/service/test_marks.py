"""The marks of what tables and pings show (bot.ui.catchup.Marks): a ping's mark is saved
before the ping goes, and a save under way never writes an older mark over it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from types import SimpleNamespace

from bot.ui.catchup import Marks, pinged_text

Mark = tuple[int | None, str | None]


class SlowStore:
    """The marks table; the first save waits for ``gate`` (a slow write under way)."""

    def __init__(self) -> None:
        self.rows: dict[int, Mark] = {}
        self.writes: list[dict[int, Mark]] = []
        self.started = asyncio.Event()
        self.gate = asyncio.Event()

    async def save(self, marks: Mapping[int, Mark]) -> None:
        self.writes.append(dict(marks))
        if len(self.writes) == 1:
            self.started.set()
            await self.gate.wait()
        self.rows.update(marks)

    async def forget(self, match_ids: Sequence[int]) -> None:
        for m in match_ids:
            self.rows.pop(m, None)


async def test_a_pings_mark_is_saved_before_it_goes_never_under_an_older_one() -> None:
    store = SlowStore()
    marks = Marks(SimpleNamespace(marks=store))  # type: ignore[arg-type]
    marks.pinged(1, ((0,), None))  # the moment's marks
    marks.shown(2, 5)
    saving = asyncio.create_task(marks.save())  # their save, slow
    await store.started.wait()
    ping = asyncio.create_task(marks.save_ping(1, ((1,), None)))  # a new ping for match 1
    await asyncio.sleep(0.01)
    assert not ping.done(), "the ping's mark waits for the save under way"
    store.gate.set()
    await asyncio.gather(saving, ping)
    assert store.rows == {1: (None, pinged_text(((1,), None))), 2: (5, None)}
    # With no save under way, the ping's mark is written at once, with the table's.
    await marks.save_ping(2, ((0, 1), 12.0))
    assert store.rows[2] == (5, pinged_text(((0, 1), 12.0)))
    writes = len(store.writes)
    await marks.close()
    assert len(store.writes) == writes, "nothing was left to save"
