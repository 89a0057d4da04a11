"""Discord's edit limit: a table moving fast (one person and an instant AI seat) is edited
at most once a second, never meets the limit the fake Discord enforces (5 edits of one
message per 5 seconds, answered 429 past it), and still shows the newest state promptly."""

from __future__ import annotations

import itertools
import time

import pytest

from bot.app import KingBot
from bot.settings import Settings
from tests.e2e_support import World, open_match, quiet, world

pytestmark = pytest.mark.asyncio
__all__ = ["world"]


async def test_a_fast_table_stays_under_discords_edit_limit_and_current(world: World) -> None:
    fake = world.fake
    fake.edit_limit = (5, 5.0)
    ann = world.users[0]
    bot = KingBot(
        Settings(
            token=fake.token,
            database_url=world.db_url,
            ai_delay=0,
            sync_commands=True,
            table_edit_seconds=1.0,
        )
    )
    async with fake.bot_running(bot):
        table = await open_match(world, ann, [], game="crown", options={"variant": "tourney"}, ais=1)
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        moves = 0
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            seat = snap.seat_of(ann.id)
            legal = snap.legal_moves(seat) if seat is not None else []
            if legal:
                await fake.slash(ann, world.channel, "move", move=legal[0].code)
                moves += 1
            else:
                await quiet(fake)
        last_move = time.monotonic()
        assert moves == 5, "five rounds, each a pick by ann and one by the AI"
        final = (await bot.service.get(match_id)).version
        await fake.wait_for(
            lambda: f"move {final}" in table.text, what="the newest state on the table", timeout=5
        )
        assert time.monotonic() - last_move < 2.5, "the table catches up within about a second"
        await quiet(fake, bot)
    assert fake.rate_limited == [], "no edit met Discord's limit"
    edits = fake.edit_times[table.id]
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    assert gaps and min(gaps) >= 0.9, gaps
