"""AI levels through the fake Discord: the host adds easy, normal and hard AI seats, the level
shows on the seat and is stored with it, and a hard seat plays a whole match; old stored
seats without a level load as normal."""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from db.records import Seat
from tests.e2e_support import World, custom_id_is_safe, custom_ids, leave_for_good, make_bot, world

__all__ = ["world"]


def test_seat_level_round_trips_and_old_seats_load_as_normal() -> None:
    hard = Seat(None, "AI 1", ai=True, level="hard")
    assert Seat.from_json(hard.to_json()) == hard
    old = {"user_id": None, "name": "AI 1", "ai": True, "left": False, "missed": 0}  # stored before levels
    assert Seat.from_json(old).level == "normal"
    assert Seat(5, "ann").level == "normal"


async def test_host_adds_ai_seats_at_each_level_and_a_hard_seat_plays_a_match(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        bot.service.ai_seats.think = 0.05  # keep the test quick; the benchmark measures the real budget
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        table = lobby.response
        labels = [b.label for b in table.buttons]
        assert {"Add AI", "Add easy AI", "Add hard AI"} <= set(labels)
        assert all(custom_id_is_safe(c) for c in custom_ids(table))
        refused = await fake.click(bob, table, label="Add hard AI")
        assert refused.ephemeral and "Only the host" in refused.text
        for label in ("Add easy AI", "Add AI", "Add hard AI"):
            added = await fake.click(ann, table, label=label)
            assert added.callback_type in (6, 7), added.text
        await fake.wait_for(lambda: "AI 3 (hard AI)" in table.text, what="the hard AI seat")
        assert "AI 1 (easy AI)" in table.text and "AI 2 (normal AI)" in table.text
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        record = await bot.repo.get_match(match_id)
        assert record is not None
        stored = record.seats
        assert [s.level for s in stored] == ["normal", "easy", "normal", "hard"]
        removed = await fake.click(ann, table, label="Remove AI")
        assert removed.callback_type in (6, 7)
        removed = await fake.click(ann, table, label="Remove AI")
        assert removed.callback_type in (6, 7)
        await fake.wait_for(lambda: "AI 2" not in table.text, what="the AI seats removed")
        await fake.click(ann, table, label="Add hard AI")
        await fake.wait_for(lambda: "AI 2 (hard AI)" in table.text, what="the hard AI seat")
        snap = await bot.service.get(match_id)
        assert [s.level for s in snap.seats] == ["normal", "easy", "hard"]
        started = await fake.click(ann, table, label="Start")
        assert started.callback_type in (6, 7), started.text
        await fake.wait_for(
            lambda: {"My hand", "Rematch"} & {b.label for b in table.buttons}, what="the table"
        )
        left = await leave_for_good(fake, ann, world.channel)  # the AI seats play the match to its end
        assert left.ephemeral
        await fake.wait_for(lambda: "finished" in table.text, 90, "the AI to finish")
        moves = await bot.repo.moves(match_id)
        assert any(m.seat == 2 for m in moves), "the hard AI seat moved"
    fake.assert_clean()
