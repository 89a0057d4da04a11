"""The direct path (db/direct.py): SQLAlchemy Core statements run on SQLite's own connection.

A match's last move on a SQLite file writes its results, the season and the standings this
way; the same move through SQLAlchemy Core (an in-memory database, and PostgreSQL) must
leave exactly the same rows.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import bindparam, create_engine, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from db import direct as direct_module
from db import sqlite_moves
from db.direct import Direct
from db.leaderboard import ST, se_table, st_table
from db.records import MatchStatus, MatchUpdate, ResultRow, Seat
from db.repository import Repository, result_table

TIMES = {"created_at", "updated_at", "started_at", "finished_at", "last_at"}  # when it ran, not what it wrote


def _rows(conn: Connection) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for table in (se_table, st_table, result_table):
        rows = conn.execute(select(table).order_by(*table.primary_key.columns)).mappings().all()
        out[table.name] = [{k: v for k, v in row.items() if k not in TIMES} for row in rows]
    return out


async def _play_out(repo: Repository) -> dict[str, list[dict[str, Any]]]:
    """Six matches of three players (two humans a match, an AI in some), each ended by a last
    move: the season is opened by the first, standings are inserted and then updated."""
    humans = [11, 12, 13]
    for n in range(6):
        a, b = humans[n % 3], humans[(n + 1) % 3]
        seats = [Seat(a, f"u{a}"), Seat(b, f"u{b}")] + ([Seat(None, "AI", ai=True)] if n % 2 else [])
        m = await repo.create_match(
            guild_id=5, channel_id=100 + n, host_id=a, game_id="four", options={}, seats=seats, seed=n
        )
        m = await repo.start_match(
            m.id, m.version, state={"n": 0}, seats=m.seats, deadline_at=None, deadline=None
        )
        places = [(n + i) % len(seats) + 1 for i in range(len(seats))]
        results = tuple(
            ResultRow(
                i,
                s.user_id,
                s.ai,
                places[i],
                10 * places[i] if n % 3 else None,
                None,
                left=(n == 4 and i == 1),
            )
            for i, s in enumerate(seats)
        )
        await repo.apply_move(
            MatchUpdate(m.id, m.version, {"n": 1}, 0, a, "last", {}, MatchStatus.FINISHED, results=results)
        )
    return await repo.write(_rows)


async def test_a_last_move_writes_the_same_rows_directly_as_through_sqlalchemy(tmp_path: Path) -> None:
    direct = Repository(f"sqlite:///{tmp_path / 'direct.db'}")
    core = Repository("sqlite://")  # in memory: every write through SQLAlchemy Core
    assert direct.database.writer_thread is not None and core.database.writer_thread is None
    try:
        await direct.migrate()
        await core.migrate()
        written = await _play_out(direct)
        assert written == await _play_out(core)
        assert (
            len(written["seasons"]) == 1 and len(written["standings"]) == 3 and len(written["results"]) == 15
        )
        assert {row["played"] for row in written["standings"]} == {4}
    finally:
        await direct.close()
        await core.close()


async def test_the_first_moves_after_a_start_compile_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A started repository has compiled what a move and a match's last move run on SQLite's
    own connection (a season opened, standings inserted and updated), so that the first
    players after a restart do not wait for it."""
    sqlite_moves.sqlite_move_update.cache_clear()  # as in a fresh process
    sqlite_moves.compile_the_moves.cache_clear()
    Direct._prepared.clear()
    repo = Repository(f"sqlite:///{tmp_path / 'fresh.db'}")
    compiled: list[str] = []

    def counting(statement: Any, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(statement))
        return direct_module.compile_statement(statement, *args, **kwargs)

    try:
        await repo.migrate()
        monkeypatch.setattr(sqlite_moves, "compile_statement", counting)
        monkeypatch.setattr(direct_module, "compile_statement", counting)
        for n in range(2):
            seats = [Seat(11, "ann"), Seat(12, "bob")]
            m = await repo.create_match(
                guild_id=7, channel_id=n, host_id=11, game_id="four", options={}, seats=seats, seed=n
            )
            m = await repo.start_match(
                m.id, m.version, state={"n": 0}, seats=m.seats, deadline_at=None, deadline=None
            )
            m = await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 11, "a move", {}))
            results = (ResultRow(0, 11, False, 1, 5, None), ResultRow(1, 12, False, 2, 3, None))
            await repo.apply_move(
                MatchUpdate(
                    m.id, m.version, {"n": 2}, 1, 12, "last", {}, MatchStatus.FINISHED, results=results
                )
            )
        assert compiled == []
        assert [len(r) for r in (await repo.write(_rows)).values()] == [1, 2, 4], (
            "only the real matches' rows were written"
        )
    finally:
        await repo.close()


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[Connection]:
    path = tmp_path / "d.db"
    engine = create_engine(f"sqlite:///{path}")
    from db.migrate import upgrade

    with engine.begin() as setup:
        upgrade(setup)
    with engine.connect() as connection:
        yield connection
    engine.dispose()


