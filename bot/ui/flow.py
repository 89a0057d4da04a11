"""What happens when a player presses something: the one path from Discord to the service.

Buttons, selects and slash commands all end here, so a move made by a button and one made
by a command are the same service call. Every refusal is one ephemeral sentence.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.games import GAMES
from bot.games.base import GameError, Move, seat_token
from bot.service import MatchService, MoveResult, ServiceError, Snapshot, errors, resolve_move
from bot.ui import components, render

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
GENERIC_FAILURE = "Something went wrong on our side; nothing was changed. Please try again."


def service_of(interaction: Interaction) -> MatchService:
    return interaction.client.service  # type: ignore[attr-defined, no-any-return]


def is_admin(interaction: Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def display_name(interaction: Interaction) -> str:
    return getattr(interaction.user, "display_name", None) or interaction.user.name


# --- replies --------------------------------------------------------------------------------


async def say(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral sentence, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def refuse(interaction: Interaction, error: BaseException) -> None:
    """Turn a domain error into one ephemeral sentence (the single place that does it)."""
    if isinstance(error, (GameError, ServiceError)):
        text = str(error)
    elif isinstance(error, app_commands.TransformerError):
        log.warning("interaction %s: %s", interaction.id, error)
        text = "That value is not one this option accepts; please pick one from the list."
    elif isinstance(error, STALE_COMMAND_ERRORS):
        # Discord still shows a command (or option) this version of the bot no longer has.
        log.warning("interaction %s: %s", interaction.id, error)
        text = "That command is not available in this form any more; please try again in a minute."
    else:
        data: Any = interaction.data or {}
        what = data.get("custom_id") or f"/{data.get('name', '?')}"  # custom ids carry the match id
        log.error(
            "unexpected error in interaction %s (%s, channel %s)", interaction.id, what, interaction.channel_id, exc_info=error
        )
        text = GENERIC_FAILURE
    try:
        await say(interaction, text)
    except discord.HTTPException:
        log.warning("could not deliver a refusal for interaction %s", interaction.id)


async def guarded(interaction: Interaction, action: Awaitable[None]) -> None:
    """Run a component's action; any refusal or failure becomes one ephemeral sentence."""
    try:
        await action
    except Exception as err:  # noqa: BLE001 - every failure must reach the player as a sentence
        await refuse(interaction, err)


STALE_COMMAND_ERRORS = (
    app_commands.CommandNotFound,
    app_commands.CommandSignatureMismatch,
    app_commands.TransformerError,
)


def missing_channel_permissions(interaction: Interaction) -> str:
    """The permissions the bot lacks in this channel to keep a table (empty: none missing)."""
    perms = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = (
        ("View Channel", perms.view_channel),
        ("Send Messages in Threads" if in_thread else "Send Messages", perms.send_messages_in_threads if in_thread else perms.send_messages),
        ("Embed Links", perms.embed_links),
    )
    missing = [name for name, ok in needed if not ok]
    return " and ".join(", ".join(missing).rsplit(", ", 1)) if missing else ""


def _is_component(interaction: Interaction) -> bool:
    return interaction.type == discord.InteractionType.component


# --- lobby ----------------------------------------------------------------------------------


async def open_lobby(interaction: Interaction, game_id: str) -> None:
    if interaction.guild_id is None or interaction.channel_id is None:
        await say(interaction, "Matches are played in server channels, not in direct messages.")
        return
    missing = missing_channel_permissions(interaction)
    if missing:
        await say(interaction, f"I cannot host a match in this channel: I am missing the {missing} permission here.")
        return
    svc = service_of(interaction)
    snap = await svc.open_lobby(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        host_id=interaction.user.id,
        host_name=display_name(interaction),
        game_id=game_id,
    )
    await interaction.response.send_message(embed=render.lobby_embed(snap), view=components.lobby_view(snap))
    try:
        message = await interaction.original_response()
        await svc.set_table_message(snap.id, message.id)
    except discord.HTTPException:
        log.warning("match %s: could not read the lobby message id", snap.id)


