"""What the shared and per-game slash commands do (the cogs only parse and call these)."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.games import GAMES
from bot.games.base import GameError, Move, said_to
from bot.service import MatchStatus, ServiceError, Snapshot, errors, resolve_move
from bot.ui.choices import pick_choices
from bot.ui.hand import play_move, show_hand
from bot.ui.handview import LEARN_NOTICE
from bot.ui.leaving import ask_leave_match, ask_leave_party
from bot.ui.render import clip
from bot.ui.replies import Interaction, display_name, is_admin, missing_channel_permissions, say, service_of
from bot.ui.weblinks import page_url


async def channel_match(interaction: Interaction, game_id: str | None = None) -> Snapshot:
    """The active match in this channel (of ``game_id`` if given), else a refusal."""
    svc = service_of(interaction)
    snap = await svc.active_in_channel(interaction.channel_id or 0)
    if snap is None:
        # Maybe the user's only running match is elsewhere in this server.
        mine = await svc.store.matches_of(interaction.guild_id or 0, interaction.user.id)
        mine = [
            m
            for m in mine
            if m.status == MatchStatus.RUNNING and (game_id is None or m.record.game_id == game_id)
        ]
        if len(mine) == 1:
            return mine[0]
        raise errors.NotRunning(
            "There is no active match in this channel; start one with /play, or watch a finished one"
            " with /match replay."
        )
    if game_id is not None and snap.record.game_id != game_id:
        other = GAMES[snap.record.game_id].name
        raise errors.NotRunning(f"The match in this channel is {other}, not {GAMES[game_id].name}.")
    return snap


async def own_table(interaction: Interaction, snap: Snapshot) -> None:
    """Refuse a player who is not seated at this match, pointing a party player to the
    table they play at this round ("You play at round 1 · table 2: <#thread>.")."""
    if snap.seat_of(interaction.user.id) is not None:
        return
    svc = service_of(interaction)
    party_id = await svc.parties.of_match(snap.id)
    if party_id is not None:
        party = await svc.parties.get(party_id)
        player = party.player_of(interaction.user.id)
        for table in party.round_tables() if player is not None else ():
            if player in table.seating and table.match_id != snap.id:
                where = f": <#{table.channel_id}>" if table.channel_id else ""
                raise errors.NotSeated(
                    f"You play at round {table.round} · table {table.table_no + 1}{where}."
                )
    raise errors.NotSeated()


async def hand_command(interaction: Interaction) -> None:
    snap = await channel_match(interaction)
    await own_table(interaction, snap)
    await show_hand(interaction, snap.id, edit=False)


def _covered(moves: Sequence[Move], kinds: Sequence[str]) -> list[Move]:
    """The moves a command covers: those of one of ``kinds`` (every move if none given)."""
    return [m for m in moves if not kinds or m.kind in kinds]


def cannot_now(snap: Snapshot, seat: int) -> str:
    """A command that covers none of the seat's moves now, refused with what they may do
    ("...; it is your turn to take a coin or shuffle the trump pile.")."""
    status = snap.name_text(said_to(snap.view(seat).waiting, seat))
    if status.startswith("Your turn to "):
        return f"You cannot do that right now; it is y{status[1:]}"
    if status.startswith("You"):
        return f"You cannot do that right now; y{status[1:]}"
    return "You cannot do that right now; /hand shows what you can do."


async def play_command(
    interaction: Interaction, game_id: str | None, kinds: Sequence[str], text: str
) -> None:
    """A game's slash command (or /move): find the legal move the player named and play it."""
    snap = await channel_match(interaction, game_id)
    svc = service_of(interaction)
    await own_table(interaction, snap)
    snap, seat = await svc.hand(snap.id, interaction.user.id)
    if snap.status != MatchStatus.RUNNING:
        raise errors.NotRunning("This match is over.")
    if snap.seats[seat].left:
        raise errors.NotSeated("You left this match; the AI plays your seat now.")
    moves = snap.legal_moves(seat)
    if not moves:
        # Let the engine say why (not your turn, already picked, ...) by trying the move.
        attempt = text or (kinds[0] if kinds else "")
        await play_move(interaction, snap.id, attempt, None)
        return
    own = [
        Move(m.code, tuple(snap.name_text(step) for step in m.path), m.pick) for m in _covered(moves, kinds)
    ]
    only = own[0] if len(own) == 1 and own[0].pick is None else None  # a Pick is never chosen for the player
    move = resolve_move(own, text, kinds[0] if len(kinds) == 1 else "") if text else only
    if move is None and (text or not own):
        # What they typed names a card or move that is not legal now, or the command takes
        # nothing (a knock) and is not legal now: the engine says why.
        several = [m for m in own if text.strip().casefold() in m.label.casefold()] if text else []
        code = None if several else snap.typed_code(seat, kinds, text)
        if code is not None:
            await play_move(interaction, snap.id, code, None)
            return
    if not own:
        raise errors.UnknownMove(cannot_now(snap, seat))
    if move is None:
        several = (
            [m for m in own if text.strip().casefold() in snap.name_text(m.label).casefold()] if text else []
        )
        raise errors.UnknownMove(
            f"“{text.strip()}” matches {len(several)} of your moves now; pick one from the list the command offers."
            if len(several) > 1
            else "That is not one of your moves now; pick one from the list the command offers."
            if text
            else "Choose which one: the command's list shows your moves."
        )
    await play_move(interaction, snap.id, move, None)


