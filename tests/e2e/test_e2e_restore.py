"""Interactions that arrive while the bot restores its matches (issue 47): the bot is
connected during the restore; what waits for it is deferred within Discord's 3 seconds and
answered once the matches are back, the rest is answered at once.

The restore is slowed down here (it sleeps ``SLOW`` seconds before taking the matches back)
so that every interaction surely arrives during it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from bot.app import KingBot
from bot.service import restart
from bot.ui.replies import GENERIC_FAILURE
from tests.e2e_support import (
    World,
    acknowledged,
    fire_command,
    fire_component,
    fire_forged,
    make_bot,
    quiet,
    replies,
    world,
)
from tests.fakediscord import FakeChannel, FakeMessage, InteractionRecord

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

SLOW = 5.0  # seconds the restore sleeps before it takes the matches back: past Discord's 3
CALLBACK_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE = 4, 5, 6


async def running_matches(world: World, count: int) -> list[FakeChannel]:
    """``count`` running two-player King and Crown matches, one a channel, their tables posted."""
    fake = world.fake
    ann, bob = world.users[:2]
    bot = make_bot(world)
    await bot.repo.migrate()
    channels = [fake.add_channel(world.guild, f"m{i}") for i in range(count)]
    for channel in channels:
        snap = await bot.service.open_lobby(
            guild_id=world.guild.id,
            channel_id=channel.id,
            host_id=ann.id,
            host_name="ann",
            game_id="crown",
            options={"variant": "defend"},
        )
        await bot.service.join(snap.id, bob.id, "bob")
        await bot.service.start(snap.id, ann.id)
    await bot.service.close()
    await bot.repo.close()
    async with fake.bot_running(make_bot(world)) as bot:  # posts every table
        await fake.wait_for(
            lambda: all(
                any("My hand" in b.label for m in fake.messages(c) for b in m.buttons) for c in channels
            ),
            20,
            "every table posted",
        )
        await quiet(fake, bot)
    return channels


@asynccontextmanager
async def slow_restore(world: World, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[KingBot]:
    """The bot started again, its restore held for ``SLOW`` seconds."""
    original = restart.Restorer._restore_matches

    async def held(self: restart.Restorer, freeze: bool) -> list:  # type: ignore[type-arg]
        await asyncio.sleep(SLOW)
        return await original(self, freeze)

    monkeypatch.setattr(restart.Restorer, "_restore_matches", held)
    async with world.fake.bot_running(make_bot(world)) as bot:
        assert isinstance(bot, KingBot)
        yield bot


def table_of(world: World, channel: FakeChannel) -> FakeMessage:
    return next(m for m in world.fake.messages(channel) if any(b.label == "My hand" for b in m.buttons))


def answered_in_time(records: list[InteractionRecord]) -> list[str]:
    return [
        f"{rec.description}: first answered after {rec.elapsed}"
        for rec in records
        if rec.late or rec.elapsed is None or rec.elapsed >= 3
    ]


def answers(world: World, rec: InteractionRecord) -> list[FakeMessage]:
    """The messages that answer ``rec`` (a deferred update's @original is the clicked message)."""
    if rec.callback_type == DEFERRED_UPDATE:
        return [world.fake.message(m) for m in rec.followup_ids]
    return replies(world.fake, rec)


def texts(world: World, rec: InteractionRecord) -> str:
    return "\n".join(m.text for m in answers(world, rec))


async def wait_answered(world: World, rec: InteractionRecord, what: Callable[[str], bool]) -> None:
    await world.fake.wait_for(lambda: what(texts(world, rec)), 10, f"the answer to {rec.description}")


async def test_buttons_and_commands_during_a_slow_restore_are_deferred_in_time_then_answered(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    channels = await running_matches(world, 3)
    empty = fake.add_channel(world.guild, "empty")
    async with slow_restore(world, monkeypatch) as bot:
        assert not bot.restoring.done, "the bot is connected before its matches are restored"
        started = time.monotonic()
        tables = [table_of(world, c) for c in channels]
        hand_ids = [next(b.custom_id for b in t.buttons if b.label == "My hand") for t in tables]
        log_ids = [next(b.custom_id for b in t.buttons if b.label == "Log") for t in tables]
        hands = [fire_component(fake, ann, t, i) for t, i in zip(tables, hand_ids, strict=True)]
        log = fire_component(fake, bob, tables[0], log_ids[0])
        hand_command = fire_command(fake, bob, channels[1], "hand")
        busy = fire_command(fake, ann, channels[2], "play", [{"name": "game", "type": 3, "value": "crown"}])
        lobby = fire_command(fake, ann, empty, "play", [{"name": "game", "type": 3, "value": "crown"}])
        helped = fire_command(fake, bob, channels[0], "help")
        stray = fire_forged(fake, bob, channels[0], "kg:nothing:1")
        fired = [*hands, log, hand_command, busy, lobby, helped, stray]
        await acknowledged(fake, fired)
        assert time.monotonic() - started < SLOW and not bot.restoring.done, "all answered during the restore"
        assert answered_in_time(fired) == []
        for rec in (*hands, log):
            assert rec.callback_type == DEFERRED_UPDATE, rec.description
        for rec in (hand_command, busy, lobby):
            assert rec.callback_type == DEFERRED_MESSAGE, rec.description
        for rec in (helped, stray):  # they need no match: answered as usual
            assert rec.callback_type == CALLBACK_MESSAGE, rec.description

        # Once the matches are back, every deferred interaction gets its real answer.
        for rec in (*hands, hand_command):
            await wait_answered(world, rec, lambda text: "Your hand" in text)
            assert all(m.ephemeral for m in answers(world, rec)), rec.description
        await wait_answered(world, log, lambda text: "Log: King and Crown" in text)
        await wait_answered(world, busy, lambda text: "already" in text or "running" in text)
        assert all(m.ephemeral for m in answers(world, busy)), "a refusal of /play is for its player alone"
        await wait_answered(world, lobby, lambda text: "Join" in text or "lobby" in text.lower())
        posted = [m for m in replies(fake, lobby) if not m.ephemeral]
        assert len(posted) == 1 and posted[0].buttons, posted
        await fake.wait_for(
            lambda: all(m.deleted for m in replies(fake, lobby) if m.ephemeral),
            5,
            "the note before the lobby gone",
        )
        for _ in range(100):  # the lobby learns its message once it is posted
            snap = await bot.service.active_in_channel(empty.id)
            if snap is not None and snap.record.message_id is not None:
                break
            await asyncio.sleep(0.05)
        assert snap is not None and snap.record.message_id == posted[0].id, "the lobby knows its message"
        assert not any(GENERIC_FAILURE in texts(world, rec) for rec in fired)
        await quiet(fake, bot)
        await fake.wait_for(lambda: not bot.hands._tasks, 10, "the hands' pictures")
    fake.assert_clean()