async def lobby_action(interaction: Interaction, match_id: int, action: str) -> None:
    svc = service_of(interaction)
    user = interaction.user.id
    try:
        if action == "join":
            await svc.join(match_id, user, display_name(interaction))
        elif action == "leave":
            await svc.leave_lobby(match_id, user)
        elif action == "ai":
            await svc.add_ai(match_id, user)
        elif action == "unai":
            await svc.remove_ai(match_id, user)
        elif action == "start":
            await svc.start(match_id, user)
        elif action == "opts":
            await options_panel(interaction, match_id)
            return
        elif action == "cancel":
            if (await svc.get(match_id)).status != "lobby":  # a lobby button left on an old message
                raise errors.LobbyError("This lobby is closed: the match has already started or ended; /cancel ends a running match.")
            await svc.cancel(match_id, user, is_admin=is_admin(interaction))
        else:
            await say(interaction, "That button is not one of ours.")
            return
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    await _acknowledge(interaction)


async def options_panel(interaction: Interaction, match_id: int) -> None:
    """The host's options, as selects in an ephemeral message (games with many options)."""
    snap = await service_of(interaction).get(match_id)
    if snap.status != "lobby":
        raise errors.LobbyError("This lobby is closed: the match has already started or ended.")
    if interaction.user.id != snap.record.host_id:
        raise errors.NotHost("change the options")
    await interaction.response.send_message(
        embed=render.options_embed(snap), view=components.options_view(snap), ephemeral=True
    )


async def set_option(interaction: Interaction, match_id: int, key: str, value: str) -> None:
    try:
        snap = await service_of(interaction).set_option(match_id, interaction.user.id, key, value)
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    message = interaction.message
    if message is not None and message.flags.ephemeral and not interaction.response.is_done():
        await interaction.response.edit_message(embed=render.options_embed(snap), view=components.options_view(snap))
        return
    await _acknowledge(interaction)


async def _acknowledge(interaction: Interaction) -> None:
    """Acknowledge a lobby click; the table publisher edits the message in place."""
    if not interaction.response.is_done():
        await interaction.response.defer()


def table_message(snap: Snapshot, recent: Sequence[str] = ()) -> tuple[discord.Embed, discord.ui.View]:
    if snap.state is None:
        return render.lobby_embed(snap), components.lobby_view(snap)
    return render.table_embed(snap, recent), components.table_view(snap)


# --- hands and moves ------------------------------------------------------------------------


async def show_hand(
    interaction: Interaction,
    match_id: int,
    *,
    notice: Sequence[str] = (),
    path: Sequence[int] = (),
    edit: bool | None = None,
) -> None:
    """Answer with the clicker's private view and the moves they may make now."""
    snap, seat = await service_of(interaction).hand(match_id, interaction.user.id)
    await _send_hand(interaction, snap, seat, notice=notice, path=path, edit=edit)


async def _send_hand(
    interaction: Interaction,
    snap: Snapshot,
    seat: int,
    *,
    notice: Sequence[str] = (),
    path: Sequence[int] = (),
    edit: bool | None = None,
) -> None:
    moves = [] if snap.seats[seat].left else snap.legal_moves(seat)
    view, node = components.hand_view(snap, moves, path)
    step = node.labels if node is not None else ()
    embed = render.hand_embed(snap, seat, snap.view(seat), notice=notice, step=step, has_moves=bool(moves))
    if edit is None:
        edit = _is_component(interaction) and bool(interaction.message and interaction.message.flags.ephemeral)
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, view=view, ephemeral=True)
    elif edit:
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def move_step(interaction: Interaction, match_id: int, version: int, path: list[int]) -> None:
    """A button or select of the hand: go one step down the move tree, or play the move."""
    svc = service_of(interaction)
    try:
        snap, seat = await svc.hand(match_id, interaction.user.id)
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    if snap.version != version:
        await _send_hand(interaction, snap, seat, notice=["That button was out of date; here is your hand now."])
        return
    moves = snap.legal_moves(seat)
    node = components.walk(moves, path)
    if node is None:
        await _send_hand(interaction, snap, seat, notice=["That choice is not available any more."])
        return
    if node.leaf is None or (node.children and node.choose_leaf_index is not None and len(path) == len(node.labels)):
        await _send_hand(interaction, snap, seat, path=path)
        return
    await _play(interaction, snap.id, node.leaf, version)


async def _play(interaction: Interaction, match_id: int, move: Move | str, version: int | None) -> None:
    svc = service_of(interaction)
    try:
        result = await svc.play(match_id, interaction.user.id, move, version=version)
    except errors.StaleVersion:
        snap, seat = await svc.hand(match_id, interaction.user.id)
        await _send_hand(interaction, snap, seat, notice=["Someone moved first, so that was not played; here is your hand now."])
        return
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    await _send_hand(interaction, result.snapshot, result.seat, notice=played_notice(result))


