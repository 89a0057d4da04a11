"""Seasons, standings and champions: every SQL statement of the leaderboards.

The functions taking a ``Connection`` are plain synchronous SQLAlchemy Core, run on the
writer's connection (``Repository.write``; on a SQLite file a match's last move hands them a
:class:`db.direct.Direct` instead): the repository calls :func:`current_season_id` and
:func:`record_match` inside the transaction of the move that finishes a match, so a result
row and the standings it changes are written together or not at all.
:class:`db.leaderboard_store.LeaderboardStore` wraps the rest for the service (reads on the reader pool, writes on
the repository's single writer connection).

Every query is scoped by guild: one server never reads another's rows.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, and_, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from db.direct import Direct
from db.models import Champion, Result, Season, Standing
from db.ratings import Tally, apply_match
from db.records import ResultRow

log = logging.getLogger(__name__)

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


def _season(row: Any) -> SeasonRecord:
    return SeasonRecord(row.id, row.guild_id, row.number, row.name, row.started_at, row.ended_at)


def _standing(row: Any, rank: int) -> StandingRecord:
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


def _champion(row: Any) -> ChampionRecord:
    return ChampionRecord(
        row.season_id, row.game_id, row.place, row.user_id, row.ordinal, row.played, row.wins, row.points
    )


# The leaderboard order (matches the index ix_standings_rank).
RANK_ORDER = (ST.ordinal.desc(), ST.place_score.desc(), ST.wins.desc(), ST.played, ST.user_id)


def _board(guild_id: int, game_id: str, season_id: int) -> Any:
    return and_(ST.guild_id == guild_id, ST.game_id == game_id, ST.season_id == season_id)


# --- seasons --------------------------------------------------------------------------------


# The statements of a match's last move, built once: SQLAlchemy then reuses their cache
# keys and compiled forms, where a statement built afresh on every call costs about 0.1 ms
# to build and key before it runs.
# On SQLite they run on the writer's own connection (``db.direct``), which is why they take
# every value as a parameter and no IN list expands.
_OPEN_SEASON = select(se_table).where(SE.guild_id == bindparam("guild"), SE.ended_at.is_(None))
_LAST_SEASON_NUMBER = select(func.max(SE.number)).where(SE.guild_id == bindparam("guild"))
_INSERT_SEASON = insert(se_table)
_UPDATE_STANDING = update(st_table).where(ST.id == bindparam("standing"))
_INSERT_STANDINGS = insert(st_table)


@functools.cache
def _standings_of(players: int) -> Any:
    """The standings of ``players`` users (parameters user0, user1, ...) on one board."""
    return select(st_table).where(
        ST.guild_id == bindparam("guild"),
        ST.game_id == bindparam("game"),
        ST.season_id == bindparam("season"),
        ST.user_id.in_([bindparam(f"user{i}") for i in range(players)]),
    )


def open_season(conn: Connection | Direct, guild_id: int) -> SeasonRecord | None:
    row = conn.execute(_OPEN_SEASON, {"guild": guild_id}).first()
    return _season(row) if row else None


def _next_number(conn: Connection | Direct, guild_id: int) -> int:
    top = conn.execute(_LAST_SEASON_NUMBER, {"guild": guild_id}).scalar()
    return int(top or 0) + 1


def _create_season(conn: Connection | Direct, guild_id: int, name: str | None, now: float) -> SeasonRecord:
    number = _next_number(conn, guild_id)
    name = (name or f"Season {number}")[:NAME_LIMIT]
    conn.execute(
        _INSERT_SEASON,
        {"guild_id": guild_id, "number": number, "name": name, "started_at": now, "ended_at": None},
    )
    season = open_season(conn, guild_id)
    assert season is not None
    log.info("guild %s: season %d (%s) opened", guild_id, number, name)
    return season


def ensure_season(conn: Connection | Direct, guild_id: int, now: float) -> SeasonRecord:
    """The guild's open season; the first one is created on first use."""
    return open_season(conn, guild_id) or _create_season(conn, guild_id, None, now)


def current_season_id(conn: Connection | Direct, guild_id: int, now: float) -> int:
    """The season a result finished now belongs to (repository hook)."""
    return ensure_season(conn, guild_id, now).id


def seasons(conn: Connection, guild_id: int) -> list[SeasonRecord]:
    rows = conn.execute(select(se_table).where(SE.guild_id == guild_id).order_by(SE.number.desc())).all()
    return [_season(r) for r in rows]


def season_by_number(conn: Connection, guild_id: int, number: int) -> SeasonRecord | None:
    row = conn.execute(select(se_table).where(SE.guild_id == guild_id, SE.number == number)).first()
    return _season(row) if row else None


def _has_results(conn: Connection, guild_id: int, season_id: int) -> bool:
    found = conn.execute(
        select(ST.id).where(ST.guild_id == guild_id, ST.season_id == season_id).limit(1)
    ).first()
    return found is not None


