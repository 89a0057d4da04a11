"""Shared helpers for the robustness, fuzz, privacy and restart tests (end to end, fake Discord).

``fire`` dispatches an interaction without the fake's own checks (so a test can forge custom
ids, values and options the real client would never offer) and without waiting for the bot
to go quiet, so that many interactions can be in flight at once.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest_asyncio

from bot.app import KingBot
from bot.games import GAMES
from bot.games.base import player_counts
from bot.service.parties import PARTY_KEYS
from bot.settings import Settings
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionRecord,
    InteractionResult,
)
from tests.fakediscord.interactions import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT
from tests.fakediscord.models import snowflakes

CUSTOM_ID_RE = re.compile(
    r"kg:(lobby|opt|hand|hint|m|ms|mp|lb|log|rematch|replay|rp|rps|party|popt|leave|pleave):\d+(:[0-9a-z._]*)*|kg:rules:[a-z0-9_]+|kg:help:\d+"
)
_ID_FORMS = (
    re.compile(r"kg:lobby:\d+:(join|leave|ai|aieasy|aihard|unai|start|cancel|opts|optmore|practice|rated)"),
    re.compile(r"kg:opt:\d+:(?P<key>[a-z_]+)"),
    re.compile(r"kg:party:\d+:(join|leave|ai|aieasy|aihard|unai|start|cancel|opts|optmore)"),
    re.compile(r"kg:popt:\d+:(?P<key>[a-z_]+)"),
    re.compile(r"kg:hand:\d+:\d+"),
    re.compile(r"kg:hint:\d+:\d+(:[0-9.]+)?"),  # at a step of a move: positions, as kg:m
    re.compile(r"kg:(log|rematch):\d+"),
    re.compile(r"kg:rules:(?P<game>[a-z0-9_]+)"),
    re.compile(r"kg:help:\d{1,2}"),
    re.compile(r"kg:m[sp]?:\d+:\d+:[0-9.]*(:\d)?"),
    re.compile(r"kg:lb:\d+:(?P<game>[a-z0-9_]+):\d+:\d+:[fpnl]"),
    re.compile(r"kg:replay:\d+"),
    re.compile(r"kg:rp:\d+:\d+:[01]:[fbnlr]"),
    re.compile(r"kg:rps:\d+:[01]"),
    re.compile(r"kg:p?leave:\d+:\d+:(go|keep)"),
)


def custom_id_is_safe(custom_id: str) -> bool:
    """A custom id of one of the bot's forms: numbers, and words from fixed lists only."""
    for form in _ID_FORMS:
        found = form.fullmatch(custom_id)
        if found is None:
            continue
        groups = found.groupdict()
        if "key" in groups:
            return groups["key"] in PARTY_KEYS or any(
                groups["key"] == o.key for g in GAMES.values() for o in g.options
            )
        if "game" in groups:
            return groups["game"] in GAMES
        return True
    return False


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    users: list[FakeUser]
    db_url: str
    tmp_path: Path


@pytest_asyncio.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Court")
        channel = fake.add_channel(guild, "tables")
        users = [fake.add_user(name) for name in ("ann", "bob", "cat", "dan", "eve")]
        yield World(fake, guild, channel, users, f"sqlite:///{tmp_path / 'bot.db'}", tmp_path)
        assert fake.unknown_routes == [], fake.unknown_routes


@contextmanager
def bot_lacks(world: World, permissions: int) -> Iterator[None]:
    """The bot (its role and @everyone) without ``permissions`` in the world's server, for
    the duration of the block."""
    bot_role = world.guild.roles[world.guild.bot_role_id]
    everyone = world.guild.everyone_role
    old = (bot_role.permissions, everyone.permissions)
    bot_role.permissions &= ~permissions
    everyone.permissions &= ~permissions
    try:
        yield
    finally:
        bot_role.permissions, everyone.permissions = old


def make_bot(world: World, *, turn_seconds: int | None = None) -> KingBot:
    bot = KingBot(
        Settings(
            token=world.fake.token,
            database_url=world.db_url,
            ai_delay=0,
            sync_commands=True,
            table_edit_seconds=0,
        )
    )
    if turn_seconds is not None:
        bot.service.settings.default_turn_seconds = turn_seconds
    return bot


def custom_ids(message: FakeMessage) -> list[str]:
    return [b.custom_id for b in message.buttons if b.custom_id] + [s.custom_id for s in message.selects]