def played_notice(result: MoveResult) -> list[str]:
    lines = [f"You played: {result.move.label}."]
    lines.extend(result.private_for(result.seat))
    echo = seat_token(result.seat) + " has"  # "{p0} has picked." repeats what the player just did
    others = [t for t in result.public if not t.startswith(echo)]
    lines.extend(others[-3:])
    return lines


# --- slash commands -------------------------------------------------------------------------


async def channel_match(interaction: Interaction, game_id: str | None = None) -> Snapshot:
    """The active match in this channel (of ``game_id`` if given), else a refusal."""
    svc = service_of(interaction)
    snap = await svc.active_in_channel(interaction.channel_id or 0)
    if snap is None:
        # Maybe the user's only running match is elsewhere in this server.
        mine = await svc.matches_of(interaction.guild_id or 0, interaction.user.id)
        mine = [m for m in mine if m.status == "running" and (game_id is None or m.record.game_id == game_id)]
        if len(mine) == 1:
            return mine[0]
        raise errors.NotRunning("There is no active match in this channel; start one with /play.")
    if game_id is not None and snap.record.game_id != game_id:
        other = GAMES[snap.record.game_id].name
        raise errors.NotRunning(f"The match in this channel is {other}, not {GAMES[game_id].name}.")
    return snap


async def hand_command(interaction: Interaction) -> None:
    snap = await channel_match(interaction)
    await show_hand(interaction, snap.id, edit=False)


def _covered(moves: Sequence[Move], kinds: Sequence[str]) -> list[Move]:
    """The moves a command covers: those of one of ``kinds`` (every move if none given)."""
    return [m for m in moves if not kinds or m.kind in kinds]


async def play_command(interaction: Interaction, game_id: str | None, kinds: Sequence[str], text: str) -> None:
    """A game's slash command (or /move): find the legal move the player named and play it."""
    snap = await channel_match(interaction, game_id)
    svc = service_of(interaction)
    snap, seat = await svc.hand(snap.id, interaction.user.id)
    if snap.status != "running":
        raise errors.NotRunning("This match is over.")
    if snap.seats[seat].left:
        raise errors.NotSeated("You left this match; the AI plays your seat now.")
    moves = snap.legal_moves(seat)
    if not moves:
        # Let the engine say why (not your turn, already picked, ...) by trying the move.
        attempt = text or (kinds[0] if kinds else "")
        await _play(interaction, snap.id, attempt, None)
        return
    own = [Move(m.code, tuple(snap.name_text(step) for step in m.path)) for m in _covered(moves, kinds)]
    if not own:
        raise errors.UnknownMove("You cannot do that right now; /hand shows what you can do.")
    move = resolve_move(own, text, kinds[0] if len(kinds) == 1 else "") if text else (own[0] if len(own) == 1 else None)
    if move is None:
        raise errors.UnknownMove(
            f"{text!r} is not one of your moves now; pick one from the list the command offers."
            if text
            else "Choose which one: the command's list shows your moves."
        )
    await _play(interaction, snap.id, move, None)


def move_autocomplete(game_id: str | None, kinds: Sequence[str]) -> Any:
    """An autocomplete callback for a game command: the caller's legal moves of ``kinds``."""

    async def complete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await autocomplete_moves(interaction, game_id, kinds, current)

    return complete


async def autocomplete_moves(
    interaction: Interaction, game_id: str | None, kinds: Sequence[str], current: str
) -> list[app_commands.Choice[str]]:
    """The caller's legal moves for this command, filtered by what they typed."""
    try:
        snap = await channel_match(interaction, game_id)
        snap, seat = await service_of(interaction).hand(snap.id, interaction.user.id)
    except (GameError, ServiceError):
        return []
    low = current.casefold()
    choices = []
    for m in _covered(snap.legal_moves(seat), kinds):
        label = snap.name_text(m.label)
        if low and low not in label.casefold() and low not in m.code.casefold():
            continue
        choices.append(app_commands.Choice(name=render.clip(label, 100), value=m.code[:100]))
        if len(choices) == 25:
            break
    return choices


async def rules_command(interaction: Interaction, game_id: str) -> None:
    game = GAMES[game_id]
    embeds = render.rules_embeds(game)
    await interaction.response.send_message(embeds=embeds[:10], ephemeral=True)


