"""Restarts: the bot is killed (SIGKILL) while several matches receive moves, then started
again. Every move a player saw accepted is still there, every match goes on to its end, and
the old table buttons still work. Deadlines come back with the time that was left.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import sys
import time
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tests.e2e_support import (
    World,
    answer_ids,
    answer_text,
    fire_component,
    fire_forged,
    make_bot,
    open_match,
    world,
)
from tests.fakediscord import BotProcess, FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionRecord

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

ACCEPTED = re.compile(r"Your hand: .* #(\d+)\nYou chose: ")
FOOTER = re.compile(r"move (\d+) · only you can see this")


def hand_id(table: FakeMessage) -> str:
    """The table's My hand button ("" once the match is over and the button is gone)."""
    button = next((b for b in table.buttons if b.label == "My hand"), None)
    return (button.custom_id or "") if button else ""


async def answered(rec: InteractionRecord, timeout: float, fake: FakeDiscord | None = None) -> bool:
    """True once answered; False after ``timeout`` or as soon as the bot's connection is gone."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if rec.acknowledged:
            return True
        if fake is not None and fake.active_session is None:
            return False
        await asyncio.sleep(0.005)
    return False


async def keep_playing(
    world: World, user: FakeUser, table: FakeMessage, seen: list[InteractionRecord]
) -> None:
    """Open the hand from the table and press the first move, again and again, until the bot is gone."""
    fake = world.fake
    while fake.active_session is not None and hand_id(table):
        rec = fire_component(fake, user, table, hand_id(table))
        if not await answered(rec, 2, fake):
            return
        ids = [c for c in answer_ids(rec) if c.startswith("kg:m:")]
        if not ids or rec.original_message_id is None:
            await asyncio.sleep(0.02)
            continue
        if fake.active_session is None:
            return
        move = fire_component(fake, user, fake.message(rec.original_message_id), ids[0])
        seen.append(move)
        if not await answered(move, 2, fake):
            return


def stored_moves(db: Path) -> set[tuple[int, int, int | None]]:
    with sqlite3.connect(db) as conn:
        return {(m, v, u) for m, v, u in conn.execute("SELECT match_id, version, user_id FROM moves")}


def statuses(db: Path) -> dict[int, str]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT id, status FROM matches"))


async def start(world: World, env: dict[str, str]) -> BotProcess:
    fake = world.fake
    before = fake.active_session
    proc = await fake.start_bot_process("bot", env=env)
    await fake.wait_for(
        lambda: fake.active_session not in (None, before) and bool(fake.commands),
        30,
        "the bot process to connect",
    )
    return proc


async def test_sigkill_while_matches_receive_moves_loses_nothing(world: World) -> None:
    fake = world.fake
    db = world.tmp_path / "bot.db"
    env = {"DATABASE_URL": f"sqlite:///{db}", "AI_DELAY": "0", "TABLE_EDIT_SECONDS": "0", "LOG_LEVEL": "INFO"}
    ann, bob, cat, dan, eve = world.users
    fake.external_quiet = 0.05  # the bot answers fast; tables are awaited explicitly
    channels: list[FakeChannel] = [world.channel] + [
        fake.add_channel(world.guild, f"t{i}") for i in (2, 3, 4)
    ]
    proc = await start(world, env)
    outputs = []
    try:
        tables = [
            await open_match(
                world, ann, [bob], game="crown", options={"variant": "tourney"}, channel=channels[0]
            ),
            await open_match(
                world, cat, [dan], game="crown", options={"variant": "tourney"}, channel=channels[1]
            ),
            await open_match(
                world, eve, [], game="crown", options={"variant": "defend"}, ais=2, channel=channels[2]
            ),
            await open_match(
                world, bob, [eve], game="crown", options={"variant": "support"}, channel=channels[3]
            ),
        ]
        hand_users = (ann, cat, eve, bob)
        early_hands = [await fake.click(u, t, label="My hand") for u, t in zip(hand_users, tables)]
        # (taken now: a newer hand message retires these, buttons and all, while play goes on)
        early_moves = [
            next(b.custom_id for b in h.buttons if b.custom_id.startswith("kg:m:")) for h in early_hands
        ]
        seats = [(ann, 0), (bob, 0), (cat, 1), (dan, 1), (eve, 2), (bob, 3), (eve, 3)]
        seen: list[InteractionRecord] = []
        players = [asyncio.create_task(keep_playing(world, u, tables[t], seen)) for u, t in seats]
        await fake.wait_for(
            lambda: sum(1 for r in seen if r.acknowledged and ACCEPTED.search(answer_text(r))) >= 8,
            20,
            "accepted moves",
        )
        await proc.kill()  # SIGKILL: no shutdown, no flush, moves in flight
        await asyncio.wait_for(asyncio.gather(*players), 10)
        outputs.append(proc.output())
        proc.cleanup()

        accepted = []
        for rec in seen:
            text = answer_text(rec)
            found = ACCEPTED.search(text)
            if rec.acknowledged and found:
                version = FOOTER.search(text)
                assert version, text
                accepted.append((int(found.group(1)), int(version.group(1)), rec.user.id))
        assert len(accepted) >= 8
        stored = stored_moves(db)
        missing = [a for a in accepted if a not in stored]
        assert not missing, f"moves a player saw accepted are gone after the crash: {missing}"

        proc = await start(world, env)
        # The old table buttons work, the older ones answer with a fresh hand.
        for table, early, old_move, user in zip(tables, early_hands, early_moves, hand_users):
            if "My hand" in [b.label for b in table.buttons]:
                hand = await fake.click(user, table, hand_id(table))
                assert hand.ephemeral and "Your hand" in hand.text, hand.text
            older = fire_forged(fake, user, fake.channel(early.response.channel_id), old_move, ephemeral=True)
            assert await answered(older, 3), "a button from before the crash is answered"
            assert "out of date" in answer_text(older) or "over" in answer_text(older), answer_text(older)
        # Every match continues to its end.
        for _ in range(200):
            open_tables = [t for t in tables if "finished" not in t.text]
            if not open_tables:
                break
            for table in open_tables:
                for user in world.users:
                    if "My hand" not in [b.label for b in table.buttons]:
                        continue
                    rec = fire_component(fake, user, table, hand_id(table))
                    if not await answered(rec, 3):
                        raise AssertionError("the restarted bot stopped answering")
                    moves = [c for c in answer_ids(rec) if c.startswith("kg:m:")]
                    if moves and rec.original_message_id is not None:
                        play = fire_component(fake, user, fake.message(rec.original_message_id), moves[0])
                        assert await answered(play, 3)
            await asyncio.sleep(0.05)
        await fake.wait_for(
            lambda: all("finished" in t.text for t in tables), 15, "every table to show its end"
        )
        assert set(statuses(db).values()) == {"finished"}
        after = stored_moves(db)
        assert stored <= after
        with sqlite3.connect(db) as conn:
            for (match_id,) in conn.execute("SELECT id FROM matches"):
                versions = [
                    v
                    for (v,) in conn.execute(
                        "SELECT version FROM moves WHERE match_id=? ORDER BY version", (match_id,)
                    )
                ]
                assert len(versions) == len(set(versions)), "one move per version"
        await proc.terminate()
        outputs.append(proc.output())
        for out in outputs:
            assert "Traceback" not in out, out[-3000:]
            assert " ERROR " not in out, out[-3000:]
        assert fake.late_interactions == [] and fake.double_acks == []
    finally:
        if proc.running:
            await proc.kill()
        proc.cleanup()


async def test_a_turn_deadline_comes_back_with_the_time_that_was_left(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    turn = 3
    async with fake.bot_running(make_bot(world, turn_seconds=turn)) as bot:
        await open_match(world, ann, [], game="crown", options={"variant": "tourney"}, ais=1)
        started = time.time()
        for _ in range(100):  # until the AI has moved and ann's deadline alone runs
            snap = await bot.service.active_in_channel(world.channel.id)
            if (snap.record.deadline or {}).get("turn", {}).get("seats") == [0]:
                break
            await asyncio.sleep(0.05)
        assert snap.record.deadline["turn"]["seats"] == [0]
        deadline = snap.record.deadline["turn"]["at"]
    await asyncio.sleep(1.5)  # the bot is down for a while
    async with fake.bot_running(make_bot(world, turn_seconds=turn)) as bot:
        for _ in range(int((turn + 3) / 0.05)):
            if any("ran out of time" in line for line in (await bot.service.get(snap.id)).log()):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("no default move after the restart")
        moves = await bot.repo.moves(snap.id)
        timed_out = next(m for m in moves if m.seat == 0 and m.user_id is None)
        # The deadline kept its time: not a fresh 3 s from the restart.
        assert abs(timed_out.created_at - deadline) < 0.6, (
            timed_out.created_at - started,
            deadline - started,
        )
        # The reminder came before the default move; the next turn's ping may since have
        # taken its message over (an edit), so look through every version of the messages.
        reminders = [m for m in fake.messages(world.channel) if any("⏰" in v["content"] for v in m.versions)]
        assert len(reminders) >= 1
        await bot.service.cancel(snap.id, ann.id, is_admin=True)
    fake.assert_clean()