def error_records(records: list[logging.LogRecord]) -> list[str]:
    """Log records that would be a traceback or an error in production."""
    return [
        f"{r.name}: {r.getMessage()}" for r in records if r.levelno >= logging.ERROR or r.exc_info is not None
    ]


# --- lobbies and matches ------------------------------------------------------------------------


def fits(game_id: str, players: int, options: dict[str, str]) -> bool:
    """Whether a table of ``players`` can start with these options."""
    return players in player_counts(GAMES[game_id], options)


def players_for(game_id: str, options: dict[str, str]) -> int:
    """The smallest table these options can start with."""
    counts = player_counts(GAMES[game_id], options)
    assert counts, f"no player count fits {game_id} {options}"
    return counts[0]


async def open_match(
    world: World,
    host: FakeUser,
    others: list[FakeUser],
    *,
    game: str,
    options: dict[str, str] | None = None,
    ais: int = 0,
    channel: FakeChannel | None = None,
) -> FakeMessage:
    """/play ``game``, set options, join, add AI seats, Start; returns the table message."""
    fake = world.fake
    channel = channel or world.channel
    lobby = await fake.slash(host, channel, "play", game=game)
    if lobby.callback_type == 5:  # deferred while the bot restored its matches: the lobby follows
        table = next(m for m in lobby.followups if not m.ephemeral)
    else:
        assert lobby.response is not None and not lobby.ephemeral, lobby.text
        table = lobby.response
    panel: FakeMessage | None = None
    for key, value in (options or {}).items():
        holder = table
        if not any(s.custom_id.endswith(f":{key}") for s in table.selects):
            if panel is None:  # more options than the lobby shows: the host's Options panel
                opened = await fake.click(host, table, label="Options")
                assert opened.ephemeral and opened.response is not None, opened.text
                panel = opened.response
            holder = panel
        if (
            panel is not None
            and holder is panel
            and not any(s.custom_id.endswith(f":{key}") for s in panel.selects)
        ):
            turned = await fake.click(
                host, panel, custom_id=next(b.custom_id for b in panel.buttons if ":opt" in b.custom_id)
            )
            assert turned.callback_type == 7, turned.text
        select = next(s for s in holder.selects if s.custom_id.endswith(f":{key}"))
        chosen = await fake.select(host, holder, select.custom_id, [v for v in value.split(",") if v])
        assert chosen.callback_type in (6, 7), chosen.text
    for user in others:
        joined = await fake.click(user, table, label="Join")
        assert joined.callback_type in (6, 7), joined.text
    for _ in range(ais):
        added = await fake.click(host, table, label="Add AI")
        assert added.callback_type in (6, 7), added.text
    started = await fake.click(host, table, label="Start")
    assert started.callback_type in (6, 7), started.text
    # Running (My hand), or already over (Rematch): an AI King at Court may end it at once.
    await fake.wait_for(
        lambda: {"My hand", "Rematch"} & {b.label for b in table.buttons}, what="the table after Start"
    )
    return table