async def leave_command(interaction: Interaction) -> None:
    snap = await channel_match(interaction)
    svc = service_of(interaction)
    if snap.status == "lobby":
        snap = await svc.leave_lobby(snap.id, interaction.user.id)
        await say(interaction, "You left the lobby.")
    else:
        snap = await svc.leave_match(snap.id, interaction.user.id)
        await say(interaction, "You left the match; the AI plays your seat and the match counts as a loss for you.")


async def cancel_command(interaction: Interaction) -> None:
    snap = await channel_match(interaction)
    await service_of(interaction).cancel(snap.id, interaction.user.id, is_admin=is_admin(interaction))
    await say(interaction, f"Match #{snap.id} was cancelled.")


TURN_TIMER_CHOICES = {
    "60": "1 minute",
    "180": "3 minutes (default)",
    "600": "10 minutes",
    "86400": "24 hours (correspondence)",
    "0": "off",
}


async def config_command(interaction: Interaction, turn_seconds: int | None) -> None:
    svc = service_of(interaction)
    guild = interaction.guild_id or 0
    if turn_seconds is not None:
        await svc.set_turn_seconds(guild, turn_seconds, is_admin=is_admin(interaction))
    current = await svc.turn_seconds(guild)
    label = TURN_TIMER_CHOICES.get(str(current), f"{current} seconds")
    prefix = "Saved: the turn timer" if turn_seconds is not None else "Turn timer"
    await say(interaction, f"{prefix} on this server: {label}; new deadlines use it from the next move.")


async def match_log_command(interaction: Interaction, match_id: int | None) -> None:
    import io
    import json

    data = await service_of(interaction).export_log(
        channel_id=interaction.channel_id or 0, match_id=match_id, user_id=interaction.user.id, is_admin=is_admin(interaction)
    )
    payload = io.BytesIO(json.dumps(data, indent=1).encode())
    await interaction.response.send_message(
        f"Move log of match #{data['match']} ({len(data['moves'])} moves). Seed and moves replay it exactly.",
        file=discord.File(payload, filename=f"match-{data['match']}.json"),
        ephemeral=True,
    )


async def kick_command(interaction: Interaction, user: discord.abc.User) -> None:
    """/match kick: the host or Manage Server removes a player from this channel's match."""
    snap = await service_of(interaction).active_in_channel(interaction.channel_id or 0)
    if snap is None:
        raise errors.NotRunning("There is no active match in this channel.")
    snap = await service_of(interaction).remove_seat(
        snap.id, interaction.user.id, user.id, is_admin=is_admin(interaction)
    )
    name = getattr(user, "display_name", None) or user.name
    if snap.status == "running":
        await say(interaction, f"{name} was removed from match #{snap.id}; the AI plays their seat and it counts as a loss for them.")
    else:
        await say(interaction, f"{name} was removed from the lobby of match #{snap.id}.")


# --- interactions no handler answers ----------------------------------------------------------

STRAY_COMPONENT = "That button is no longer valid."


def component_is_handled(interaction: Interaction, items: Sequence[type[discord.ui.DynamicItem[Any]]]) -> bool:
    """Will discord.py hand this component interaction to exactly one of our dynamic items?

    Mirrors discord.py's dispatch: the custom id must fully match one template, and the
    clicked message must carry a component of that type with that custom id; otherwise
    discord.py drops the interaction silently and the player sees "interaction failed".
    """
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or interaction.message is None:
        return False
    matched = [cls for cls in items if cls.__discord_ui_compiled_template__.fullmatch(custom_id)]
    if len(matched) != 1:
        return False
    component_type = data.get("component_type")
    try:
        view = discord.ui.View.from_message(interaction.message, timeout=None)
    except Exception:  # noqa: BLE001 - a message discord.py cannot parse: nothing will handle it
        return False
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


async def answer_stray(interaction: Interaction, items: Sequence[type[discord.ui.DynamicItem[Any]]]) -> None:
    """Answer a component or form no handler takes (forged, truncated or retired custom ids)."""
    if interaction.type == discord.InteractionType.component:
        if component_is_handled(interaction, items):
            return
        data: Any = interaction.data or {}
        log.info("interaction %s: no handler for custom id %r", interaction.id, data.get("custom_id"))
    elif interaction.type != discord.InteractionType.modal_submit:
        return
    if interaction.response.is_done():
        return
    try:
        await interaction.response.send_message(STRAY_COMPONENT, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer stray interaction %s", interaction.id)
