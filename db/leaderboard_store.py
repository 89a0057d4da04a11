"""Async access to the leaderboards for the service: reads on the reader pool, writes
through the repository's one writer (the SQL itself is in :mod:`db.leaderboard`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from db.leaderboard import (
    BoardSlice,
    ChampionRecord,
    PlayerBoard,
    RecentResult,
    Rollover,
    SeasonRecord,
    board_order,
    board_slice,
    champions,
    ensure_season,
    open_season,
    player_boards,
    rebuild_board,
    recent_results,
    roll_season,
    season_by_number,
    seasons,
)
from db.players import RatedResult, player_names, rated_results
from db.repository import Repository

T = TypeVar("T")


class LeaderboardStore:
    """Async access for the service: reads on the reader pool, writes on the one writer."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def _read(self, fn: Callable[..., T], *args: Any) -> T:
        async with self.repo.reading() as conn:
            return await conn.run_sync(fn, *args)

    async def _write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self.repo.write(lambda conn: fn(conn, *args, **kwargs))

    async def current_season(self, guild_id: int, now: float) -> SeasonRecord:
        season = await self._read(open_season, guild_id)
        return season if season is not None else await self._write(ensure_season, guild_id, now)

    async def seasons(self, guild_id: int) -> list[SeasonRecord]:
        return await self._read(seasons, guild_id)

    async def season_by_number(self, guild_id: int, number: int) -> SeasonRecord | None:
        return await self._read(season_by_number, guild_id, number)

    async def roll_season(
        self, guild_id: int, name: str | None, now: float, *, require_results: bool
    ) -> Rollover:
        return await self._write(roll_season, guild_id, name, now, require_results=require_results)

    async def champions(self, guild_id: int) -> list[ChampionRecord]:
        return await self._read(champions, guild_id)

    async def board_slice(
        self,
        season: SeasonRecord,
        game_id: str,
        offset: int,
        limit: int,
        sort: str = "skill",
        descending: bool = True,
    ) -> BoardSlice:
        return await self._read(board_slice, season, game_id, offset, limit, board_order(sort, descending))

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        return await self._read(player_names, guild_id, user_ids)

    async def rated_results(self, guild_id: int, user_id: int) -> list[RatedResult]:
        return await self._read(rated_results, guild_id, user_id)

    async def player_boards(self, guild_id: int, user_id: int) -> list[PlayerBoard]:
        return await self._read(player_boards, guild_id, user_id)

    async def recent_results(self, guild_id: int, user_id: int, limit: int) -> list[RecentResult]:
        return await self._read(recent_results, guild_id, user_id, limit)

    async def rebuild_board(self, guild_id: int, game_id: str, season_id: int) -> int:
        return await self._write(rebuild_board, guild_id, game_id, season_id)
