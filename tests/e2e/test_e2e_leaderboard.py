"""End to end: the unmodified bot against the fake Discord, for leaderboards and seasons.

Two King and Crown matches are played through slash commands and buttons, then
``/leaderboard`` shows the winners in order, pages with its persistent buttons (also
after a restart), ``/stats`` shows a player's rank and results, seasons roll over only
for members with Manage Server, and another server sees none of it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.app import KingBot
from bot.settings import Settings
from tests.fakediscord import BareId, FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser

pytestmark = pytest.mark.asyncio


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    other_guild: FakeGuild
    other_channel: FakeChannel
    ann: FakeUser  # Manage Server
    bob: FakeUser
    cat: FakeUser
    db_url: str


@pytest_asyncio.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Card Club")
        channel = fake.add_channel(guild, "tables")
        other = fake.add_guild("Elsewhere")
        other_channel = fake.add_channel(other, "games")
        ann = fake.add_user("ann", manage_guild=True)
        bob = fake.add_user("bob")
        cat = fake.add_user("cat")
        yield World(
            fake, guild, channel, other, other_channel, ann, bob, cat, f"sqlite:///{tmp_path / 'bot.db'}"
        )
        assert fake.unknown_routes == [], fake.unknown_routes


def make_bot(world: World) -> KingBot:
    return KingBot(
        Settings(
            token=world.fake.token,
            database_url=world.db_url,
            ai_delay=0,
            sync_commands=True,
            table_edit_seconds=0,
        )
    )


@pytest_asyncio.fixture
async def bot(world: World) -> AsyncIterator[KingBot]:
    async with world.fake.bot_running(make_bot(world)) as client:
        yield client  # type: ignore[misc]


async def play_defend(world: World, channel: FakeChannel, winner: FakeUser, loser: FakeUser) -> None:
    """Defend the King with two: the winner picks the King, the loser the Beggar, twice."""
    fake = world.fake
    lobby = await fake.slash(winner, channel, "play", game="crown")
    assert lobby.response is not None and not lobby.ephemeral
    await lobby.click("Join", user=loser)
    await lobby.click("Start", user=winner)
    for _ in range(2):
        mine = await fake.slash(winner, channel, "crown pick", card="K")
        assert mine.ephemeral, mine.text
        theirs = await fake.slash(loser, channel, "crown pick", card="B")
        assert theirs.ephemeral, theirs.text
    await fake.settle()


def mentions(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"<@!?(\d+)>", text)]


async def test_two_matches_then_the_leaderboard_shows_the_winners_in_order(
    world: World, bot: KingBot
) -> None:
    fake = world.fake
    await play_defend(world, world.channel, world.ann, world.bob)
    await play_defend(world, world.channel, world.cat, world.bob)

    board = await fake.slash(world.bob, world.channel, "leaderboard", game="crown")
    assert not board.ephemeral and board.response is not None
    text = board.text
    assert "King and Crown leaderboard" in text and "Season 1" in text
    # Ann beat a fresh Bob, Cat beat a Bob who had already lost: Ann gains more skill.
    assert mentions(text) == [world.ann.id, world.cat.id, world.bob.id]
    assert "1W 0L (100%)" in text and "0W 2L (0%)" in text
    assert "Page 1/1" in text and "3 players" in text
    assert [b.label for b in board.buttons] == ["«", "‹ Prev", "Next ›", "»"]
    assert all(b.disabled for b in board.buttons)

    stats = await fake.slash(world.bob, world.channel, "stats", user=world.cat)
    assert "Stats: cat" in stats.text and "Rank **#2** of 3" in stats.text
    assert "won, place 1 of 2" in stats.text
    mine = await fake.slash(world.bob, world.channel, "stats")
    assert "Rank **#3** of 3" in mine.text and "2 matches, 0 wins" in mine.text

    # Another server sees none of this.
    elsewhere = await fake.slash(world.bob, world.other_channel, "leaderboard", game="crown")
    assert "No results yet" in elsewhere.text and mentions(elsewhere.text) == []
    nothing = await fake.slash(world.bob, world.other_channel, "stats")
    assert "no finished matches on this server" in nothing.text
    fake.assert_clean()


async def test_paging_buttons_survive_a_restart(world: World) -> None:
    fake = world.fake
    async with fake.bot_running(make_bot(world)) as first:
        assert isinstance(first, KingBot)
        first.leaderboard.page_size = 1
        await play_defend(world, world.channel, world.ann, world.bob)
        await play_defend(world, world.channel, world.cat, world.bob)
        board = await fake.slash(world.ann, world.channel, "leaderboard", game="crown")
        message: FakeMessage = board.response  # type: ignore[assignment]
        assert mentions(message.text) == [world.ann.id] and "Page 1/3" in message.text
        nxt = await board.click("Next ›", user=world.bob)
        assert nxt.callback_type == 7 and nxt.response is message
        assert mentions(message.text) == [world.cat.id] and "Page 2/3" in message.text

    async with fake.bot_running(make_bot(world)) as second:
        assert isinstance(second, KingBot)
        second.leaderboard.page_size = 1
        last = await fake.click(world.cat, message, label="»")
        assert last.callback_type == 7 and not last.ephemeral
        assert mentions(message.text) == [world.bob.id] and "Page 3/3" in message.text
        assert message.find_button("Next ›").disabled and not message.find_button("‹ Prev").disabled
        first_page = await fake.click(world.cat, message, label="«")
        assert first_page.callback_type == 7 and mentions(message.text) == [world.ann.id]
    fake.assert_clean()


async def test_seasons_need_manage_server_and_archive_champions(world: World, bot: KingBot) -> None:
    fake = world.fake
    await play_defend(world, world.channel, world.ann, world.bob)

    refused = await fake.slash(world.bob, world.channel, "season start", name="Bob's season")
    assert refused.ephemeral
    assert refused.text == "Only members with the Manage Server permission can start a season."
    refused = await fake.slash(world.bob, world.channel, "season end")
    assert (
        refused.ephemeral
        and refused.text == "Only members with the Manage Server permission can end a season."
    )

    started = await fake.slash(world.ann, world.channel, "season start", name="Summer")
    assert not started.ephemeral
    assert "Season 1 has ended" in started.text and "Summer" in started.text
    assert mentions(started.text) == [world.ann.id, world.bob.id]

    fresh = await fake.slash(world.bob, world.channel, "leaderboard", game="crown")
    assert "Summer (season 2, current)" in fresh.text and "No results yet" in fresh.text
    old = await fake.slash(world.bob, world.channel, "leaderboard", game="crown", season=1)
    assert "Season 1 (ended)" in old.text and mentions(old.text) == [world.ann.id, world.bob.id]
    choices = await fake.autocomplete(
        world.bob, world.channel, "leaderboard", focused="season", game="crown", season=""
    )
    assert [c["value"] for c in choices] == [2, 1]

    empty = await fake.slash(world.ann, world.channel, "season end")
    assert empty.ephemeral and empty.text == "Summer has no results yet, so there is nothing to end."
    listing = await fake.slash(world.bob, world.channel, "season list")
    assert "2. Summer" in listing.text and "1. Season 1" in listing.text
    assert f"🥇 <@{world.ann.id}>" in listing.text and f"🥈 <@{world.bob.id}>" in listing.text

    missing = await fake.slash(world.bob, world.channel, "leaderboard", game="crown", season=9)
    assert (
        missing.ephemeral and missing.text == "This server has no season 9; /season list shows the seasons."
    )
    # The other server still has its own first season.
    other = await fake.slash(world.bob, world.other_channel, "season list")
    assert "1. Season 1" in other.text and "Summer" not in other.text
    fake.assert_clean()


async def test_stats_of_a_bare_user_names_them_as_their_matches_did(world: World, bot: KingBot) -> None:
    """Issue 47: Discord sends a member who left the server (or is not cached) as a bare
    user, an id alone; /stats answers with their record, named as their seat was."""
    fake = world.fake
    await play_defend(world, world.channel, world.cat, world.bob)
    stats = await fake.slash(world.bob, world.channel, "stats", user=BareId(world.cat.id))
    assert stats.response is not None and not stats.ephemeral
    assert "Something went wrong" not in stats.text
    assert "Stats: cat" in stats.text and "won, place 1 of 2" in stats.text
    stranger = await fake.slash(world.bob, world.channel, "stats", user=BareId(123456789012345))
    assert "Something went wrong" not in stranger.text
    assert "no finished matches on this server" in stranger.text
    fake.assert_clean()
