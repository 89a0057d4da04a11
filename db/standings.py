"""The standings of each board (a server's game in a season): folded in at each match's end,
rebuilt from the stored results, read a page at a time and for one player."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from db.direct import Direct
from db.leaderboard_records import (
    RANK_ORDER,
    RS,
    SE,
    ST,
    BoardSlice,
    PlayerBoard,
    RecentResult,
    SeasonRecord,
    board_where,
    rs_table,
    se_table,
    st_table,
    standing_record,
)
from db.ratings import Tally, apply_match
from db.records import ResultRow
from db.seasons import seasons

# Built once, as the seasons' statements (``db.seasons``): a match's last move runs them.
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
    conn.execute(delete(st_table).where(board_where(guild_id, game_id, season_id)))
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


def board_slice(
    conn: Connection,
    season: SeasonRecord,
    game_id: str,
    offset: int,
    limit: int,
    order: Sequence[Any] = RANK_ORDER,
) -> BoardSlice:
    """Rows ``offset`` to ``offset + limit`` of a board in ``order`` (the rank order unless
    :func:`db.leaderboard_records.board_order` gives another); a row's ``rank`` is its place
    in that order."""
    where = board_where(season.guild_id, game_id, season.id)
    total = int(conn.execute(select(func.count()).select_from(st_table).where(where)).scalar() or 0)
    if total and offset >= total:
        offset = (total - 1) // limit * limit
    rows = conn.execute(select(st_table).where(where).order_by(*order).limit(limit).offset(offset)).all()
    standings = tuple(standing_record(r, offset + i + 1) for i, r in enumerate(rows))
    scored = conn.execute(select(ST.id).where(where, ST.scored > 0).limit(1)).first() is not None
    return BoardSlice(season, game_id, total, offset, standings, scored)


def _rank(conn: Connection, row: Any) -> int:
    """1 + the players ahead of ``row`` on its board (in RANK_ORDER).

    Five counts, each a range of the index ix_standings_rank (no table rows read), rather
    than one OR that makes SQLite scan the whole board.
    """
    board = board_where(row.guild_id, row.game_id, row.season_id)
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
        where = board_where(guild_id, row.game_id, row.season_id)
        total = int(conn.execute(select(func.count()).select_from(st_table).where(where)).scalar() or 0)
        out.append(PlayerBoard(season, row.game_id, standing_record(row, _rank(conn, row)), total))
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
