"""Seasons, leaderboards and player statistics, per server, without Discord.

The standings are kept by the database layer in the transaction of every finishing move
(see ``db/leaderboard.py``); this service reads them, pages them and rolls seasons over.
Every call takes the guild id, and every query is scoped by it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.games import GAMES
from bot.service.errors import ServiceError
from db.leaderboard import (
    NAME_LIMIT,
    ChampionRecord,
    EmptySeason,
    PlayerBoard,
    RecentResult,
    Rollover,
    SeasonRecord,
    StandingRecord,
)
from db.leaderboard_store import LeaderboardStore
from db.parties import PartyStats, PartyStore
from db.repository import Repository

log = logging.getLogger(__name__)

PAGE_SIZE = 10
RECENT_RESULTS = 5

__all__ = [
    "BoardPage",
    "ChampionRecord",
    "LeaderboardService",
    "NeedsManageServer",
    "PlayerBoard",
    "PlayerStats",
    "RecentResult",
    "Rollover",
    "SeasonError",
    "SeasonRecord",
    "SeasonSummary",
    "StandingRecord",
    "UnknownGame",
    "UnknownSeason",
    "game_name",
]


class NeedsManageServer(ServiceError):
    def __init__(self, what: str) -> None:
        super().__init__(f"Only members with the Manage Server permission can {what}.")


class UnknownSeason(ServiceError):
    def __init__(self, number: int) -> None:
        super().__init__(f"This server has no season {number}; /season list shows the seasons.")


class UnknownGame(ServiceError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"There is no game called {game_id!r}.")


class SeasonError(ServiceError):
    """A season cannot be started or ended as asked (the sentence says why)."""


def game_name(game_id: str) -> str:
    game = GAMES.get(game_id)
    return game.name if game is not None else game_id


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One page of a game's leaderboard in one season of one server."""

    guild_id: int
    game_id: str
    season: SeasonRecord
    page: int  # 0-based, clamped to the pages that exist
    pages: int
    total: int  # players on the board
    rows: tuple[StandingRecord, ...]
    has_points: bool

    @property
    def game_name(self) -> str:
        return game_name(self.game_id)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    current: SeasonRecord
    boards: tuple[PlayerBoard, ...]  # newest season first
    recent: tuple[RecentResult, ...]  # newest first
    parties: PartyStats = field(default_factory=lambda: PartyStats(0, 0))  # parties finished here, and won

    @property
    def played(self) -> int:
        return sum(b.standing.played for b in self.boards)

    @property
    def wins(self) -> int:
        return sum(b.standing.wins for b in self.boards)


@dataclass(frozen=True, slots=True)
class SeasonSummary:
    season: SeasonRecord
    champions: tuple[ChampionRecord, ...]  # by game, then place


@dataclass
class LeaderboardService:
    repo: Repository
    page_size: int = PAGE_SIZE
    clock: Callable[[], float] = time.time

    def __post_init__(self) -> None:
        self.store = LeaderboardStore(self.repo)

    # --- seasons ------------------------------------------------------------------------

    async def current_season(self, guild_id: int) -> SeasonRecord:
        """The open season (a season always exists: the first is created on first use)."""
        return await self.store.current_season(guild_id, self.clock())

    async def season(self, guild_id: int, number: int | None) -> SeasonRecord:
        if number is None:
            return await self.current_season(guild_id)
        season = await self.store.season_by_number(guild_id, number)
        if season is None:
            raise UnknownSeason(number)
        return season

    async def seasons(self, guild_id: int) -> list[SeasonSummary]:
        """Every season of the server, newest first, with the champions of closed ones."""
        await self.current_season(guild_id)
        podiums: dict[int, list[ChampionRecord]] = {}
        for c in await self.store.champions(guild_id):
            podiums.setdefault(c.season_id, []).append(c)
        return [SeasonSummary(s, tuple(podiums.get(s.id, ()))) for s in await self.store.seasons(guild_id)]

    async def start_season(self, guild_id: int, name: str, *, is_admin: bool) -> Rollover:
        """Close the current season (archiving its champions) and open ``name``."""
        if not is_admin:
            raise NeedsManageServer("start a season")
        name = " ".join(name.split())
        if not name:
            raise SeasonError("Give the new season a name.")
        if len(name) > NAME_LIMIT:
            raise SeasonError(f"A season name can be at most {NAME_LIMIT} characters.")
        rollover = await self.store.roll_season(guild_id, name, self.clock(), require_results=False)
        log.info("guild %s: season %d (%s) started", guild_id, rollover.opened.number, rollover.opened.name)
        return rollover

    async def end_season(self, guild_id: int, *, is_admin: bool) -> Rollover:
        """Close the current season (archiving its champions); the next one opens at once."""
        if not is_admin:
            raise NeedsManageServer("end a season")
        try:
            rollover = await self.store.roll_season(guild_id, None, self.clock(), require_results=True)
        except EmptySeason as empty:
            raise SeasonError(
                f"{empty.season.name} has no results yet, so there is nothing to end."
            ) from None
        log.info("guild %s: season %s ended", guild_id, rollover.closed.name if rollover.closed else "?")
        return rollover

    # --- leaderboards -------------------------------------------------------------------

    async def board(
        self,
        guild_id: int,
        game_id: str,
        season: int | None = None,
        page: int = 0,
        *,
        sort: str = "skill",
        descending: bool = True,
        size: int | None = None,
    ) -> BoardPage:
        """A page of ``game_id``'s leaderboard (the current season unless a number is given),
        in rank order (``sort`` "skill") or by another column of ``BOARD_SORTS``."""
        if game_id not in GAMES:
            raise UnknownGame(game_id)
        record = await self.season(guild_id, season)
        size = size or self.page_size
        part = await self.store.board_slice(record, game_id, max(0, page) * size, size, sort, descending)
        pages = max(1, -(-part.total // size))
        return BoardPage(
            guild_id=guild_id,
            game_id=game_id,
            season=record,
            page=part.offset // size,
            pages=pages,
            total=part.total,
            rows=part.rows,
            has_points=part.has_points,
        )

    async def stats(self, guild_id: int, user_id: int, recent: int = RECENT_RESULTS) -> PlayerStats:
        """One player across games and seasons of this server: ranks and recent results."""
        current = await self.current_season(guild_id)
        boards = await self.store.player_boards(guild_id, user_id)
        last = await self.store.recent_results(guild_id, user_id, recent)
        parties = await PartyStore(self.repo).stats(guild_id, user_id)
        return PlayerStats(guild_id, user_id, current, tuple(boards), tuple(last), parties)

    async def stored_name(self, stats: PlayerStats) -> str | None:
        """The name a player's seat had in their latest recorded match (for a player Discord
        sends as a bare id: one who left the server, or is not cached)."""
        for result in stats.recent:
            record = await self.repo.get_match(result.match_id)
            for seat in record.seats if record is not None else ():
                if seat.user_id == stats.user_id and not seat.ai:
                    return seat.name
        return None

    async def season_choices(self, guild_id: int, text: str = "", limit: int = 25) -> list[SeasonRecord]:
        """Seasons whose number or name contains ``text`` (for autocomplete), newest first."""
        low = text.strip().casefold()
        found = [
            s
            for s in await self.store.seasons(guild_id)
            if not low or low in s.name.casefold() or low == str(s.number)
        ]
        return found[:limit]

    async def rebuild(self, guild_id: int, game_id: str, season: int | None = None) -> int:
        """Recompute one board from the stored results; returns the players on it."""
        record = await self.season(guild_id, season)
        return await self.store.rebuild_board(guild_id, game_id, record.id)
