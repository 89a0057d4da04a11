"""The guide's example game (docs/ADDING_A_GAME.md) played end to end through the fake Discord.

It is registered for this test only: a game needs nothing but its engine module and a
registry entry for the whole bot to host it (lobby, table, hand, /highcard commands).
"""

from __future__ import annotations

import dataclasses
import logging
import re

import pytest

from bot.games import EXAMPLES, GAMES
from tests.e2e_support import World, error_records, make_bot, open_match, said, world
from tests.postgres import BACKENDS, postgres_server

pytestmark = pytest.mark.asyncio
__all__ = ["postgres_server", "world"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_example_game_plays_through_discord(
    world: World,
    backend: str,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """On SQLite, and on a real PostgreSQL server: a whole match, its results and standings."""
    caplog.set_level(logging.WARNING)
    if backend == "postgres":
        world = dataclasses.replace(world, db_url=request.getfixturevalue("postgres_server").database())
    monkeypatch.setitem(GAMES, "highcard", EXAMPLES["highcard"])
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        assert "highcard" in [c["name"] for c in fake.commands], (
            "its command group comes from its declaration"
        )
        table = await open_match(world, ann, [bob], game="highcard", options={"rounds": "3"})
        assert "High Card" in table.text and "Round 1 of 3" in table.text
        for round_ in range(3):
            # ann by the hand's buttons, bob by /highcard play with the autocompleted value.
            hand = await fake.click(ann, table, label="My hand")
            assert hand.ephemeral and "Your cards (" in hand.text
            played = await hand.click(hand.response.buttons[-1].label, user=ann)
            assert played.ephemeral and "You chose: Play the" in said(played), said(played)
            choices = await fake.autocomplete(bob, world.channel, "highcard play", focused="card", card="")
            assert choices and all(c["value"].startswith("play:") for c in choices)
            done = await fake.slash(bob, world.channel, "highcard play", card=choices[0]["value"])
            assert done.ephemeral and "You chose" in said(done), said(done)
            if round_ < 2:
                await fake.wait_for(
                    lambda r=round_: f"Round {r + 2} of 3" in table.text, what="the next round"
                )
        await fake.wait_for(lambda: "finished" in table.text, what="the end")
        assert "🏆" in table.text and re.search(r"wins|Tie", table.text), table.text
        assert [b.label for b in table.buttons] == ["Rematch", "Replay", "Log"]
        again = await fake.slash(bob, world.channel, "highcard play", card="play:1s")
        assert again.ephemeral and "no active match" in again.text.lower()
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        assert len(await bot.repo.results(match_id)) == 2
    fake.assert_clean()
    assert error_records(caplog.records) == []


async def test_a_game_that_declares_no_commands_is_played_by_buttons_and_move(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commands are optional: without any, the hand's buttons and /move reach every move."""
    import copy

    bare = copy.copy(EXAMPLES["highcard"])
    bare.info = dataclasses.replace(bare.info, commands=())
    monkeypatch.setitem(GAMES, "highcard", bare)
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)):
        assert "highcard" not in [c["name"] for c in fake.commands], "no command group for it"
        table = await open_match(world, ann, [bob], game="highcard", options={"rounds": "3"})
        for _round in range(3):
            hand = await fake.click(ann, table, label="My hand")
            await hand.click(hand.response.buttons[0].label, user=ann)
            choices = await fake.autocomplete(bob, world.channel, "move", focused="move", move="")
            done = await fake.slash(bob, world.channel, "move", move=choices[-1]["value"])
            assert done.ephemeral and "You chose" in said(done), said(done)
        await fake.wait_for(lambda: "finished" in table.text and "🏆" in table.text, what="the end")
    fake.assert_clean()
