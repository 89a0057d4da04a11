"""Turn pings off and on again, end to end: the server's setting (/config turn_pings:, Manage
Server) and a player's own (/settings turn_pings:). With pings off the awaited player is not
mentioned; the others still are; on again, the next turn mentions them. Played as a crown
tourney (both players pick every round, five rounds)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.app import KingBot
from tests.e2e_support import World, make_bot, open_match, quiet, said, world
from tests.e2e_turns import assert_one_turn_message_at_most, turn_messages
from tests.fakediscord import FakeUser

pytestmark = pytest.mark.asyncio
__all__ = ["world"]


async def pick(world: World, bot: KingBot, user: FakeUser) -> None:
    """``user`` makes their first legal move, and the bot finishes what it causes."""
    choices = await world.fake.autocomplete(user, world.channel, "move", focused="move", move="")
    assert choices, f"{user.name} has no move"
    played = await world.fake.slash(user, world.channel, "move", move=choices[0]["value"])
    assert played.ephemeral and "You chose" in said(played), said(played)
    await quiet(world.fake, bot)


def mentioned(world: World, since: int = 0) -> list[set[int]]:
    """Whom each turn message posted from the ``since``-th on mentions."""
    return [set(m.mention_ids) for m in turn_messages(world.fake, world.channel)[since:]]


async def test_the_servers_setting_turns_every_ping_off_and_on(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    fake.set_permissions(ann, manage_guild=True)
    async with fake.bot_running(make_bot(world)) as bot:
        refused = await fake.slash(bob, world.channel, "config", turn_pings=False)
        assert refused.ephemeral and "Manage Server" in refused.text, refused.text
        off = await fake.slash(ann, world.channel, "config", turn_pings=False)
        assert off.ephemeral and "Turn pings\n**off**" in off.text, off.text
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "tourney"})
        await quiet(fake, bot)
        assert "Waiting for" in table.text, "the table still says whose decision is awaited"
        await pick(world, bot, ann)
        await pick(world, bot, bob)
        assert mentioned(world) == [], "nobody is mentioned while the server has pings off"

        on = await fake.slash(ann, world.channel, "config", turn_pings=True)
        assert on.ephemeral and "Turn pings\n**on**" in on.text, on.text
        before = len(turn_messages(fake, world.channel))
        await pick(world, bot, ann)  # round 2: bob is the one still awaited
        await pick(world, bot, bob)  # round 3: both
        assert mentioned(world, before) == [{bob.id}, {ann.id, bob.id}]
        assert_one_turn_message_at_most(fake, world.channel)
    fake.assert_clean()


async def test_a_players_own_setting_leaves_them_out_and_the_others_in(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        off = await fake.slash(bob, world.channel, "settings", turn_pings=False)
        assert off.ephemeral and "Turn pings\n**off**" in off.text, off.text
        await open_match(world, ann, [bob], game="crown", options={"variant": "tourney"})
        await quiet(fake, bot)
        assert mentioned(world) == [{ann.id}], "ann is mentioned, bob is not"
        await pick(world, bot, ann)  # bob alone is awaited: no ping, and ann's is gone
        assert [m for m in fake.messages(world.channel) if m in turn_messages(fake, world.channel)] == []
        await pick(world, bot, bob)
        assert mentioned(world) == [{ann.id}, {ann.id}], "round 2 mentions ann alone again"

        on = await fake.slash(bob, world.channel, "settings", turn_pings=True)
        assert on.ephemeral and "Turn pings\n**on**" in on.text, on.text
        await pick(
            world, bot, bob
        )  # round 2: ann is still awaited (her ping is edited, nobody is mentioned anew)
        await pick(world, bot, ann)  # round 3: both
        last = turn_messages(fake, world.channel)[-1]
        assert set(last.mention_ids) == {ann.id, bob.id} and not last.deleted, last.content
        assert all(bob.id not in m for m in mentioned(world)[:-1]), (
            "bob was left out while his pings were off"
        )
        assert_one_turn_message_at_most(fake, world.channel)
    fake.assert_clean()


async def test_a_turn_pings_only_those_who_keep_it_waiting(world: World) -> None:
    """With TURN_PING_SECONDS a turn mentions its players only once it has waited that long
    for them: people who pick at once are never pinged (a tourney round after round), the
    ping of someone who moved goes at once, and whoever keeps the table waiting is mentioned
    once, after the wait."""
    fake = world.fake
    ann, bob = world.users[:2]
    wait = 1.5
    bot = make_bot(world)
    bot.settings = replace(bot.settings, turn_ping_seconds=wait)  # read when the bot sets up
    async with fake.bot_running(bot):
        await open_match(world, ann, [bob], game="crown", options={"variant": "tourney"})
        await quiet(fake, bot)
        for _round in range(2):  # both pick within the wait: no mention at all
            await pick(world, bot, ann)
            await pick(world, bot, bob)
        assert mentioned(world) == [], "players who move at once are never pinged"
        await pick(world, bot, ann)  # round 3: bob keeps the table waiting
        await asyncio.sleep(wait + 1.0)
        await quiet(fake, bot)
        assert mentioned(world) == [{bob.id}], "the one still awaited is pinged after the wait"
        await pick(world, bot, bob)  # round 4 begins: bob's ping goes at once
        assert [m for m in turn_messages(fake, world.channel) if not m.deleted] == [], (
            "the ping of someone who moved is deleted at once, and the next waits its time"
        )
        assert_one_turn_message_at_most(fake, world.channel)
    fake.assert_clean()
