"""After a restart: what the tables and turn messages show is known, and the rest is sent at
a pace Discord allows.

Discord lets a bot send about 50 requests a second in all. Restarted on 1,004 running
matches, the bot once sent 2,019 requests in 4 seconds: an edit of every table and a turn
ping again for every match. So the Discord layer keeps marks of what it has shown (the
version on each table, whom each turn message pinged; :class:`Marks`, saved a moment after
they change, a new ping's before it is sent), a restart reads them back, and a table that
shows its match already is left as it is, a ping already sent is not sent again. What
remains is caught up at ``CATCH_UP_PER_SECOND`` requests a second (:class:`Pace`), below
Discord's limit, with room for the answers to players' moves and the tables they change,
which never wait for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Protocol

from bot.service import MatchService, MatchStatus, Snapshot
from bot.ui.answers import AnswersFirst

log = logging.getLogger(__name__)

CATCH_UP_PER_SECOND = 40.0  # of Discord's ~50 requests a second; the rest for players' moves
MARKS_EVERY = 0.25  # seconds between two saves of the marks (one transaction each)
Pinged = tuple[tuple[int, ...], float | None]  # the awaited seats and the deadline a ping named


class Pace:
    """At most ``per_second`` requests a second, in order of asking."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self._next = 0.0

    async def take(self, requests: int) -> None:
        now = time.monotonic()
        at = max(now, self._next)
        self._next = at + requests / self.per_second
        if at > now:
            await asyncio.sleep(at - now)


def awaited_people(snap: Snapshot) -> tuple[int, ...]:
    """The seats a turn ping is for: those awaited that people play."""
    return tuple(sorted(s for s in snap.awaited() if not snap.seats[s].played_by_ai))


def pinged_text(pinged: Pinged) -> str:
    return json.dumps([list(pinged[0]), pinged[1]])


def pinged_value(text: str | None) -> Pinged | None:
    if not text:
        return None
    seats, deadline = json.loads(text)
    return tuple(int(s) for s in seats), None if deadline is None else float(deadline)


class Marks:
    """What each table and turn message shows, saved ``MARKS_EVERY`` after it changes (all
    the changes of that moment in one transaction): a stop loses at most that moment's, and a
    mark lost only edits its table or turn message once more. A ping that mentions people is
    marked before it goes (:meth:`save_ping`), so a restart never sends it again. The saves go
    one at a time, each with the marks as they are when it starts: a later save never writes
    an older mark."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self._marks: dict[int, tuple[int | None, str | None]] = {}
        self._dirty: set[int] = set()
        self._ended: set[int] = set()
        self._saving: asyncio.Task[None] | None = None
        self._due = False
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False
        self._writing = asyncio.Lock()

    def known(self, match_id: int, shown: int | None, pinged: str | None) -> None:
        """As read back at a restart."""
        self._marks[match_id] = (shown, pinged)

    def shown(self, match_id: int, version: int) -> None:
        before = self._marks.get(match_id, (None, None))
        if before[0] != version:
            self._change(match_id, (version, before[1]))

    def pinged(self, match_id: int, pinged: Pinged) -> None:
        before = self._marks.get(match_id, (None, None))
        text = pinged_text(pinged)
        if before[1] != text:
            self._change(match_id, (before[0], text))

    async def save_ping(self, match_id: int, pinged: Pinged) -> None:
        """A ping about to mention people: its mark is saved now, before the ping goes. A
        crash between the two loses this one ping rather than sending it again after the
        restart: a ping goes at most once."""
        before = self._marks.get(match_id, (None, None))
        self._marks[match_id] = (before[0], pinged_text(pinged))
        if self._closed:  # the bot stops: the repository may be gone
            self._change(match_id, self._marks[match_id])
            return
        async with self._writing:
            mark = self._marks.get(match_id)
            if mark is None:  # the match ended meanwhile
                return
            self._dirty.discard(match_id)
            try:
                await self.service.marks.save({match_id: mark})
            except Exception:
                log.exception("match %s: saving the ping's mark failed", match_id)
                self._change(match_id, mark)

    def ended(self, match_id: int) -> None:
        if self._marks.pop(match_id, None) is not None:
            self._dirty.discard(match_id)
            self._ended.add(match_id)
            self._soon()

    def _change(self, match_id: int, mark: tuple[int | None, str | None]) -> None:
        self._marks[match_id] = mark
        self._dirty.add(match_id)
        self._soon()

    def _soon(self) -> None:
        if not self._due and not self._closed:
            self._due = True
            self._timer = asyncio.get_running_loop().call_later(MARKS_EVERY, self._start_saving)

    def _start_saving(self) -> None:
        if self._saving is None or self._saving.done():
            self._saving = asyncio.create_task(self.save())
        else:  # the last save is still under way: the next one after it
            self._due = False
            self._soon()

    async def save(self) -> None:
        self._due = False
        async with self._writing:
            marks = {m: self._marks[m] for m in self._dirty if m in self._marks}
            ended = list(self._ended)
            self._dirty.clear()
            self._ended.clear()
            try:
                await self.service.marks.save(marks)
                await self.service.marks.forget(ended)
            except Exception:  # a mark lost sends its table or ping once more after a restart
                log.exception("saving %d table marks failed", len(marks))

    async def close(self) -> None:
        # No save is started after this one: a save due later would start once the
        # repository is closed, or while the event loop shuts down and never run.
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._saving is not None:
            await asyncio.gather(self._saving, return_exceptions=True)
        if self._dirty or self._ended:
            await self.save()


class Pings(Protocol):
    """The turn pings' marks (:class:`bot.ui.pings.TurnPings`)."""

    pinged: dict[int, Pinged]  # match id -> whom its turn message pinged, and the deadline