async def leave_for_good(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> InteractionResult:
    """/leave, and in a running match or party the confirmation's **Leave match** (or **Leave
    party**) pressed: the answer that says what happened (the question edited to it), or the
    /leave answer itself when it asked nothing (a lobby, a refusal)."""
    asked = await fake.slash(user, channel, "leave")
    go = [b for b in asked.buttons if b.label in ("Leave match", "Leave party")]
    if not go or asked.response is None:
        return asked
    assert go[0].custom_id is not None
    return await fake.click(user, asked.response, go[0].custom_id)


# --- raw interactions ---------------------------------------------------------------------------


def fire(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    itype: int,
    data: dict[str, Any],
    *,
    source: FakeMessage | None = None,
    description: str = "",
) -> InteractionRecord:
    """Dispatch one interaction as Discord would, with whatever data the test forged."""
    rec = fake.dispatch_interaction(
        itype,
        user,
        channel,
        data,
        source=source,
        description=f"{description or data.get('custom_id') or data.get('name')} by {user.name}",
    )
    return rec


def fire_component(
    fake: FakeDiscord,
    user: FakeUser,
    message: FakeMessage,
    custom_id: str,
    *,
    component_type: int = 2,
    values: list[str] | None = None,
) -> InteractionRecord:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    channel = fake.channel(message.channel_id)
    return fire(fake, user, channel, MESSAGE_COMPONENT, data, source=message)


def carrier(
    fake: FakeDiscord,
    channel: FakeChannel,
    custom_id: str,
    *,
    component_type: int = 2,
    ephemeral_for: FakeUser | None = None,
) -> FakeMessage:
    """A bot message carrying one component with ``custom_id``: what a forged or retired id
    would be clicked on (stored, so the bot may update it; ephemeral if ``ephemeral_for``)."""
    from tests.fakediscord.models import FakeMessage as Message

    if component_type == 2:
        comp: dict[str, Any] = {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
    else:
        comp = {"type": component_type, "custom_id": custom_id, "options": [{"label": "?", "value": "0"}]}
    msg = Message(
        id=snowflakes.next(),
        channel_id=channel.id,
        guild_id=channel.guild_id,
        author=fake.bot_user,
        content="(a message with a forged component)",
        components=[{"type": 1, "components": [comp]}],
        flags=64 if ephemeral_for is not None else 0,
        visible_to=ephemeral_for.id if ephemeral_for is not None else None,
        application_id=fake.application_id,
    )
    fake._messages[msg.id] = msg
    return msg


def fire_forged(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    custom_id: str,
    *,
    component_type: int = 2,
    values: list[str] | None = None,
    ephemeral: bool = False,
) -> InteractionRecord:
    """Click ``custom_id`` on a message that carries it (the bot's dispatch will find it)."""
    message = carrier(
        fake, channel, custom_id, component_type=component_type, ephemeral_for=user if ephemeral else None
    )
    if component_type != 2 and values is None:
        values = ["0"]
    return fire_component(fake, user, message, custom_id, component_type=component_type, values=values)


def fire_command(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    command: str,
    options: list[dict[str, Any]] | None = None,
    *,
    autocomplete: bool = False,
) -> InteractionRecord:
    """A slash command (or autocomplete) with raw option payloads, unchecked by the fake."""
    parts = command.split()
    cmd = next((c for c in fake.commands if c["name"] == parts[0]), None)
    opts = list(options or [])
    for name in reversed(parts[1:]):
        opts = [{"name": name, "type": 1, "options": opts}]
    data: dict[str, Any] = {
        "id": cmd["id"] if cmd else str(snowflakes.next()),
        "name": parts[0],
        "type": 1,
        "options": opts,
    }
    if cmd and cmd.get("guild_id"):
        data["guild_id"] = cmd["guild_id"]
    return fire(
        fake,
        user,
        channel,
        AUTOCOMPLETE if autocomplete else APPLICATION_COMMAND,
        data,
        description=f"/{command}",
    )


async def acknowledged(fake: FakeDiscord, records: list[InteractionRecord], timeout: float = 10.0) -> None:
    """Wait until every record got its initial callback (or was answered too late)."""
    await fake.wait_for(
        lambda: all(r.acknowledged or r.late for r in records), timeout, "answers to every interaction"
    )


def replies(fake: FakeDiscord, rec: InteractionRecord) -> list[FakeMessage]:
    """The messages that answer one interaction: the original response and follow-ups."""
    out = []
    if rec.original_message_id is not None:
        out.append(fake.message(rec.original_message_id))
    out.extend(fake.message(m) for m in rec.followup_ids)
    return out


def answer_text(rec: InteractionRecord) -> str:
    """The text this interaction's own answer carried (several clicks may edit one message)."""
    from tests.fakediscord.models import text_of

    data = (rec.callback or {}).get("data") or {}
    return text_of(data.get("content"), data.get("embeds"), data.get("components"))


def said(result: InteractionResult) -> str:
    """What the answer to this interaction said ("You chose: ...", a refusal): its own
    callback's text, not its message's latest, which may have changed since (a hand message
    edits itself when the player's situation changes, and drops a move's echo when a new
    decision is asked of them). An answer deferred while the bot restored its matches carries
    no text of its own: then its message as it is now."""
    return answer_text(result.record) or result.text


def answer_ids(rec: InteractionRecord) -> list[str]:
    from tests.fakediscord.models import walk_components

    data = (rec.callback or {}).get("data") or {}
    return [c["custom_id"] for c in walk_components(data.get("components") or []) if c.get("custom_id")]


async def quiet(fake: FakeDiscord, bot: KingBot | None = None) -> None:
    """Let the bot finish its background work (table edits, AI moves)."""
    if bot is not None:
        await bot.service.settle()
    await fake.settle()
    if bot is not None:
        await bot.service.settle()
    await asyncio.sleep(0)
