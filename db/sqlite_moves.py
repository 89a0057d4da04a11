"""SQLite's own move path: the move's statements compiled from the tables once and run on the
writer thread's sqlite3 connection, and the open matches read the same way at a restart."""

from __future__ import annotations

import functools
import sqlite3
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Integer, bindparam, insert, literal_column, select, update
from sqlalchemy.engine import Connection, create_engine
from sqlalchemy.exc import DBAPIError

from db.direct import CompiledStatement, Direct, compile_statement
from db.moves import MOVE_COLUMNS, insert_results, move_row, move_values
from db.records import MatchRecord, MatchStatus, MatchUpdate, ResultRow, Seat
from db.rows import (
    MATCH_COLUMNS,
    MT,
    MatchRow,
    StaleVersion,
    dump_json,
    match_record,
    match_table,
    move_table,
)

# --- the per-move write on SQLite: statements compiled once, run on the driver's connection ----
#
# SQLAlchemy Core builds, caches and compiles a statement and processes its result on every
# call: about 0.5 ms a move, against 30 us for the rows themselves. The move's statements are
# compiled from the tables once (the models stay the one schema) and run on the writer's
# sqlite3 connection; the record comes from the values written plus the columns the UPDATE
# returns, read the same way a fresh read reads them (``match_record``). A match's last move also
# writes its results, the season's standings and the ratings: the same functions as on
# PostgreSQL, run on the same connection through ``db.direct`` (0.8 ms of the writer's CPU
# through SQLAlchemy Core, 0.5 ms so, most of what is left the ratings' arithmetic).
#
# An UPDATE that names an indexed column rewrites its index entries even when the value stays
# the same. ``status`` is in two indexes and a move rarely changes it, so the move's UPDATE
# returns it and a second statement sets it only when it changes: two pages of the six a
# move would write, and fewer checkpoints.


@functools.cache
def sqlite_move_update(columns: tuple[str, ...]) -> CompiledStatement:
    """UPDATE matches SET <columns>, version + 1 WHERE id AND version match, RETURNING the
    columns not set (one statement for each set of columns a move writes)."""
    statement = (
        update(match_table)
        .where(MT.id == bindparam("match_id"), MT.version == bindparam("expected_version"))
        .values(version=MT.version + literal_column("1", Integer))
    )
    returns = [c for c in MATCH_COLUMNS if c.name not in columns and c.name != "version"]
    return compile_statement(statement, columns, returns)


@functools.cache
def _sqlite_with_status(count: int) -> CompiledStatement:
    """SELECT every column of the matches in one of ``count`` statuses, by id."""
    wanted = MT.status.in_([bindparam(f"status{i}") for i in range(count)])
    return compile_statement(select(match_table).where(wanted).order_by(MT.id))


def matches_on_sqlite(statuses: tuple[MatchStatus, ...], conn: Connection) -> list[MatchRecord]:
    """The matches in ``statuses``, read on the writer thread's own sqlite3 connection."""
    driver = conn.connection.driver_connection
    assert driver is not None
    statement = _sqlite_with_status(len(statuses))
    rows = driver.execute(
        statement.sql, statement.bind({f"status{i}": v for i, v in enumerate(statuses)})
    ).fetchall()
    return [match_record(MatchRow._make(row)) for row in rows]


_SQLITE_SET_STATUS = compile_statement(update(match_table).where(MT.id == bindparam("match_id")), ["status"])
_SQLITE_MOVE_INSERT = compile_statement(insert(move_table), MOVE_COLUMNS)


def move_on_sqlite(upd: MatchUpdate, values: dict[str, Any], now: float, conn: Connection) -> MatchRecord:
    """A move on SQLite's writer thread, as one transaction; a match's last move writes its
    results, the season's standings and the ratings in it too (``db.direct``)."""
    update_statement = sqlite_move_update(tuple(c for c in values if c != "status"))
    driver = conn.connection.driver_connection
    assert driver is not None
    statement = update_statement
    params = update_statement.bind(
        {**values, "match_id": upd.match_id, "expected_version": upd.expected_version}
    )
    driver.execute("BEGIN")
    try:
        returned = driver.execute(statement.sql, params).fetchall()
        if not returned:
            raise StaleVersion(upd.match_id)
        row = dict(zip(update_statement.returns, returned[0], strict=True))
        if row["status"] != values["status"]:
            statement, params = (
                _SQLITE_SET_STATUS,
                _SQLITE_SET_STATUS.bind({**values, "match_id": upd.match_id}),
            )
            driver.execute(statement.sql, params)
        statement, params = _SQLITE_MOVE_INSERT, _SQLITE_MOVE_INSERT.bind(move_row(upd, now))
        driver.execute(statement.sql, params)
        rec = match_record(
            SimpleNamespace(**{**row, **values}, version=upd.expected_version + 1), upd.state, upd.notes
        )
        if upd.results:
            insert_results(Direct(conn), rec, upd.results, now)
        driver.commit()
    except BaseException as err:
        driver.rollback()
        if isinstance(err, sqlite3.Error):  # the error SQLAlchemy would raise (IntegrityError, ...)
            raise DBAPIError.instance(
                statement.sql, params, err, sqlite3.Error, dialect=conn.dialect
            ) from err
        raise
    return rec


@functools.cache  # once a process: what it compiles stays compiled for every repository
def compile_the_moves() -> None:
    """Compile the statements of SQLite's move path now, at start-up, not in the first
    players' moves: a move, and the last moves of two rated matches of one server (its first
    season opened, standings inserted, then updated), played on a throwaway in-memory
    database of the same tables. The compiled forms are kept by statement, whatever the
    database (``sqlite_move_update``, ``Direct``). Measured on a slow CPU: the first move
    after a start took 3.5 ms against 0.45, the first last move 15 ms against 1.3."""
    scratch = create_engine("sqlite://")
    try:
        match_table.metadata.create_all(scratch)
        with scratch.connect() as conn:
            players = (Seat(1, "a"), Seat(2, "b"))
            results = (ResultRow(0, 1, False, 1, 1, None), ResultRow(1, 2, False, 2, 0, None))
            for channel_id in (1, 2):
                with conn.begin():
                    key = conn.execute(
                        insert(match_table).values(
                            guild_id=1,
                            channel_id=channel_id,
                            host_id=1,
                            game_id="warm-up",
                            options="{}",
                            status=MatchStatus.RUNNING,
                            seats=dump_json([s.to_json() for s in players]),
                            version=0,
                            seed=1,
                            notes="{}",
                            created_at=0.0,
                            updated_at=0.0,
                        )
                    ).inserted_primary_key
                assert key is not None
                match_id = int(key[0])
                for version, status in enumerate((MatchStatus.RUNNING, MatchStatus.FINISHED)):
                    upd = MatchUpdate(
                        match_id,
                        version,
                        {},
                        version,
                        version + 1,
                        "warm-up",
                        {},
                        status=status,
                        results=results if status.over else (),
                    )
                    move_on_sqlite(upd, move_values(upd, 0.0), 0.0, conn)
    finally:
        scratch.dispose()
