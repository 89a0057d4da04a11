"""Leaderboards, player statistics and seasons on Discord: embeds, paging buttons, handlers.

Paging buttons are persistent (a ``DynamicItem`` registered with ``bot.add_dynamic_items``),
so a leaderboard posted before a restart still pages afterwards. Their custom id carries
only public data, and the page is re-read when pressed:

    kg:lb:<guild>:<game>:<season number>:<page>:<f|p|n|l>
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.games import GAMES
from bot.games.base import GameError, plural
from bot.service.errors import ServiceError
from bot.service.leaderboard import (
    BoardPage,
    ChampionRecord,
    LeaderboardService,
    PlayerStats,
    Rollover,
    SeasonRecord,
    SeasonSummary,
    StandingRecord,
    game_name,
)
from bot.ui import replies
from bot.ui.placement import OfServer
from bot.ui.render import DESCRIPTION_LIMIT, FIELD_LIMIT, clip
from bot.ui.weblinks import page_url

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
COLOUR = discord.Colour.gold()
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
SEASONS_SHOWN = 10
BOARDS_SHOWN = 12
RULES_NOTE = (
    "Skill: a rating that rises as you beat stronger players; it starts cautious and firms up as "
    "you play. Equal skill ranks by placing (100% = always first). Matches with AI seats count "
    "for wins, losses and placing, not for skill."
)
LOW_NOTE = "The lowest total is best."

# tag -> (label, where it goes)
PAGER = (("f", "«"), ("p", "‹ Prev"), ("n", "Next ›"), ("l", "»"))


def service_of(interaction: Interaction) -> LeaderboardService:
    return interaction.client.leaderboard


def when(ts: float, style: str = "d") -> str:
    """A Discord timestamp (shown in each reader's own time zone)."""
    return f"<t:{int(ts)}:{style}>"


def season_title(season: SeasonRecord) -> str:
    state = "current" if season.current else "ended"
    if season.name.casefold() == f"season {season.number}":
        return f"{season.name} ({state})"  # not "Season 1 (season 1, current)"
    return f"{season.name} (season {season.number}, {state})"


# --- embeds ---------------------------------------------------------------------------------


def points_text(game_id: str, points: int) -> str:
    """A points total in the game's words: a game whose lowest total wins (King's Dynasty)
    shows a total, as its table does; the others points."""
    game = GAMES.get(game_id)
    return f"total {points}" if game is not None and game.low_score_wins else f"{points} pts"


def standing_line(row: StandingRecord, has_points: bool, game_id: str = "") -> str:
    place = MEDALS.get(row.rank, f"**{row.rank}.**")
    skill = f"skill **{row.ordinal:.1f}**" if row.rated else "no skill yet"  # only matches with AI
    parts = [
        f"{place} <@{row.user_id}>",
        skill,
        f"{row.wins}W {row.losses}L ({row.win_rate:.0%})",
        f"placing {row.place_score:.0%}",
    ]
    if has_points:
        parts.append(points_text(game_id, row.points))
    return " · ".join(parts)


def board_embed(page: BoardPage) -> discord.Embed:
    embed = discord.Embed(title=f"{page.game_name} leaderboard", colour=COLOUR)
    head = f"**{season_title(page.season)}**"
    if page.rows:
        body = "\n".join(standing_line(r, page.has_points, page.game_id) for r in page.rows)
    else:
        body = f"No results yet. Finish a match of {page.game_name} to get on the board."
    embed.description = clip(f"{head}\n\n{body}", DESCRIPTION_LIMIT)
    players = plural(page.total, "player", "players")
    game = GAMES.get(page.game_id)
    low = f" {LOW_NOTE}" if page.has_points and game is not None and game.low_score_wins else ""
    embed.set_footer(text=f"Page {page.page + 1}/{page.pages} · {players} · {RULES_NOTE}{low}")
    return embed


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    embed = discord.Embed(title=f"Stats: {name}", colour=COLOUR)
    if not stats.boards and not stats.recent:
        embed.description = f"<@{stats.user_id}> has no finished matches on this server yet."
        return embed
    rate = stats.wins / stats.played if stats.played else 0.0
    embed.description = (
        f"<@{stats.user_id}>: {plural(stats.played, 'match', 'matches')}, {plural(stats.wins, 'win', 'wins')} "
        f"({rate:.0%}) on this server. Current season: {stats.current.name}."
    )
    if stats.parties.played:
        embed.description += (
            f"\nParties: {plural(stats.parties.played, 'party', 'parties')} played, {stats.parties.won} won."
        )
    if len(stats.boards) > BOARDS_SHOWN:
        embed.description += (
            f"\nShowing {BOARDS_SHOWN} of {len(stats.boards)} boards (newest seasons first); "
            "/leaderboard shows any game and season."
        )
    for board in stats.boards[:BOARDS_SHOWN]:
        s = board.standing
        skill = (
            f"skill {s.ordinal:.1f} (±{s.sigma:.1f}, firming up as you play)"
            if s.rated
            # A rank next to "unrated" read as a contradiction: say what the rank stands on.
            # place_score: the average placing, 1 always first, 0 always last (db/ratings.py).
            else (
                "no skill yet (only matches without AI players count for skill): ranked at the starting "
                f"skill, then by average placing {s.place_score:.0%} (100% = always first)"
            )
        )
        lines = [
            f"Rank **#{s.rank}** of {board.total} · {skill}",
            f"{s.played} played · {s.wins}W {s.losses}L · {s.win_rate:.0%} win rate"
            + (f" · {points_text(board.game_id, s.points)}" if s.scored else ""),
        ]
        current = " (current)" if board.season.current else ""
        embed.add_field(
            name=clip(f"{game_name(board.game_id)} · {board.season.name}{current}", 256),
            value=clip("\n".join(lines), FIELD_LIMIT),
            inline=False,
        )
    if stats.recent:
        lines = []
        for r in stats.recent:
            outcome = "🏆 won" if r.won else ("left, a loss" if r.left else "lost")
            extra = []
            if r.team:
                extra.append(r.team)
            if r.score is not None:
                extra.append(points_text(r.game_id, r.score))
            if r.has_ai:
                extra.append("with AI")
            more = f" ({', '.join(extra)})" if extra else ""
            lines.append(
                f"{game_name(r.game_id)} #{r.match_id}: {outcome}, place {r.place} of {r.players}{more} · {when(r.created_at, 'R')}"
            )
        embed.add_field(name="Recent results", value=clip("\n".join(lines), FIELD_LIMIT), inline=False)
    return embed


def podium_line(game_id: str, champions: Sequence[ChampionRecord]) -> str:
    ranked = " ".join(
        f"{MEDALS.get(c.place, c.place)} <@{c.user_id}>" for c in sorted(champions, key=lambda c: c.place)
    )
    return f"**{game_name(game_id)}**: {ranked}"


def podium_lines(champions: Sequence[ChampionRecord]) -> list[str]:
    by_game: dict[str, list[ChampionRecord]] = {}
    for c in champions:
        by_game.setdefault(c.game_id, []).append(c)
    return [podium_line(g, cs) for g, cs in sorted(by_game.items(), key=lambda kv: game_name(kv[0]))]


def seasons_embed(summaries: Sequence[SeasonSummary]) -> discord.Embed:
    embed = discord.Embed(title="Seasons", colour=COLOUR)
    for summary in summaries[:SEASONS_SHOWN]:
        s = summary.season
        if s.current:
            dates = f"since {when(s.started_at)} (current)"
            body = [dates, "Champions are crowned when the season ends."]
        else:
            assert s.ended_at is not None
            body = [f"{when(s.started_at)} – {when(s.ended_at)}"]
            body.extend(podium_lines(summary.champions) or ["No champions: nobody finished a match."])
        embed.add_field(
            name=clip(f"{s.number}. {s.name}", 256), value=clip("\n".join(body), FIELD_LIMIT), inline=False
        )
    if len(summaries) > SEASONS_SHOWN:
        embed.set_footer(text=f"The {SEASONS_SHOWN} newest of {len(summaries)} seasons.")
    return embed


def rollover_embed(rollover: Rollover) -> discord.Embed:
    opened = rollover.opened
    if rollover.closed is None:
        embed = discord.Embed(title=f"{opened.name} is under way", colour=COLOUR)
        embed.description = (
            f"Season {opened.number} had no results yet, so it was renamed from {rollover.renamed_from} "
            f"to {opened.name} instead of being closed."
            if rollover.renamed_from and rollover.renamed_from != opened.name
            else f"Season {opened.number} ({opened.name}) has no results yet; it goes on."
        )
        return embed
    closed = rollover.closed
    embed = discord.Embed(title=f"{closed.name} has ended", colour=COLOUR)
    lines = podium_lines(rollover.champions) or ["Nobody finished a match, so there are no champions."]
    embed.description = clip(
        "Champions:\n" + "\n".join(lines) + f"\n\n**{opened.name}** (season {opened.number}) starts now: "
        "everyone's record and skill start fresh.",
        DESCRIPTION_LIMIT,
    )
    return embed


# --- paging ---------------------------------------------------------------------------------


class LeaderboardPageButton(
    OfServer,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:lb:(?P<guild>\d{1,20}):(?P<game>[a-z0-9_]{1,32}):(?P<season>\d{1,6}):(?P<page>\d{1,6}):(?P<tag>[fpnl])",
):
    def __init__(
        self, guild_id: int, game_id: str, season: int, page: int, tag: str, *, disabled: bool = False
    ) -> None:
        label = dict(PAGER).get(tag, "?")
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"kg:lb:{guild_id}:{game_id}:{season}:{page}:{tag}",
            )
        )
        self.guild_id = guild_id
        self.game_id = game_id
        self.season = season
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Any, match: re.Match[str], /
    ) -> LeaderboardPageButton:
        return cls(int(match["guild"]), match["game"], int(match["season"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: Interaction) -> None:
        await show_page(interaction, self.guild_id, self.game_id, self.season, self.page)


DYNAMIC_ITEMS = (LeaderboardPageButton,)


def board_view(page: BoardPage) -> discord.ui.View:
    view = replies.component_view()
    last = page.pages - 1
    targets = {"f": 0, "p": max(0, page.page - 1), "n": min(last, page.page + 1), "l": last}
    for tag, _label in PAGER:
        at_edge = page.page == 0 if tag in "fp" else page.page >= last
        view.add_item(
            LeaderboardPageButton(
                page.guild_id, page.game_id, page.season.number, targets[tag], tag, disabled=at_edge
            )
        )
    return view


# --- handlers (the cog calls these) ---------------------------------------------------------


def _guild(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError("Leaderboards belong to servers; use this command in a server channel.")
    return interaction.guild_id


async def leaderboard_command(interaction: Interaction, game_id: str, season: int | None) -> None:
    page = await service_of(interaction).board(_guild(interaction), game_id, season, 0)
    embed = board_embed(page)
    embed.url = await page_url(
        interaction.client, page.guild_id, f"board/{game_id}?season={page.season.number}"
    )
    await interaction.response.send_message(
        embed=embed, view=board_view(page), allowed_mentions=discord.AllowedMentions.none()
    )


async def show_page(interaction: Interaction, guild_id: int, game_id: str, season: int, page: int) -> None:
    """A paging button: edit the leaderboard message in place with a fresh page."""
    try:
        if interaction.guild_id != guild_id:
            raise ServiceError("That leaderboard belongs to another server.")
        board = await service_of(interaction).board(guild_id, game_id, season, page)
    except (GameError, ServiceError) as err:
        await replies.refuse(interaction, err)
        return
    embed = board_embed(board)
    embed.url = await page_url(interaction.client, guild_id, f"board/{game_id}?season={board.season.number}")
    await interaction.response.edit_message(embed=embed, view=board_view(board))


async def stats_command(interaction: Interaction, user: discord.abc.Snowflake | None) -> None:
    """``/stats [user:]``. Discord may send the user bare (one who left the server, or is not
    cached): only an id, no name. Such a player is named as their matches' seats stored them."""
    who = user or interaction.user
    shown = getattr(who, "display_name", None)
    if getattr(who, "bot", False):
        raise ServiceError(f"{shown or 'That user'} is a bot and plays no matches here.")
    service = service_of(interaction)
    stats = await service.stats(_guild(interaction), who.id)
    name = shown or await service.stored_name(stats) or "a former member"
    await interaction.response.send_message(
        embed=stats_embed(stats, name), allowed_mentions=discord.AllowedMentions.none()
    )


async def season_start_command(interaction: Interaction, name: str) -> None:
    rollover = await service_of(interaction).start_season(
        _guild(interaction), name, is_admin=replies.is_admin(interaction)
    )
    await interaction.response.send_message(
        embed=rollover_embed(rollover), allowed_mentions=discord.AllowedMentions.none()
    )


async def season_end_command(interaction: Interaction) -> None:
    rollover = await service_of(interaction).end_season(
        _guild(interaction), is_admin=replies.is_admin(interaction)
    )
    await interaction.response.send_message(
        embed=rollover_embed(rollover), allowed_mentions=discord.AllowedMentions.none()
    )


async def season_list_command(interaction: Interaction) -> None:
    summaries = await service_of(interaction).seasons(_guild(interaction))
    await interaction.response.send_message(
        embed=seasons_embed(summaries), allowed_mentions=discord.AllowedMentions.none()
    )


async def season_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    if interaction.guild_id is None:
        return []
    try:
        found = await service_of(interaction).season_choices(interaction.guild_id, current)
    except (GameError, ServiceError):
        return []
    return [app_commands.Choice(name=clip(season_title(s), 100), value=s.number) for s in found]
