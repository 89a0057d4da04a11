"""Proves tests.fakediscord drives a real, unmodified discord.py client.

The bot used here is a tiny one defined in this file (not the project's bot).
Run as a module (``python -m tests.fakediscord.run_bot tests.e2e.test_fakediscord``)
this file starts that same bot, which the subprocess test uses.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser

log = logging.getLogger(__name__)

pytestmark = pytest.mark.asyncio


# ---------------------------------------------------------------------------
# The tiny bot
# ---------------------------------------------------------------------------

BOARD_RE = re.compile(r"Board (\d+): (\d+) plays")


class CardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"card:(?P<game>[0-9]+):(?P<card>[A-Z0-9]+)"
):
    """A persistent button: works on any message, even after a restart."""

    def __init__(self, game: int, card: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Play {card}", style=discord.ButtonStyle.primary, custom_id=f"card:{game}:{card}"
            )
        )
        self.game = game
        self.card = card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> CardButton:
        return cls(int(match["game"]), match["card"])

    async def callback(self, interaction: discord.Interaction) -> None:
        assert interaction.message is not None
        found = BOARD_RE.search(interaction.message.content)
        plays = int(found[2]) + 1 if found else 1
        await interaction.response.send_message(f"You played {self.card}", ephemeral=True)
        await interaction.message.edit(
            content=f"Board {self.game}: {plays} plays (last {self.card} by {interaction.user.name})"
        )


def board_view(game: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CardButton(game, "K"))
    view.add_item(CardButton(game, "Q"))
    return view


class SuitMenu(discord.ui.View):
    @discord.ui.select(
        custom_id="suit",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=s.title(), value=s) for s in ("hearts", "spades", "clubs")],
        min_values=1,
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"Suits: {', '.join(select.values)}", view=None)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}", ephemeral=True)


crown = app_commands.Group(name="crown", description="The crown game")


@crown.command(name="pick", description="Pick a card")
@app_commands.describe(card="The card", times="How many times", target="Who gets it")
async def crown_pick(
    interaction: discord.Interaction, card: str, times: int = 1, target: discord.Member | None = None
) -> None:
    who = target.display_name if target else "nobody"
    await interaction.response.send_message(f"picked {card} x{times} for {who} ({type(times).__name__})")


@crown_pick.autocomplete("card")
async def crown_pick_card(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    cards = ["K", "Q", "J", "10", "9"]
    return [app_commands.Choice(name=f"Card {c}", value=c) for c in cards if c.startswith(current.upper())]


crown_admin = app_commands.Group(name="admin", description="Admin tools", parent=crown)


@crown_admin.command(name="reset", description="Reset the game")
async def crown_admin_reset(interaction: discord.Interaction, hard: bool) -> None:
    await interaction.response.send_message(f"reset hard={hard}")


def make_bot(**shard: int) -> commands.Bot:
    """The test bot; ``shard_id=..., shard_count=...`` for one shard of several."""
    bot = commands.Bot(
        command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05, **shard
    )

    @bot.tree.command(name="deal", description="Deal cards")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="Crown", value="crown"),
            app_commands.Choice(name="Duel", value="duel"),
        ]
    )
    async def deal(
        interaction: discord.Interaction, game: str, count: app_commands.Range[int, 1, 5] = 3
    ) -> None:
        embed = discord.Embed(title=f"Deal: {game}", description=f"{count} cards to {interaction.user.name}")
        embed.add_field(name="Deck", value="52 cards")
        await interaction.response.send_message(embed=embed)

    @bot.tree.command(name="hand", description="See your hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your hand: K, Q", ephemeral=True)

    @bot.tree.command(name="board", description="Post a board")
    async def board(interaction: discord.Interaction, game: int) -> None:
        await interaction.response.send_message(f"Board {game}: 0 plays", view=board_view(game))

    @bot.tree.command(name="menu", description="Suit menu")
    async def menu(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Choose suits", view=SuitMenu())

    @bot.tree.command(name="slow", description="Deferred")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("and one more")

    @bot.tree.command(name="sleepy", description="Answers too late")
    async def sleepy(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("finally")

    @bot.tree.command(name="ghost", description="Edits a message that does not exist")
    async def ghost(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            await interaction.channel.get_partial_message(1234567890).edit(content="boo")
        except discord.NotFound as exc:
            await interaction.response.send_message(f"error {exc.code}", ephemeral=True)

    @bot.tree.command(name="name", description="Opens a modal")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @bot.tree.command(name="setup", description="Managers only")
    @app_commands.default_permissions(manage_guild=True)
    async def setup(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("setup ok", ephemeral=True)

    @bot.tree.command(name="extras", description="File, thread and DM")
    async def extras(interaction: discord.Interaction) -> None:
        scores = discord.File(io.BytesIO(b"alice 3\nbob 1\n"), filename="scores – week 1.txt")
        await interaction.response.send_message("scores", file=scores)
        message = await interaction.original_response()
        thread = await message.create_thread(name="Game 1")
        await thread.send("Game thread opened")
        await interaction.user.send("psst, your cards")

    seen: list[str] = []
    bot.seen = seen  # type: ignore[attr-defined]

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            seen.append(message.content)

    bot.tree.add_command(crown)

    async def setup_hook() -> None:
        bot.add_dynamic_items(CardButton)
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser


@pytest_asyncio.fixture
async def world() -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Card Club")
        channel = fake.add_channel(guild, "tables")
        alice = fake.add_user("alice", manage_guild=True)
        bob = fake.add_user("bob")
        yield World(fake, guild, channel, alice, bob)
        assert fake.unknown_routes == [], fake.unknown_routes
        assert fake.unknown_ops == []


@pytest_asyncio.fixture
async def bot(world: World) -> AsyncIterator[commands.Bot]:
    async with world.fake.bot_running(make_bot()) as client:
        yield client  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


async def test_login_ready_and_sync(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Card Club"
    assert guild.get_channel(world.channel.id) is not None
    assert guild.me.guild_permissions.send_messages and guild.me.guild_permissions.embed_links
    assert {c["name"] for c in fake.global_commands} >= {"deal", "hand", "board", "crown"}
    paths = {(r.method, r.route) for r in fake.requests}
    assert ("GET", "/users/@me") in paths and ("PUT", "/applications/{app_id}/commands") in paths
    fake.assert_clean()


async def test_public_and_ephemeral_slash(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "deal", game="crown", count=2)
    assert result.callback_type == 4 and not result.late and not result.ephemeral
    assert "Deal: crown" in result.text and "2 cards to bob" in result.text and "52 cards" in result.text
    assert fake.last_message(world.channel) is result.response

    hand = await fake.slash(world.bob, world.channel, "hand")
    assert hand.ephemeral and hand.response is not None and hand.response.flags & 64
    assert hand.text == "Your hand: K, Q"
    assert hand.response not in fake.messages(world.channel)
    assert hand.response in fake.messages(world.channel, for_user=world.bob)
    assert hand.response not in fake.messages(world.channel, for_user=world.alice)

    with pytest.raises(ValueError):  # Discord's client enforces choices and ranges
        await fake.slash(world.bob, world.channel, "deal", game="poker")
    with pytest.raises(ValueError):
        await fake.slash(world.bob, world.channel, "deal", game="duel", count=9)
    fake.assert_clean()


async def test_subcommands_groups_and_option_types(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "crown pick", card="K", times=3, target=world.bob)
    assert result.text == "picked K x3 for bob (int)"
    options = result.record.payload["data"]["options"]
    assert options[0]["type"] == 1 and options[0]["name"] == "pick"
    assert {o["name"]: o["type"] for o in options[0]["options"]} == {"card": 3, "times": 4, "target": 6}
    assert str(world.bob.id) in result.record.payload["data"]["resolved"]["members"]

    reset = await fake.slash(world.alice, world.channel, "crown admin reset", hard=True)
    assert reset.text == "reset hard=True"
    assert reset.record.payload["data"]["options"][0]["type"] == 2

    with pytest.raises(PermissionError):  # default_member_permissions = Manage Server
        await fake.slash(world.bob, world.channel, "setup")
    ok = await fake.slash(world.alice, world.channel, "setup")
    assert ok.text == "setup ok" and ok.ephemeral
    fake.assert_clean()


async def test_autocomplete(world: World, bot: commands.Bot) -> None:
    choices = await world.fake.autocomplete(world.bob, world.channel, "crown pick", focused="card", card="")
    assert [c["value"] for c in choices] == ["K", "Q", "J", "10", "9"]
    choices = await world.fake.autocomplete(world.bob, world.channel, "crown pick", focused="card", card="q")
    assert choices == [{"name": "Card Q", "value": "Q"}]


async def test_persistent_button_edit_in_place(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    board = await fake.slash(world.alice, world.channel, "board", game=7)
    message = board.response
    assert message is not None and message.text == "Board 7: 0 plays"
    assert [b.label for b in board.buttons] == ["Play K", "Play Q"]
    assert board.find_button("Play Q").custom_id == "card:7:Q"

    click = await fake.click(world.bob, message, "card:7:K")
    assert click.callback_type == 4 and click.ephemeral and click.text == "You played K"
    assert click.response is not None and click.response.visible_to == world.bob.id
    assert click.edited == [message]
    assert message.edits == 1 and message.text == "Board 7: 1 plays (last K by bob)"
    assert [v["content"] for v in message.versions] == [
        "Board 7: 0 plays",
        "Board 7: 1 plays (last K by bob)",
    ]
    assert [b.label for b in message.buttons] == ["Play K", "Play Q"]  # the view survives the edit

    again = await board.click("Play Q", user=world.alice)
    assert again.text == "You played Q" and message.edits == 2
    assert fake.messages(world.channel) == [message]  # ephemeral replies are not public
    fake.assert_clean()


async def test_select_updates_message(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    menu = await fake.slash(world.bob, world.channel, "menu")
    (select,) = menu.selects
    assert (
        select.custom_id == "suit"
        and select.values == ["hearts", "spades", "clubs"]
        and select.max_values == 2
    )
    chosen = await fake.select(world.bob, menu.response, "suit", ["spades", "clubs"])
    assert chosen.callback_type == 7
    assert chosen.response is menu.response and chosen.text == "Suits: spades, clubs"
    assert chosen.response.components == [] and chosen.response.edits == 1
    with pytest.raises(LookupError):  # the select is gone now
        await fake.select(world.bob, menu.response, "suit", ["hearts"])
    fake.assert_clean()


async def test_deferred_then_followups(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "slow")
    assert result.callback_type == 5 and result.deferred
    # The first follow-up fills the "thinking" message and keeps its ephemerality.
    assert result.response is not None and result.response.ephemeral and not result.response.loading
    assert result.text == "done thinking"
    assert [m.text for m in result.followups] == ["done thinking", "and one more"]
    assert result.followups[0] is result.response
    assert result.followups[1].ephemeral is False
    assert result.response.edits == 0
    fake.assert_clean()


async def test_modal_round_trip(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    opened = await fake.slash(world.bob, world.channel, "name")
    assert opened.callback_type == 9 and opened.modal is not None and opened.modal["title"] == "Your name"
    with pytest.raises(ValueError):
        await opened.submit_modal({"name": "x" * 21})
    submitted = await opened.submit_modal({"name": "Bob"})
    assert submitted.text == "Hello Bob" and submitted.ephemeral
    fake.assert_clean()


async def test_discord_realism_errors(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    # Editing an unknown message -> 404 Unknown Message (10008).
    ghost = await fake.slash(world.bob, world.channel, "ghost")
    assert ghost.text == "error 10008"
    assert fake.rejections[-1][2]["code"] == 10008

    # A second initial response -> 400, code 40060.
    url = f"{fake.rest_base}/interactions/{ghost.id}/{ghost.token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp,
    ):
        assert resp.status == 400
        assert resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["code"] == 40060
    assert fake.double_acks == [ghost.record]

    # Answering after the deadline is recorded as late (and refused like Discord does).
    fake.interaction_deadline = 0.1
    late = await fake.slash(world.bob, world.channel, "sleepy")
    assert late.late and late.callback_type is None and late.response is None
    assert fake.late_interactions == [late.record]


async def test_files_threads_dms_and_plain_messages(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "extras")
    message = result.response
    assert message is not None and message.text == "scores"
    # multipart + payload_json; the file's name as sent (aiohttp percent-quotes it in the form)
    assert [(a["filename"], a["size"]) for a in message.attachments] == [("scores – week 1.txt", 14)]
    thread = fake.channel(message.id)  # a thread started from a message shares its id
    assert thread.name == "Game 1" and thread.parent_id == world.channel.id
    assert [m.text for m in fake.messages(thread)] == ["Game thread opened"]
    dm = fake.dm_channel(world.bob)
    assert [m.text for m in fake.messages(dm)] == ["psst, your cards"]
    assert {m.text for m in result.created} == {"scores", "Game thread opened", "psst, your cards"}

    # Without the message content intent the bot only sees content that mentions it.
    await fake.say(world.bob, world.channel, "hello there")
    await fake.say(world.bob, world.channel, f"{fake.bot_user.mention} hi")
    assert bot.seen == ["", f"<@{fake.bot_user.id}> hi"]  # type: ignore[attr-defined]

    # unknown routes are answered 404 and recorded
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.rest_base}/no/such/route", headers={"Authorization": "Bot x"}) as resp,
    ):
        assert resp.status == 404
    assert fake.unknown_routes == [("GET", "/no/such/route")]
    fake.unknown_routes.clear()


async def test_option_types_inferred_without_sync(world: World) -> None:
    fake = world.fake
    assert not fake.global_commands
    data = fake._command_data(
        world.alice,
        world.channel,
        "crown pick",
        {"card": "K", "times": 2, "lucky": True, "target": world.bob},
        None,
    )
    (sub,) = data["options"]
    assert (sub["name"], sub["type"]) == ("pick", 1)
    assert [(o["name"], o["type"], o["value"]) for o in sub["options"]] == [
        ("card", 3, "K"),
        ("times", 4, 2),
        ("lucky", 5, True),
        ("target", 6, str(world.bob.id)),
    ]
    assert str(world.bob.id) in data["resolved"]["users"]


async def test_restart_keeps_messages_and_buttons_work(world: World) -> None:
    fake = world.fake
    async with fake.bot_running(make_bot()):
        board = await fake.slash(world.alice, world.channel, "board", game=3)
        first = fake.active_session
    message = board.response
    assert message is not None and fake.active_session is None
    async with fake.bot_running(make_bot()):
        assert fake.active_session is not None and fake.active_session is not first
        click = await fake.click(world.bob, message, "card:3:K")
        assert click.text == "You played K"
        assert message.edits == 1 and message.text.startswith("Board 3: 1 plays")
    assert len(fake.sessions) == 2
    fake.assert_clean()


async def test_resume_after_reconnect(world: World, bot: commands.Bot) -> None:
    fake = world.fake
    session = fake.active_session
    assert session is not None
    await fake.force_reconnect()
    await fake.wait_for(lambda: "RESUMED" in session.dispatched and session.connected, 5, "RESUMED")
    result = await fake.slash(world.bob, world.channel, "hand")
    assert result.text == "Your hand: K, Q"
    assert fake.active_session is session and len(fake.sessions) == 1


async def test_each_shard_gets_only_its_servers(world: World) -> None:
    """As Discord does: a sharded session gets the servers with ``(id >> 22) % count`` equal to
    its shard, their events and their interactions; nothing of the others'."""
    fake = world.fake
    guilds = [fake.add_guild(f"shard {n}", shard=(n, 2)) for n in (0, 1)]
    assert [(g.id >> 22) % 2 for g in guilds] == [0, 1]
    async with (
        fake.bot_running(make_bot(shard_id=0, shard_count=2)) as first,
        fake.bot_running(make_bot(shard_id=1, shard_count=2)) as second,
    ):
        bots = [first, second]
        for n, guild in enumerate(guilds):
            assert bots[n].get_guild(guild.id) is not None and bots[1 - n].get_guild(guild.id) is None
        channel = fake.add_channel(guilds[1], "late")
        await fake.wait_for(lambda: second.get_channel(channel.id) is not None, 5, "the channel on shard 1")
        assert first.get_channel(channel.id) is None
        sessions = {s.shard: s for s in fake.sessions}
        result = await fake.slash(world.bob, channel, "hand")
        assert result.text == "Your hand: K, Q"
        assert "INTERACTION_CREATE" in sessions[(1, 2)].dispatched
        assert "INTERACTION_CREATE" not in sessions[(0, 2)].dispatched
    fake.assert_clean()


async def test_bot_in_subprocess_survives_sigkill(world: World) -> None:
    fake = world.fake
    proc = await fake.start_bot_process("tests.e2e.test_fakediscord")
    try:
        await fake.wait_for(
            lambda: fake.active_session is not None and bool(fake.global_commands), 20, "bot process"
        )
        board = await fake.slash(world.alice, world.channel, "board", game=9)
        first = fake.active_session
        await proc.kill()
        await fake.wait_for(lambda: fake.active_session is None, 5, "the gateway connection to drop")

        proc = await fake.start_bot_process("tests.e2e.test_fakediscord")
        await fake.wait_for(lambda: fake.active_session not in (None, first), 20, "restarted bot")
        assert board.response is not None
        click = await fake.click(world.bob, board.response, "card:9:Q")
        assert click.text == "You played Q" and board.response.edits == 1
    except BaseException:
        log.error("bot process output:\n%s", proc.output())
        raise
    finally:
        await proc.terminate()
        proc.cleanup()


def _run_subprocess_bot() -> None:
    logging.basicConfig(level=logging.INFO)
    make_bot().run(os.environ["FAKE_DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    _run_subprocess_bot()