def roll_season(
    conn: Connection, guild_id: int, name: str | None, now: float, *, require_results: bool
) -> Rollover:
    """Close the open season (archiving each game's top three) and open the next.

    A season without any result is not archived: it is only renamed (when a name is given),
    or, when ``require_results``, :class:`EmptySeason` is raised.
    """
    current = ensure_season(conn, guild_id, now)
    if not _has_results(conn, guild_id, current.id):
        if require_results:
            raise EmptySeason(current)
        if name and name[:NAME_LIMIT] != current.name:
            conn.execute(update(se_table).where(SE.id == current.id).values(name=name[:NAME_LIMIT]))
        opened = open_season(conn, guild_id)
        assert opened is not None
        return Rollover(None, (), opened, renamed_from=current.name)
    podium: list[ChampionRecord] = []
    game_ids = (
        conn.execute(select(ST.game_id).where(ST.guild_id == guild_id, ST.season_id == current.id).distinct())
        .scalars()
        .all()
    )
    for game_id in sorted(game_ids):
        top = conn.execute(
            select(st_table).where(_board(guild_id, game_id, current.id)).order_by(*RANK_ORDER).limit(PODIUM)
        ).all()
        for place, row in enumerate(top, start=1):
            podium.append(
                ChampionRecord(
                    current.id, game_id, place, row.user_id, row.ordinal, row.played, row.wins, row.points
                )
            )
    if podium:
        conn.execute(
            insert(ch_table),
            [
                {
                    "guild_id": guild_id,
                    "season_id": c.season_id,
                    "game_id": c.game_id,
                    "place": c.place,
                    "user_id": c.user_id,
                    "ordinal": c.ordinal,
                    "played": c.played,
                    "wins": c.wins,
                    "points": c.points,
                }
                for c in podium
            ],
        )
    conn.execute(update(se_table).where(SE.id == current.id).values(ended_at=now))
    closed = SeasonRecord(current.id, guild_id, current.number, current.name, current.started_at, now)
    log.info("guild %s: season %d (%s) closed", guild_id, current.number, current.name)
    opened = _create_season(conn, guild_id, name, now)
    return Rollover(closed, tuple(podium), opened)


class EmptySeason(Exception):
    """The open season has no results, so there is nothing to close."""

    def __init__(self, season: SeasonRecord) -> None:
        super().__init__(season.name)
        self.season = season


def champions(conn: Connection, guild_id: int) -> list[ChampionRecord]:
    rows = conn.execute(
        select(ch_table).where(CH.guild_id == guild_id).order_by(CH.season_id, CH.game_id, CH.place)
    ).all()
    return [_champion(r) for r in rows]


# --- standings ------------------------------------------------------------------------------


def _tally(row: Any) -> Tally:
    return Tally(
        row.mu,
        row.sigma,
        row.rated,
        row.played,
        row.wins,
        row.losses,
        row.points,
        row.scored,
        row.last_at,
        row.place_score,
    )


def _values(t: Tally) -> dict[str, Any]:
    return {
        "mu": t.mu,
        "sigma": t.sigma,
        "ordinal": t.ordinal,
        "rated": t.rated,
        "played": t.played,
        "wins": t.wins,
        "losses": t.losses,
        "points": t.points,
        "scored": t.scored,
        "last_at": t.last_at,
        "place_score": t.place_score,
    }


def record_match(
    conn: Connection | Direct,
    guild_id: int,
    game_id: str,
    season_id: int,
    rows: Sequence[ResultRow],
    now: float,
) -> dict[int, float]:
    """Fold one finished match into its board (repository hook, same transaction as the
    results). Returns each rated player's change of skill (μ − 3σ)."""
    users = [r.user_id for r in rows if r.user_id is not None and not r.is_ai]
    if not users:
        return {}
    keys = {"guild": guild_id, "game": game_id, "season": season_id} | {
        f"user{i}": u for i, u in enumerate(users)
    }
    existing = conn.execute(_standings_of(len(users)), keys).all()
    ids = {r.user_id: r.id for r in existing}
    before = {r.user_id: _tally(r) for r in existing}
    updated = apply_match(before, rows, now)
    changes = {
        user_id: tally.ordinal - before.get(user_id, Tally()).ordinal
        for user_id, tally in updated.items()
        if tally.rated > before.get(user_id, Tally()).rated
    }
    known, fresh = [], []
    for user_id, tally in updated.items():
        if user_id in ids:
            known.append({"standing": ids[user_id], **_values(tally)})
        else:
            fresh.append(
                dict(
                    guild_id=guild_id, game_id=game_id, season_id=season_id, user_id=user_id, **_values(tally)
                )
            )
    if known:  # one statement for all (on PostgreSQL one round trip)
        conn.execute(_UPDATE_STANDING, known)
    if fresh:
        conn.execute(_INSERT_STANDINGS, fresh)
    return changes


def _write_board(
    conn: Connection, guild_id: int, game_id: str, season_id: int, tallies: dict[int, Tally]
) -> None:
    conn.execute(delete(st_table).where(_board(guild_id, game_id, season_id)))
    if tallies:
        conn.execute(
            insert(st_table),
            [
                dict(guild_id=guild_id, game_id=game_id, season_id=season_id, user_id=uid, **_values(t))
                for uid, t in tallies.items()
            ],
        )