def move_autocomplete(game_id: str | None, kinds: Sequence[str]) -> Any:
    """An autocomplete callback for a game command: the caller's legal moves of ``kinds``."""

    async def complete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await autocomplete_moves(interaction, game_id, kinds, current)

    return complete


async def autocomplete_moves(
    interaction: Interaction, game_id: str | None, kinds: Sequence[str], current: str
) -> list[app_commands.Choice[str]]:
    """The caller's legal moves for this command, filtered by what they typed; when what
    they typed matches nothing, every choice (a list to pick from beats an empty one)."""
    try:
        snap = await channel_match(interaction, game_id)
        snap, seat = await service_of(interaction).hand(snap.id, interaction.user.id)
    except (GameError, ServiceError):
        return []
    low = current.casefold()
    choices: list[app_commands.Choice[str]] = []
    every: list[app_commands.Choice[str]] = []
    for m in _covered(snap.legal_moves(seat), kinds):
        if m.pick is not None:
            matched = pick_choices(snap, m, current)
            choices.extend(matched or [])
            every.extend(pick_choices(snap, m, "") or [])
            continue
        label = snap.name_text(m.label)
        choice = app_commands.Choice(name=clip(label, 100), value=m.code[:100])
        every.append(choice)
        if low and low not in label.casefold() and low not in m.code.casefold():
            continue
        choices.append(choice)
    return (choices or every)[:25]


async def leave_command(interaction: Interaction) -> None:
    """/leave: a lobby's seat goes at once (it costs nothing); a running match or party asks
    first (:mod:`bot.ui.leaving`), since the AI takes the seat and it counts as a loss."""
    svc = service_of(interaction)
    here = await svc.active_in_channel(interaction.channel_id or 0)
    party = None if here is not None else await svc.parties.in_channel(interaction.channel_id or 0)
    if party is not None:  # a party's channel without a match of its own: /leave means the party
        if party.status == MatchStatus.RUNNING:
            await ask_leave_party(interaction, party)
            return
        await svc.parties.leave(party.id, interaction.user.id)
        await say(interaction, "You left the party.")
        return
    snap = here or await channel_match(interaction)
    if snap.status == MatchStatus.LOBBY:
        snap = await svc.leave_lobby(snap.id, interaction.user.id)
        await say(interaction, "You left the lobby.")
    else:
        await own_table(interaction, snap)
        party_id = await svc.parties.of_match(snap.id)
        party = await svc.parties.get(party_id) if party_id is not None else None
        if party is not None and party.status == MatchStatus.RUNNING:
            # a party's table: leaving it means leaving the party (the AI plays this table
            # and the next rounds' for them), which its question says
            await ask_leave_party(interaction, party)
            return
        await ask_leave_match(interaction, snap)


async def cancel_command(interaction: Interaction) -> None:
    svc = service_of(interaction)
    here = await svc.active_in_channel(interaction.channel_id or 0)
    party = None if here is not None else await svc.parties.in_channel(interaction.channel_id or 0)
    if party is not None:  # a party's channel without a match of its own: /cancel means the party
        await svc.parties.cancel(party.id, interaction.user.id, is_admin=is_admin(interaction))
        tail = ", with its running matches" if party.status == MatchStatus.RUNNING else ""
        await say(interaction, f"Party #{party.id} was cancelled{tail}.")
        return
    snap = here or await channel_match(interaction)
    await svc.cancel(snap.id, interaction.user.id, is_admin=is_admin(interaction))
    lobby = snap.status == MatchStatus.LOBBY
    await say(interaction, f"Lobby #{snap.id} was closed." if lobby else f"Match #{snap.id} was cancelled.")


TURN_TIMER_CHOICES = {
    "60": "1 minute",
    "180": "3 minutes (default)",
    "600": "10 minutes",
    "86400": "24 hours (correspondence)",
    "0": "off",
}


