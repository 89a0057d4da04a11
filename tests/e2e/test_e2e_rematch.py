"""Rematch, end to end: a finished table's Rematch button opens a new lobby in the channel
with the same game, options and AI seats; the other players are mentioned, join with one
click, and the host starts it. Pressed again, by someone who did not play, or while the
channel already has an active match, it answers one ephemeral sentence and changes nothing."""

from __future__ import annotations

import random

import pytest

from bot.app import KingBot
from tests.e2e_support import World, error_records, make_bot, open_match, quiet, world
from tests.e2e_turns import assert_one_turn_message_at_most
from tests.fakediscord import FakeMessage, FakeUser

pytestmark = pytest.mark.asyncio
__all__ = ["world"]


async def play_to_the_end(world: World, bot: KingBot, table: FakeMessage, users: list[FakeUser]) -> None:
    """Each awaited person makes a random legal move (by /move) until the table is finished
    (random: two people always picking the same card would tie forever)."""
    fake = world.fake
    rnd = random.Random(5)
    for _ in range(60):
        if "Rematch" in [b.label for b in table.buttons]:
            return
        moved = False
        for user in users:
            choices = await fake.autocomplete(user, world.channel, "move", focused="move", move="")
            if choices:
                played = await fake.slash(user, world.channel, "move", move=rnd.choice(choices)["value"])
                assert played.ephemeral, played.text
                moved = True
        if not moved:
            await quiet(fake, bot)
    await fake.wait_for(lambda: "Rematch" in [b.label for b in table.buttons], what="the finished table")


def one_sentence(text: str) -> bool:
    return "\n" not in text.strip() and text.strip().endswith(".") and text.count(". ") == 0


async def test_rematch_opens_the_same_lobby_and_the_others_join_with_one_click(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    ann, bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "defend"}, ais=1)
        old_id = (await bot.service.active_in_channel(world.channel.id)).id
        await play_to_the_end(world, bot, table, [ann, bob])
        await quiet(fake, bot)
        old = await bot.service.get(old_id)
        assert old.status.over

        # Someone who did not play cannot start it.
        outsider = await fake.click(cat, table, label="Rematch")
        assert outsider.ephemeral and one_sentence(outsider.text), outsider.text
        assert "Only the players" in outsider.text
        assert await bot.service.active_in_channel(world.channel.id) is None

        # bob asks for a rematch: a public lobby, ann mentioned.
        asked = await fake.click(bob, table, label="Rematch")
        assert not asked.ephemeral and asked.response is not None, asked.text
        lobby = asked.response
        assert (
            f"Rematch of #{old_id}" in lobby.text
            and ann.id in lobby.mention_ids
            and bob.id not in lobby.mention_ids
        )
        assert [b.label for b in lobby.buttons][:5] == ["Join", "Leave", "Add AI", "Start", "Cancel"]
        new = await bot.service.active_in_channel(world.channel.id)
        assert new is not None and new.id != old_id and new.record.message_id == lobby.id
        assert new.record.game_id == old.record.game_id and new.record.options == old.record.options
        assert [(s.user_id, s.ai, s.level) for s in new.seats] == [
            (bob.id, False, "normal"),
            (None, True, "normal"),
        ]
        assert new.record.host_id == bob.id and "AI 1" in lobby.text

        # Pressed again, by bob or by ann, while that lobby is open: one sentence saying where
        # to go, no second lobby.
        again = await fake.click(bob, table, label="Rematch")
        assert again.ephemeral and one_sentence(again.text), again.text
        assert f"Lobby #{new.id} is already open in this channel, and you are in it." == again.text
        again = await fake.click(ann, table, label="Rematch")
        assert again.ephemeral and one_sentence(again.text), again.text
        assert f"Lobby #{new.id} is already open in this channel: press Join on it to play." == again.text
        assert (await bot.service.active_in_channel(world.channel.id)).id == new.id

        # ann joins with one click, bob starts: it plays.
        joined = await fake.click(ann, lobby, label="Join")
        assert joined.callback_type in (6, 7), joined.text
        started = await fake.click(bob, lobby, label="Start")
        assert started.callback_type in (6, 7), started.text
        await fake.wait_for(lambda: "My hand" in [b.label for b in lobby.buttons], what="the rematch's table")
        running = await bot.service.get(new.id)
        assert running.status.name == "RUNNING" and [s.user_id for s in running.seats] == [
            bob.id,
            None,
            ann.id,
        ]

        # A Rematch of the old table while the new match runs: one sentence, nothing changes.
        busy = await fake.click(ann, table, label="Rematch")
        assert busy.ephemeral and one_sentence(busy.text) and f"active match (#{new.id})" in busy.text, (
            busy.text
        )
        await play_to_the_end(world, bot, lobby, [ann, bob])
        await quiet(fake, bot)
        assert "🏆" in lobby.text
        assert_one_turn_message_at_most(fake, world.channel)
    fake.assert_clean()
    assert error_records(caplog.records) == []
