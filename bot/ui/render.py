"""Embeds for lobbies, tables and hands. Pure presentation: snapshot in, embed out."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.games.base import Game, View
from bot.service import MatchStatus, Snapshot

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_RUNNING = discord.Colour.gold()
COLOUR_OVER = discord.Colour.dark_grey()
COLOUR_HAND = discord.Colour.green()
DESCRIPTION_LIMIT = 4000
FIELD_LIMIT = 1000


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def option_summary(game: Game, options: dict[str, str]) -> list[str]:
    lines = []
    for o in game.options:
        value = options.get(o.key, o.default_value)
        labels = dict(o.choices)
        if o.multi:
            shown = ", ".join(labels.get(v, v) for v in value.split(",") if v) or "none"
        else:
            shown = labels.get(value, value)
        lines.append(f"{o.label}: **{shown}**")
    return lines


def options_embed(snap: Snapshot) -> discord.Embed:
    embed = discord.Embed(
        title=f"Options: {snap.game.name} #{snap.id}",
        description="\n".join(option_summary(snap.game, snap.record.options))
        + "\n\nChanges show on the lobby at once; press Start there when ready.",
        colour=COLOUR_LOBBY,
    )
    embed.set_footer(text="Only the host sees this.")
    return embed


def seat_lines(snap: Snapshot, to_act: frozenset[int] = frozenset()) -> list[str]:
    lines = []
    for i, seat in enumerate(snap.seats):
        tags = []
        if seat.user_id is not None and seat.user_id == snap.record.host_id and not seat.ai:
            tags.append("host")
        if seat.ai:
            tags.append("AI")
        if seat.left:
            tags.append("left, AI plays")
        marker = "▶ " if i in to_act else ""
        tag = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"{marker}{i + 1}. {seat.name}{tag}")
    return lines


def lobby_embed(snap: Snapshot) -> discord.Embed:
    game = snap.game
    closed = snap.status == MatchStatus.ABANDONED
    embed = discord.Embed(
        title=f"{game.name}: {'lobby closed' if closed else 'lobby'} #{snap.id}",
        description=game.summary,
        colour=COLOUR_OVER if closed else COLOUR_LOBBY,
    )
    embed.add_field(
        name=f"Players ({len(snap.seats)}/{game.max_players})",
        value=clip("\n".join(seat_lines(snap)) or "nobody yet", FIELD_LIMIT),
        inline=True,
    )
    opts = option_summary(game, snap.record.options)
    if opts:
        embed.add_field(name="Options", value=clip("\n".join(opts), FIELD_LIMIT), inline=True)
    if closed:
        embed.set_footer(text="This lobby was closed.")
    else:
        embed.set_footer(text="Join, then the host presses Start. The host can add AI players and change options.")
    return embed


def table_embed(snap: Snapshot, recent: Sequence[str] = ()) -> discord.Embed:
    game = snap.game
    if snap.state is None:
        return lobby_embed(snap)
    view = snap.view(None)
    over = snap.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)
    title_state = {"finished": "finished", "abandoned": "cancelled"}.get(snap.status, "in play")
    embed = discord.Embed(
        title=f"{game.name} #{snap.id}: {title_state}",
        colour=COLOUR_OVER if over else COLOUR_RUNNING,
    )
    head = snap.name_text(view.waiting)
    if snap.status == MatchStatus.ABANDONED:
        head = "The match was cancelled."
    body = "\n".join(snap.name_text(line) for line in view.public)
    embed.description = clip(f"**{head}**\n\n{body}", DESCRIPTION_LIMIT)
    embed.add_field(
        name="Seats", value=clip("\n".join(seat_lines(snap, snap.awaited())), FIELD_LIMIT), inline=True
    )
    if snap.status == MatchStatus.FINISHED:
        outcome = game.outcome(snap.state)
        if outcome is not None:
            ranking = sorted(outcome.results, key=lambda r: (r.place, r.seat))
            lines = []
            for r in ranking:
                extra = []
                if r.team:
                    extra.append(r.team)
                if r.score is not None:
                    extra.append(f"score {r.score}")
                more = f" ({', '.join(extra)})" if extra else ""
                lines.append(f"#{r.place} {snap.seats[r.seat].name}{more}")
            embed.add_field(name="Result", value=clip("\n".join(lines), FIELD_LIMIT), inline=True)
    if recent:
        embed.add_field(
            name="Just now", value=clip("\n".join(snap.name_text(t) for t in recent[-5:]), FIELD_LIMIT), inline=False
        )
    footer = "Press My hand (or use /hand) to see your cards and moves." if not over else "Thanks for playing."
    embed.set_footer(text=f"{footer} · move {snap.version}")
    return embed


def hand_embed(
    snap: Snapshot,
    seat: int,
    view: View,
    *,
    notice: Sequence[str] = (),
    step: Sequence[str] = (),
    has_moves: bool = True,
) -> discord.Embed:
    embed = discord.Embed(title=f"Your hand: {snap.game.name} #{snap.id}", colour=COLOUR_HAND)
    parts: list[str] = []
    if notice:
        parts.append("\n".join(snap.name_text(t) for t in notice))
        parts.append("")
    private = [snap.name_text(line) for line in view.private]
    parts.extend(private or ["(nothing private right now)"])
    parts.append("")
    parts.append(f"*{snap.name_text(view.waiting)}*")
    if snap.status == MatchStatus.RUNNING:
        if step:
            parts.append("Choosing: **" + " → ".join(snap.name_text(s) for s in step) + "**")
        elif has_moves:
            parts.append("Your move: choose below.")
        else:
            parts.append("Nothing for you to do right now.")
    embed.description = clip("\n".join(parts), DESCRIPTION_LIMIT)
    notes = snap.notes_for(seat)
    if notes:
        embed.add_field(
            name="Told only to you", value=clip("\n".join(snap.name_text(n) for n in notes[-4:]), FIELD_LIMIT)
        )
    embed.set_footer(text=f"Seat {seat + 1} · move {snap.version} · only you can see this")
    return embed


def rules_embeds(game: Game) -> list[discord.Embed]:
    """The rules text split over embeds (each description at most 4000 characters)."""
    chunks: list[str] = []
    current = ""
    for para in game.rules.split("\n"):
        if len(current) + len(para) + 1 > DESCRIPTION_LIMIT:
            chunks.append(current)
            current = ""
        current += para + "\n"
    if current.strip():
        chunks.append(current)
    embeds = []
    for i, chunk in enumerate(chunks):
        title = f"Rules: {game.name}" + (f" ({i + 1}/{len(chunks)})" if len(chunks) > 1 else "")
        embeds.append(discord.Embed(title=title, description=chunk, colour=COLOUR_LOBBY))
    return embeds