async def config_command(
    interaction: Interaction,
    turn_seconds: int | None,
    turn_pings: bool | None = None,
    pictures: bool | None = None,
    web: bool | None = None,
) -> None:
    """/config: show the server's settings; with options, change them (Manage Server)."""
    svc = service_of(interaction)
    guild = interaction.guild_id or 0
    changed = any(value is not None for value in (turn_seconds, turn_pings, pictures, web))
    if web is not None:
        await svc.settings.set_web(guild, web, is_admin=is_admin(interaction))
    if turn_seconds is not None:
        await svc.settings.set_turn_seconds(guild, turn_seconds, is_admin=is_admin(interaction))
    values = {}
    if turn_pings is not None:
        values["turn_pings"] = turn_pings
    if pictures is not None:
        values["text_only"] = not pictures
    if values:
        await svc.settings.set_server_settings(guild, is_admin=is_admin(interaction), **values)
    current = await svc.settings.turn_seconds(guild)
    label = TURN_TIMER_CHOICES.get(str(current), f"{current} seconds")
    settings = await svc.settings.server_settings(guild)
    embed = discord.Embed(title="Saved: this server's settings" if changed else "This server's settings")
    embed.add_field(
        name="Turn timer", value=f"**{label}**: new deadlines use it from the next move", inline=False
    )
    embed.add_field(
        name="Turn pings",
        value=f"**{'on' if settings.turn_pings else 'off'}**: players are mentioned on their turn",
        inline=False,
    )
    embed.add_field(
        name="Card pictures",
        value=f"**{'off' if settings.text_only else 'on'}**: the text is always there too",
        inline=False,
    )
    embed.add_field(name="Web pages", value=await web_text(interaction, guild), inline=False)
    embed.set_footer(
        text="Changing needs Manage Server. Each player sets pings and pictures for themselves with /settings."
    )
    await say(interaction, "", embed=embed)


async def web_text(interaction: Interaction, guild: int) -> str:
    """The web pages' line of /config: off, or on with their address when the host set one."""
    if await service_of(interaction).settings.web_key(guild) is None:
        return "**off**: leaderboards, players and replays stay in Discord"
    url = await page_url(interaction.client, guild)
    where = f" at {url}" if url else " (the bot's host sets WEB_URL for their address)"
    return (
        f"**on**: leaderboards, players and replays{where}; turning them off and on again gives a new address"
    )


async def settings_command(
    interaction: Interaction, turn_pings: bool | None, pictures: bool | None = None
) -> None:
    """/settings: the caller's own settings, the same in every server."""
    svc = service_of(interaction)
    user = interaction.user.id
    values = {}
    if turn_pings is not None:
        values["turn_pings"] = turn_pings
    if pictures is not None:
        values["text_only"] = not pictures
    prefs = (
        await svc.settings.set_preferences(user, **values)
        if values
        else (await svc.settings.preferences([user]))[user]
    )
    embed = discord.Embed(title="Saved: your settings" if values else "Your settings")
    embed.add_field(
        name="Turn pings",
        value=f"**{'on' if prefs.turn_pings else 'off'}**: a mention in the channel on your turn",
        inline=False,
    )
    embed.add_field(
        name="Card pictures",
        value=f"**{'off' if prefs.text_only else 'on'}**: your hand as a picture (off: text only, for screen readers "
        "or slow connections)",
        inline=False,
    )
    embed.set_footer(text="These follow you to every server.")
    await say(interaction, "", embed=embed)


async def match_log_command(interaction: Interaction, match_id: int | None) -> None:
    data = await service_of(interaction).history.export_log(
        channel_id=interaction.channel_id or 0,
        match_id=match_id,
        user_id=interaction.user.id,
        is_admin=is_admin(interaction),
    )
    payload = io.BytesIO(json.dumps(data, indent=1).encode())
    await interaction.response.send_message(
        f"Move log of match #{data['match']} ({len(data['moves'])} moves). Seed and moves replay it exactly.",
        file=discord.File(payload, filename=f"match-{data['match']}.json"),
        ephemeral=True,
    )


async def kick_command(interaction: Interaction, user: discord.abc.Snowflake) -> None:
    """/match kick: the host or Manage Server removes a player from this channel's match.
    Discord may send the player bare (one who left the server, or is not cached): only an id,
    no name. The answer names them as their seat does."""
    snap = await service_of(interaction).active_in_channel(interaction.channel_id or 0)
    if snap is None:
        raise errors.NotRunning("There is no active match in this channel.")
    seat = snap.seat_of(user.id)
    name = snap.seats[seat].name if seat is not None else "That player"  # no seat: refused below
    snap = await service_of(interaction).remove_seat(
        snap.id, interaction.user.id, user.id, is_admin=is_admin(interaction)
    )
    if snap.status == MatchStatus.RUNNING:
        await say(
            interaction,
            f"{name} was removed from match #{snap.id}; the AI plays their seat and it counts as a loss for them.",
        )
    else:
        await say(interaction, f"{name} was removed from the lobby of match #{snap.id}.")


async def learn_command(interaction: Interaction, game_id: str) -> None:
    """/learn: a guided practice match against AI seats, and the caller's hand at once."""
    if interaction.guild_id is None or interaction.channel_id is None:
        await say(interaction, "Matches are played in server channels, not in direct messages.")
        return
    missing = missing_channel_permissions(interaction)
    if missing:
        await say(
            interaction, f"I cannot host a match in this channel: I am missing the {missing} permission here."
        )
        return
    snap = await service_of(interaction).learn(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        user_id=interaction.user.id,
        name=display_name(interaction),
        game_id=game_id,
    )
    await show_hand(interaction, snap.id, notice=[LEARN_NOTICE], edit=False)
