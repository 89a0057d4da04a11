"""The leaderboards' tables and plain records: seasons, standings, champions, a player's
results, and the board order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, and_

from db.models import Champion, Result, Season, Standing

# Core tables and their columns (typed for SQLAlchemy, unlike the SQLModel attributes).
st_table: Table = Standing.__table__  # type: ignore[attr-defined]
se_table: Table = Season.__table__  # type: ignore[attr-defined]
rs_table: Table = Result.__table__  # type: ignore[attr-defined]
ch_table: Table = Champion.__table__  # type: ignore[attr-defined]
ST, SE, RS, CH = st_table.c, se_table.c, rs_table.c, ch_table.c

PODIUM = 3
NAME_LIMIT = 64


# --- plain records ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    id: int
    guild_id: int
    number: int
    name: str
    started_at: float
    ended_at: float | None

    @property
    def current(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class StandingRecord:
    user_id: int
    rank: int
    mu: float
    sigma: float
    ordinal: float
    rated: int
    played: int
    wins: int
    losses: int
    points: int
    scored: int
    last_at: float
    place_score: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class BoardSlice:
    """Some rows of one board, in rank order, and how many players the board has."""

    season: SeasonRecord
    game_id: str
    total: int
    offset: int
    rows: tuple[StandingRecord, ...]
    has_points: bool


@dataclass(frozen=True, slots=True)
class PlayerBoard:
    """One player's standing on one board, with their rank among ``total`` players."""

    season: SeasonRecord
    game_id: str
    standing: StandingRecord
    total: int


@dataclass(frozen=True, slots=True)
class ChampionRecord:
    season_id: int
    game_id: str
    place: int
    user_id: int
    ordinal: float
    played: int
    wins: int
    points: int


@dataclass(frozen=True, slots=True)
class RecentResult:
    match_id: int
    game_id: str
    season_number: int | None
    place: int
    players: int
    score: int | None
    team: str | None
    left: bool
    has_ai: bool
    created_at: float

    @property
    def won(self) -> bool:
        return self.place == 1 and not self.left


@dataclass(frozen=True, slots=True)
class Rollover:
    """What closing a season did: the season closed (if any), its podiums and the one now open."""

    closed: SeasonRecord | None
    champions: tuple[ChampionRecord, ...]
    opened: SeasonRecord
    renamed_from: str | None = None  # the open season had no results and was only renamed


def season_record(row: Any) -> SeasonRecord:
    return SeasonRecord(row.id, row.guild_id, row.number, row.name, row.started_at, row.ended_at)


def standing_record(row: Any, rank: int) -> StandingRecord:
    return StandingRecord(
        user_id=row.user_id,
        rank=rank,
        mu=row.mu,
        sigma=row.sigma,
        ordinal=row.ordinal,
        rated=row.rated,
        played=row.played,
        wins=row.wins,
        losses=row.losses,
        points=row.points,
        scored=row.scored,
        last_at=row.last_at,
        place_score=row.place_score,
    )


def champion_record(row: Any) -> ChampionRecord:
    return ChampionRecord(
        row.season_id, row.game_id, row.place, row.user_id, row.ordinal, row.played, row.wins, row.points
    )


# The leaderboard order (matches the index ix_standings_rank): each column, and whether it descends.
RANK_KEYS = (
    (ST.ordinal, True),
    (ST.place_score, True),
    (ST.wins, True),
    (ST.played, False),
    (ST.user_id, False),
)
RANK_ORDER = tuple(column.desc() if down else column for column, down in RANK_KEYS)

# The columns a board may be sorted by besides its rank (``skill``), each falling back to the
# rank order on ties.
BOARD_SORTS: dict[str, Any] = {
    "wins": ST.wins,
    "played": ST.played,
    "win_rate": ST.wins * 1.0 / ST.played,  # a standing has played at least once
    "placing": ST.place_score,
    "points": ST.points,
}


def board_order(sort: str = "skill", descending: bool = True) -> tuple[Any, ...]:
    """The ORDER BY of a board sorted by ``sort`` (``skill``: the rank order; or one of
    ``BOARD_SORTS``), the largest first unless ``descending`` is False."""
    column = BOARD_SORTS.get(sort)
    if column is None:
        return (
            RANK_ORDER if descending else tuple(col.asc() if down else col.desc() for col, down in RANK_KEYS)
        )
    return (column.desc() if descending else column.asc(), *RANK_ORDER)


def board_where(guild_id: int, game_id: str, season_id: int) -> Any:
    return and_(ST.guild_id == guild_id, ST.game_id == game_id, ST.season_id == season_id)


class EmptySeason(Exception):
    """The open season has no results, so there is nothing to close."""

    def __init__(self, season: SeasonRecord) -> None:
        super().__init__(season.name)
        self.season = season