def _standing(user: int, **more: Any) -> dict[str, Any]:
    return {
        "guild_id": 1,
        "game_id": "four",
        "season_id": 1,
        "user_id": user,
        "mu": 25.0,
        "sigma": 8.3,
        "ordinal": 0.0,
    } | more


def _season(conn: Connection) -> None:
    Direct(conn).execute(
        insert(se_table), {"guild_id": 1, "number": 1, "name": "S1", "started_at": 0.0, "ended_at": None}
    )


def test_an_insert_gets_the_columns_plain_defaults_as_sqlalchemy_gives_them(conn: Connection) -> None:
    _season(conn)
    Direct(conn).execute(insert(st_table), [_standing(7), _standing(8, played=3)])
    rows = conn.execute(select(ST.user_id, ST.played, ST.rated, ST.place_score).order_by(ST.user_id)).all()
    assert [tuple(r) for r in rows] == [(7, 0, 0, 0.0), (8, 3, 0, 0.0)]


def test_rows_read_by_column_name_and_values_carried_by_the_statement(conn: Connection) -> None:
    _season(conn)
    direct = Direct(conn)
    direct.execute(insert(st_table), [_standing(7, wins=2), _standing(8, wins=5)])
    row = direct.execute(select(st_table).where(ST.user_id == 8)).first()  # 8 is carried by the statement
    assert (row.user_id, row.wins, row.mu) == (8, 5, 25.0)
    assert direct.execute(select(ST.wins).where(ST.user_id == bindparam("u")), {"u": 7}).scalar() == 2
    assert direct.execute(select(ST.wins).where(ST.user_id == 99)).first() is None


def test_what_the_direct_path_cannot_do_is_refused_not_run_differently(conn: Connection) -> None:
    direct = Direct(conn)
    with pytest.raises(ValueError, match="expanding"):
        direct.execute(
            select(st_table).where(ST.user_id.in_(bindparam("users", expanding=True))), {"users": [1, 2]}
        )
    with pytest.raises(ValueError, match="parameters"):
        direct.execute(insert(se_table).values(guild_id=1, number=1, name="S", started_at=0.0))


def test_a_broken_constraint_is_the_error_sqlalchemy_raises(conn: Connection) -> None:
    _season(conn)
    with pytest.raises(IntegrityError):
        Direct(conn).execute(insert(st_table), [_standing(7), _standing(7)])  # one standing a player a board


def test_statements_built_afresh_are_not_kept(conn: Connection) -> None:
    """A statement built once is compiled once; one built for a single call goes with it."""
    _season(conn)
    direct = Direct(conn)
    kept = select(ST.wins).where(ST.user_id == bindparam("u"))
    direct.execute(kept, {"u": 1})
    before = len(Direct._prepared)
    for user in range(50):
        direct.execute(select(ST.wins).where(ST.user_id == user))
    gc.collect()
    assert len(Direct._prepared) == before
    assert direct._prepare(kept, {"u": 2}) is direct._prepare(kept, {"u": 3})
