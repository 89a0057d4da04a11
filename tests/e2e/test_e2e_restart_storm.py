"""A restart does not storm Discord (issue 47): a table that shows its match already is left
as it is, a turn ping already sent is not sent again, and what does need sending goes out at
the catching-up pace, within Discord's global limit."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.ui import catchup
from bot.ui import table as table_module
from bot.ui.catchup import Marks
from tests.e2e_support import World, make_bot, open_match, quiet, world
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

MESSAGE_ROUTES = ("/messages",)


def message_requests(fake: FakeDiscord, since: int) -> list[str]:
    """The bot's requests on channel messages (tables, pings) since ``since``."""
    return [
        f"{r.method} {r.path}"
        for r in fake.requests[since:]
        if "/channels/" in r.path and "/messages" in r.path and r.method in ("POST", "PATCH", "DELETE")
    ]


async def open_tables(world: World, count: int) -> None:
    ann, bob = world.users[:2]
    for i in range(count):
        channel = world.channel if i == 0 else world.fake.add_channel(world.guild, f"t{i}")
        await open_match(world, ann, [bob], game="crown", options={"variant": "defend"}, channel=channel)


async def test_a_restart_sends_nothing_for_tables_and_pings_that_show_their_match(world: World) -> None:
    fake = world.fake
    async with fake.bot_running(make_bot(world)) as bot:
        await open_tables(world, 3)
        await quiet(fake, bot)
        pings = [m for m in fake.messages(world.channel) if "your turn" in m.content]
        assert pings, "the match pinged its players"
    since = len(fake.requests)
    async with fake.bot_running(make_bot(world)) as bot:
        await quiet(fake, bot)
        await asyncio.sleep(0.5)  # the catching up, had there been any
        await quiet(fake, bot)
        assert message_requests(fake, since) == []
    fake.assert_clean()


async def test_a_table_behind_its_match_is_caught_up_once_at_the_pace(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Marks lost (a crash before they were saved): every table is edited and every turn
    pinged again, but at ``CATCH_UP_PER_SECOND`` requests a second."""
    fake = world.fake
    async with fake.bot_running(make_bot(world)) as bot:
        await open_tables(world, 6)
        await quiet(fake, bot)
    with sqlite3.connect(world.db_url.removeprefix("sqlite:///")) as conn:
        conn.execute("DELETE FROM table_marks")
    monkeypatch.setattr(table_module, "CATCH_UP_PER_SECOND", 6.0)
    since = len(fake.requests)
    async with fake.bot_running(make_bot(world)) as bot:
        for _ in range(100):
            await asyncio.sleep(0.1)
            if len(message_requests(fake, since)) >= 6 * 3:  # an edit, a ping deleted and posted
                break
        await quiet(fake, bot)
        sent = [r.at for r in fake.requests[since:] if "/messages" in r.path and r.method != "GET"]
        assert len(sent) == 18, message_requests(fake, since)
        assert sent[-1] - sent[0] >= (18 - 6) / 6.0 - 0.2, "the catching up went out at once"
    fake.assert_clean()


async def test_a_crash_right_after_a_ping_does_not_ping_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot dies right after it pinged the players, before that moment's marks were saved
    (here the timed save never comes and the stop saves nothing, as after a SIGKILL): started
    again, it does not send the ping again. The ping's own mark was saved before it went."""
    fake = world.fake

    async def killed(self: Marks) -> None:
        self._closed = True  # no save at the stop
        if self._timer is not None:
            self._timer.cancel()

    with monkeypatch.context() as crash:
        crash.setattr(catchup, "MARKS_EVERY", 3600.0)  # the moment's save never comes
        crash.setattr(Marks, "close", killed)
        async with fake.bot_running(make_bot(world)) as bot:
            await open_tables(world, 1)
            await quiet(fake, bot)
            pings = [m for m in fake.messages(world.channel) if "your turn" in m.content]
            assert len(pings) == 1, "the match pinged its players"
    since = len(fake.requests)
    async with fake.bot_running(make_bot(world)) as bot:
        await quiet(fake, bot)
        await asyncio.sleep(0.5)  # the catching up
        await quiet(fake, bot)
        sent = message_requests(fake, since)
        assert [r for r in sent if not r.startswith("PATCH")] == [], sent  # a table edit at most
        assert [m.id for m in fake.messages(world.channel) if "your turn" in m.content] == [pings[0].id]
    fake.assert_clean()