class Tables(Protocol):
    """What :func:`catch_up` needs of the tables (:class:`bot.ui.table.TablePublisher`)."""

    @property
    def service(self) -> MatchService: ...

    @property
    def marks(self) -> Marks: ...

    @property
    def pings(self) -> Pings: ...

    @property
    def pace(self) -> Pace: ...

    @property
    def answers(self) -> AnswersFirst: ...

    def next_restored(self, count: int) -> list[int]:
        """Up to ``count`` restored matches still to check, taken off the queue."""

    def table_shows(self, match_id: int) -> tuple[int, MatchStatus] | None:
        """The (version, status) the match's table is known to show."""

    def table_showed(self, match_id: int, version: int, status: MatchStatus) -> None:
        """The table shows ``version`` (its mark says so), unless more is known already."""

    async def update_table(self, snap: Snapshot) -> None:
        """Show the match's newest state on its table, and ping whom it waits for."""


async def catch_up(tables: Tables) -> None:
    """Check each restored match's table and ping against their marks (read 500 at a time),
    then send what they lack at ``tables.pace``, each after the players' answers."""
    while batch := tables.next_restored(500):
        for match_id, (shown, pinged) in (await tables.service.marks.load(batch)).items():
            tables.marks.known(match_id, shown, pinged)
            snap = await tables.service.get(match_id)
            if shown == snap.version and snap.record.message_id is not None:
                tables.table_showed(match_id, snap.version, snap.status)
            if (value := pinged_value(pinged)) is not None:
                tables.pings.pinged.setdefault(match_id, value)
        for match_id in batch:
            try:
                snap = await tables.service.get(match_id)
                edit = tables.table_shows(match_id) != (snap.version, snap.status)
                ping = snap.status == MatchStatus.RUNNING and tables.pings.pinged.get(match_id) != (
                    awaited_people(snap),
                    snap.record.deadline_at,
                )
                if edit or ping or snap.record.turn_message_id is not None and snap.status.over:
                    await tables.pace.take(int(edit) + 2 * int(ping) or 1)
                    await tables.answers.quiet()
                    await tables.update_table(snap)
            except Exception:
                log.exception("match %s: catching up its table after the restart failed", match_id)
