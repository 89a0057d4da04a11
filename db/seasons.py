"""A server's seasons: opened on first use, rolled over (each game's top three archived as
champions), listed."""

from __future__ import annotations

import logging

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.engine import Connection

from db.direct import Direct
from db.leaderboard_records import (
    CH,
    NAME_LIMIT,
    PODIUM,
    RANK_ORDER,
    SE,
    ST,
    ChampionRecord,
    EmptySeason,
    Rollover,
    SeasonRecord,
    board_where,
    ch_table,
    champion_record,
    se_table,
    season_record,
    st_table,
)

log = logging.getLogger(__name__)

# The statements of a match's last move, built once: SQLAlchemy then reuses their cache
# keys and compiled forms, where a statement built afresh on every call costs about 0.1 ms
# to build and key before it runs.
# On SQLite they run on the writer's own connection (``db.direct``), which is why they take
# every value as a parameter and no IN list expands.
_OPEN_SEASON = select(se_table).where(SE.guild_id == bindparam("guild"), SE.ended_at.is_(None))
_LAST_SEASON_NUMBER = select(func.max(SE.number)).where(SE.guild_id == bindparam("guild"))
_INSERT_SEASON = insert(se_table)


def open_season(conn: Connection | Direct, guild_id: int) -> SeasonRecord | None:
    row = conn.execute(_OPEN_SEASON, {"guild": guild_id}).first()
    return season_record(row) if row else None


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
    return [season_record(r) for r in rows]


def season_by_number(conn: Connection, guild_id: int, number: int) -> SeasonRecord | None:
    row = conn.execute(select(se_table).where(SE.guild_id == guild_id, SE.number == number)).first()
    return season_record(row) if row else None


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
            select(st_table)
            .where(board_where(guild_id, game_id, current.id))
            .order_by(*RANK_ORDER)
            .limit(PODIUM)
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


def champions(conn: Connection, guild_id: int) -> list[ChampionRecord]:
    rows = conn.execute(
        select(ch_table).where(CH.guild_id == guild_id).order_by(CH.season_id, CH.game_id, CH.place)
    ).all()
    return [champion_record(r) for r in rows]