def replay(matches: Iterable[tuple[float, Sequence[ResultRow]]]) -> dict[int, Tally]:
    """Standings from scratch: every match's rows, oldest first."""
    tallies: dict[int, Tally] = {}
    for at, rows in matches:
        tallies.update(apply_match(tallies, rows, at))
    return tallies


def board_matches(
    conn: Connection, guild_id: int, game_id: str, season_id: int
) -> list[tuple[float, list[ResultRow]]]:
    """Every stored result of one board grouped by match, in the order they were stored."""
    rows = conn.execute(
        select(rs_table)
        .where(RS.guild_id == guild_id, RS.game_id == game_id, RS.season_id == season_id)
        .order_by(RS.id)  # commit order, as live updates apply them (timestamps may tie or go back)
    ).all()
    out: list[tuple[float, list[ResultRow]]] = []
    last: int | None = None
    for r in rows:
        if r.match_id != last:
            out.append((r.created_at, []))
            last = r.match_id
        out[-1][1].append(ResultRow(r.seat, r.user_id, r.is_ai, r.place, r.score, r.team, r.left))
    return out


def rebuild_board(conn: Connection, guild_id: int, game_id: str, season_id: int) -> int:
    """Recompute one board from its results (repair, or after a rule change); players on it."""
    tallies = replay(board_matches(conn, guild_id, game_id, season_id))
    _write_board(conn, guild_id, game_id, season_id, tallies)
    return len(tallies)


def board_slice(conn: Connection, season: SeasonRecord, game_id: str, offset: int, limit: int) -> BoardSlice:
    where = _board(season.guild_id, game_id, season.id)
    total = int(conn.execute(select(func.count()).select_from(st_table).where(where)).scalar() or 0)
    if total and offset >= total:
        offset = (total - 1) // limit * limit
    rows = conn.execute(select(st_table).where(where).order_by(*RANK_ORDER).limit(limit).offset(offset)).all()
    standings = tuple(_standing(r, offset + i + 1) for i, r in enumerate(rows))
    scored = conn.execute(select(ST.id).where(where, ST.scored > 0).limit(1)).first() is not None
    return BoardSlice(season, game_id, total, offset, standings, scored)


def _rank(conn: Connection, row: Any) -> int:
    """1 + the players ahead of ``row`` on its board (in RANK_ORDER).

    Five counts, each a range of the index ix_standings_rank (no table rows read), rather
    than one OR that makes SQLite scan the whole board.
    """
    board = _board(row.guild_id, row.game_id, row.season_id)
    same_o = ST.ordinal == row.ordinal
    same_p = and_(same_o, ST.place_score == row.place_score)
    ahead = (
        ST.ordinal > row.ordinal,
        and_(same_o, ST.place_score > row.place_score),
        and_(same_p, ST.wins > row.wins),
        and_(same_p, ST.wins == row.wins, ST.played < row.played),
        and_(same_p, ST.wins == row.wins, ST.played == row.played, ST.user_id < row.user_id),
    )
    counts = [
        select(func.count()).select_from(st_table).where(board, cond).scalar_subquery() for cond in ahead
    ]
    total: Any = counts[0]
    for count in counts[1:]:
        total = total + count
    return 1 + int(conn.execute(select(total)).scalar() or 0)


def player_boards(conn: Connection, guild_id: int, user_id: int) -> list[PlayerBoard]:
    """Every board of this guild the player is on, newest season first."""
    by_id = {s.id: s for s in seasons(conn, guild_id)}
    rows = conn.execute(select(st_table).where(ST.guild_id == guild_id, ST.user_id == user_id)).all()
    out = []
    for row in rows:
        season = by_id.get(row.season_id)
        if season is None:  # pragma: no cover - a standing always has its season
            continue
        where = _board(guild_id, row.game_id, row.season_id)
        total = int(conn.execute(select(func.count()).select_from(st_table).where(where)).scalar() or 0)
        out.append(PlayerBoard(season, row.game_id, _standing(row, _rank(conn, row)), total))
    out.sort(key=lambda b: (-b.season.number, b.game_id))
    return out


def recent_results(conn: Connection, guild_id: int, user_id: int, limit: int) -> list[RecentResult]:
    """The player's newest results in this guild (index ix_results_user)."""
    rows = conn.execute(
        select(rs_table, SE.number.label("season_number"))
        .outerjoin(se_table, SE.id == RS.season_id)
        .where(RS.guild_id == guild_id, RS.user_id == user_id)
        .order_by(RS.created_at.desc(), RS.id.desc())
        .limit(limit)
    ).all()
    return [
        RecentResult(
            r.match_id,
            r.game_id,
            r.season_number,
            r.place,
            r.players,
            r.score,
            r.team,
            r.left,
            r.has_ai,
            r.created_at,
        )
        for r in rows
    ]
