"""What a server's web pages show, without the web: its leaderboards, players, seasons and
finished matches, read through the same stores as the Discord commands.

A server's pages are found by its web key (``/config web:`` makes one); a key that no server
holds, or one turned off, finds nothing. Players are named as their seat was named in their
latest match here, as the tables showed them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.base import GameError
from bot.service import errors
from bot.service.leaderboard import (
    BoardPage,
    LeaderboardService,
    PlayerStats,
    SeasonRecord,
    SeasonSummary,
)
from bot.service.replays import Replay, Replays
from db.leaderboard import BOARD_SORTS
from db.players import RatedResult
from db.ratings import DEFAULT_MU, DEFAULT_SIGMA, ordinal
from db.repository import Repository

log = logging.getLogger(__name__)

BOARD_PAGE = 25  # players on a page of a board
RECENT_SHOWN = 20  # a player's newest results listed
SORTS = ("skill", *BOARD_SORTS)
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
UNNAMED = "a former member"


@dataclass(frozen=True, slots=True)
class NamedBoard:
    """A page of a board, its players' names, and the order it is in."""

    page: BoardPage
    names: dict[int, str]
    sort: str
    descending: bool

    def name(self, user_id: int) -> str:
        return self.names.get(user_id, UNNAMED)


@dataclass(frozen=True, slots=True)
class Curve:
    """A player's skill (μ − 3σ) on one board: where it started, then after each rated match."""

    game_id: str
    season: SeasonRecord
    points: tuple[tuple[int, float], ...]  # (match id, skill after it); the first is (0, the start)


@dataclass(frozen=True, slots=True)
class PlayerPage:
    stats: PlayerStats
    name: str
    curves: tuple[Curve, ...]  # newest season first


@dataclass(frozen=True, slots=True)
class SeasonsPage:
    summaries: tuple[SeasonSummary, ...]  # newest first
    names: dict[int, str]

    def name(self, user_id: int) -> str:
        return self.names.get(user_id, UNNAMED)


def curves(results: Sequence[RatedResult], seasons: Sequence[SeasonRecord]) -> list[Curve]:
    """Each board's skill after each rated match, added up from the stored changes: a board
    starts at the default rating, as its standings do."""
    by_id = {s.id: s for s in seasons}
    start = ordinal(DEFAULT_MU, DEFAULT_SIGMA)
    boards: dict[tuple[str, int], list[tuple[int, float]]] = {}
    for r in results:
        if r.season_id not in by_id:
            continue
        points = boards.setdefault((r.game_id, r.season_id), [(0, start)])
        points.append((r.match_id, points[-1][1] + r.skill_change))
    found = [Curve(game, by_id[season], tuple(points)) for (game, season), points in boards.items()]
    found.sort(key=lambda c: (-c.season.number, c.game_id))
    return found


class WebPages:
    """The data of every page, per server; nothing here writes."""

    def __init__(
        self, repo: Repository, leaderboard: LeaderboardService | None = None, replays: Replays | None = None
    ) -> None:
        """``leaderboard`` and ``replays``: the bot's own, when the pages are served beside it
        (one cache of replays for Discord and the web)."""
        self.repo = repo
        self.leaderboard = leaderboard or LeaderboardService(repo)
        self.store = self.leaderboard.store
        self.replays = replays or Replays(repo)

    async def guild_of(self, key: str) -> int | None:
        """The server whose pages are at ``key``; None when none is (read every time, so a
        server that turns its pages off is off at once, in every process)."""
        if not KEY.fullmatch(key):
            return None
        return await self.repo.web_guild(key)

    async def board(
        self, guild_id: int, game_id: str, season: int | None, page: int, sort: str, descending: bool
    ) -> NamedBoard:
        """A page of a board, sorted by one of ``SORTS`` (raises UnknownGame, UnknownSeason)."""
        sort = sort if sort in SORTS else "skill"
        board = await self.leaderboard.board(
            guild_id, game_id, season, page, sort=sort, descending=descending, size=BOARD_PAGE
        )
        names = await self.store.player_names(guild_id, [r.user_id for r in board.rows])
        return NamedBoard(board, names, sort, descending)

    async def season_list(self, guild_id: int) -> list[SeasonRecord]:
        """The server's seasons, newest first (without their champions)."""
        return await self.store.seasons(guild_id)

    async def seasons(self, guild_id: int) -> SeasonsPage:
        summaries = await self.leaderboard.seasons(guild_id)
        users = sorted({c.user_id for s in summaries for c in s.champions})
        return SeasonsPage(tuple(summaries), await self.store.player_names(guild_id, users))

    async def player(self, guild_id: int, user_id: int) -> PlayerPage | None:
        """A player's page; None for someone with no finished match on this server."""
        stats = await self.leaderboard.stats(guild_id, user_id, RECENT_SHOWN)
        if not stats.boards and not stats.recent:
            return None
        names = await self.store.player_names(guild_id, [user_id])
        rated = await self.store.rated_results(guild_id, user_id)
        found = curves(rated, await self.store.seasons(guild_id))
        return PlayerPage(stats, names.get(user_id, UNNAMED), tuple(found))

    async def pictures(self, guild_id: int) -> bool:
        """Whether the server shows card pictures (``/config pictures:``)."""
        return not (await self.repo.server_settings(guild_id)).text_only

    async def replay(self, guild_id: int, match_id: int) -> Replay | None:
        """A finished match of this server, dealt again; None for any other (another server's
        is not even dealt), and for one its engine cannot play again."""
        record = await self.repo.get_match(match_id)
        if record is None or record.guild_id != guild_id:
            return None
        try:
            return await self.replays.get(match_id, guild_id)
        except (errors.MatchNotFound, errors.NotRunning):
            return None
        except GameError:
            log.warning("match %s: its moves do not play again; no replay", match_id)
            return None
