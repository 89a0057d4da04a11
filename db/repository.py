"""The repository: every SQL statement of the bot.

One writer connection serialises every write (SQLite allows one writer at a time; a pool
of writers only queues inside SQLite with busy waits: measured about 4 times slower at
p99 with 64 concurrent players). Reads use their own small pool. On PostgreSQL the same
code runs with a normal pool for reads and one writer per process for every write but one:
a move that does not end its match is a single statement (``_move_statement``: the match's
versioned UPDATE and the move's row in one), committed on its own on a small pool of
connections, so moves of different matches do not queue behind each other.

On a SQLite file the writer is a thread of its own (``db.writer``), and a move, the write
that happens most, skips SQLAlchemy's per-call work: its statements are compiled from the
tables once and run on the writer's sqlite3 connection (``_move_on_sqlite``, with
``db.direct`` for the results of a match's last move).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections import namedtuple
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import orjson
from sqlalchemy import Integer, Table, bindparam, event, insert, literal_column, select, update
from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect
from sqlalchemy.engine import Connection, create_engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool, QueuePool

from db import leaderboard
from db.direct import CompiledStatement, Direct, compile_statement
from db.models import GuildConfig, Match, MoveLog, Result, UserSettings
from db.records import (
    MatchRecord,
    MatchStatus,
    MatchUpdate,
    MoveRecord,
    Preferences,
    ResultRow,
    Seat,
    ServerSettings,
)
from db.writer import BUSY_TIMEOUT_MS, Checkpointer, WriterThread

log = logging.getLogger(__name__)
T = TypeVar("T")

ACTIVE = (MatchStatus.LOBBY, MatchStatus.RUNNING)
OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
# SQL is written against the tables' columns (typed SQL expressions), not model attributes.
match_table: Table = Match.__table__  # type: ignore[attr-defined]
move_table: Table = MoveLog.__table__  # type: ignore[attr-defined]
result_table: Table = Result.__table__  # type: ignore[attr-defined]
config_table: Table = GuildConfig.__table__  # type: ignore[attr-defined]
settings_table: Table = UserSettings.__table__  # type: ignore[attr-defined]
MT, MV, RS, GC, US = match_table.c, move_table.c, result_table.c, config_table.c, settings_table.c
MATCH_COLUMNS = tuple(match_table.columns)


class StaleVersion(Exception):
    """The match moved on since the caller loaded it; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an active match (lobby or running)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(match_id)
        self.match_id = match_id


def dump_json(value: Any) -> str:
    """A JSON column's text (keys sorted, so equal values give equal text)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


load_json = orjson.loads  # several times faster than json.loads: a restart parses every open match


@functools.lru_cache(maxsize=1024)
def _seats(text: str) -> tuple[Seat, ...]:
    """A seats column's value, parsed once for each text: seats are frozen, and most writes
    (every move but a seat change) return the seats as they were."""
    return tuple(Seat.from_json(s) for s in load_json(text))


def _record(row: Any, state: Any = None, notes: Any = None) -> MatchRecord:
    """A match's row as its record. ``state``, ``notes``: their values when the caller has
    them at hand (a move just dumped them), instead of parsing their text again."""
    return MatchRecord(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        host_id=row.host_id,
        game_id=row.game_id,
        options=load_json(row.options),
        status=MatchStatus(row.status),
        seats=_seats(row.seats),
        version=row.version,
        seed=row.seed,
        state=state if state is not None else load_json(row.state) if row.state else None,
        notes=notes if notes is not None else load_json(row.notes),
        deadline_at=row.deadline_at,
        deadline=load_json(row.deadline) if row.deadline else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        turn_message_id=row.turn_message_id,
    )


def normalise_url(url: str) -> str:
    """Pick the async driver for plain URLs (``sqlite:///x``, ``postgresql://...``)."""
    u = make_url(url)
    if u.drivername == "sqlite":
        u = u.set(drivername="sqlite+aiosqlite")
    elif u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+asyncpg")
    return u.render_as_string(hide_password=False)


class Repository:
    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            db_path = make_url(self.url).database
            if db_path and db_path != ":memory:":
                Path(db_path).parent.mkdir(parents=True, exist_ok=True)
        # One connection for every write.
        self.writer: AsyncEngine = create_async_engine(
            self.url, poolclass=AsyncAdaptedQueuePool, pool_size=1, max_overflow=0
        )
        # SQLite on a file: writes run as plain synchronous transactions on one thread of
        # their own, one hop from the event loop per transaction (aiosqlite costs a hop per
        # statement). PostgreSQL (and an in-memory SQLite) write through the async engine.
        self._writer_thread: WriterThread | None = None
        self.reader: AsyncEngine = (
            create_async_engine(self.url, pool_size=4, max_overflow=4) if not self._memory else self.writer
        )
        if self.is_sqlite:
            for engine in {self.writer, self.reader}:
                event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
            if not self._memory:
                sync_url = make_url(self.url).set(drivername="sqlite+pysqlite")
                sync_writer = create_engine(
                    sync_url,
                    poolclass=QueuePool,
                    pool_size=1,
                    max_overflow=0,
                    connect_args={"check_same_thread": False},
                )
                event.listen(sync_writer, "connect", _sqlite_pragmas)
                event.listen(sync_writer, "connect", _no_automatic_checkpoint)  # the Checkpointer's work
                self._writer_thread = WriterThread(
                    sync_writer, Checkpointer(str(db_path)), lock_path=f"{db_path}-writer.lock"
                )
        # PostgreSQL: the moves that end nothing, each one statement committed on its own, on
        # a pool of their own (the version check and row locks keep a match's moves in order).
        self.movers: AsyncEngine | None = (
            None
            if self.is_sqlite
            else create_async_engine(self.url, pool_size=4, max_overflow=4, isolation_level="AUTOCOMMIT")
        )
        self._write_lock = asyncio.Lock()

    @property
    def _memory(self) -> bool:
        return self.is_sqlite and make_url(self.url).database in (None, "", ":memory:")

    # --- life cycle ---------------------------------------------------------------------

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (keeps running matches)."""
        from db.migrate import upgrade

        async with self._write_lock, self.writer.begin() as conn:
            await conn.run_sync(upgrade)
        if self._writer_thread is not None:
            _compile_the_moves()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection from the reader pool."""
        async with self.reader.connect() as conn:
            yield conn

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)``, synchronous SQLAlchemy Core, as one transaction on the
        one writer: committed when it returns, rolled back if it raises."""
        if self._writer_thread is not None:
            return await self._writer_thread.run(functools.partial(_transaction, fn, args))
        async with self._write_lock, self.writer.begin() as conn:
            return await conn.run_sync(fn, *args)

    async def close(self) -> None:
        if self._writer_thread is not None:
            await self._writer_thread.close()
        await self.writer.dispose()
        if self.movers is not None:
            await self.movers.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()

    # --- matches ------------------------------------------------------------------------

    async def create_match(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game_id: str,
        options: dict[str, str],
        seats: Iterable[Seat],
        seed: int,
    ) -> MatchRecord:
        now = time.time()

        def create(conn: Connection) -> MatchRecord:
            busy = conn.execute(
                select(MT.id).where(MT.channel_id == channel_id, MT.status.in_(ACTIVE)).limit(1)
            )
            existing = busy.scalar()
            if existing is not None:
                raise ChannelBusy(existing)
            res = conn.execute(
                insert(match_table).values(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    game_id=game_id,
                    options=dump_json(options),
                    status=MatchStatus.LOBBY,
                    seats=dump_json([s.to_json() for s in seats]),
                    version=0,
                    seed=seed,
                    notes="{}",
                    created_at=now,
                    updated_at=now,
                )
            )
            key = res.inserted_primary_key
            assert key is not None
            row = conn.execute(select(match_table).where(MT.id == int(key[0]))).first()
            assert row is not None
            return _record(row)

        return await self.write(create)

    async def get_match(self, match_id: int) -> MatchRecord | None:
        async with self.reader.connect() as conn:
            return await self._get(conn, match_id)

    async def _get(self, conn: AsyncConnection, match_id: int) -> MatchRecord | None:
        row = (await conn.execute(select(match_table).where(MT.id == match_id))).first()
        return _record(row) if row else None

    async def active_in_channel(self, channel_id: int) -> MatchRecord | None:
        async with self.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(match_table)
                    .where(MT.channel_id == channel_id, MT.status.in_(ACTIVE))
                    .order_by(MT.id.desc())
                    .limit(1)
                )
            ).first()
            return _record(row) if row else None

    async def latest_in_channel(self, channel_id: int) -> MatchRecord | None:
        async with self.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(match_table).where(MT.channel_id == channel_id).order_by(MT.id.desc()).limit(1)
                )
            ).first()
            return _record(row) if row else None

    async def matches_with_status(self, *statuses: MatchStatus) -> list[MatchRecord]:
        """Every match in one of ``statuses`` (a restart reads every open match with it). On
        a SQLite file, read straight on the writer thread's sqlite3 connection, as a move is
        written: read and parsed side by side, 10,000 open matches took 1.0 s this way against
        1.3 to 1.6 s through SQLAlchemy and aiosqlite (the collector running in both)."""
        if self._writer_thread is not None:
            return await self._writer_thread.run(functools.partial(_matches_on_sqlite, tuple(statuses)))
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(select(match_table).where(MT.status.in_(statuses)).order_by(MT.id))
            ).all()
            return [_record(r) for r in rows]

    async def ended_since(self, since: float) -> list[MatchRecord]:
        """Matches that finished or were cancelled at ``since`` or later."""
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(match_table).where(MT.status.in_(OVER), MT.finished_at >= since).order_by(MT.id)
                )
            ).all()
            return [_record(r) for r in rows]

    async def active_for_user(self, guild_id: int, user_id: int) -> list[MatchRecord]:
        """Running or open matches in a guild where ``user_id`` holds a seat."""
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(match_table)
                    .where(MT.guild_id == guild_id, MT.status.in_(ACTIVE))
                    .order_by(MT.id.desc())
                )
            ).all()
        records = [_record(r) for r in rows]
        return [m for m in records if any(s.user_id == user_id for s in m.seats)]

    async def update_lobby(
        self,
        match_id: int,
        expected_version: int,
        *,
        seats: Iterable[Seat] | None = None,
        options: dict[str, str] | None = None,
        host_id: int | None = None,
        status: MatchStatus | None = None,
        notes: dict[str, Any] | None = None,
    ) -> MatchRecord:
        """Change a lobby (or end a match, or change its seats, without a move); bumps the version."""
        values: dict[str, Any] = {"updated_at": time.time()}
        if notes is not None:
            values["notes"] = dump_json(notes)
        if seats is not None:
            values["seats"] = dump_json([s.to_json() for s in seats])
        if options is not None:
            values["options"] = dump_json(options)
        if host_id is not None:
            values["host_id"] = host_id
        if status is not None:
            values["status"] = status
            if status.over:
                values["finished_at"] = time.time()
                values["deadline_at"] = None
                values["deadline"] = None
        return await self._versioned_update(match_id, expected_version, values)

    async def start_match(
        self,
        match_id: int,
        expected_version: int,
        *,
        state: dict[str, Any],
        seats: Iterable[Seat],
        deadline_at: float | None,
        deadline: dict[str, Any] | None,
    ) -> MatchRecord:
        values = {
            "status": MatchStatus.RUNNING,
            "state": dump_json(state),
            "seats": dump_json([s.to_json() for s in seats]),
            "deadline_at": deadline_at,
            "deadline": dump_json(deadline) if deadline else None,
            "updated_at": time.time(),
        }
        return await self._versioned_update(match_id, expected_version, values)

    async def set_message(self, match_id: int, message_id: int | None) -> None:
        await self.write(_execute, update(match_table).where(MT.id == match_id).values(message_id=message_id))

    async def _versioned_update(
        self, match_id: int, expected_version: int, values: dict[str, Any]
    ) -> MatchRecord:
        return await self.write(_versioned_update, match_id, expected_version, values)

    async def apply_move(self, upd: MatchUpdate) -> MatchRecord:
        """State + version + move row (+ results when finished): one transaction or nothing."""
        now = time.time()
        values = _move_values(upd, now)
        if self._writer_thread is not None:
            # The hot path: every move, straight on SQLite's own connection; at once on the
            # event loop when the writer is idle (a quiet server), else in the writer's queue.
            return await self._writer_thread.run(
                functools.partial(_move_on_sqlite, upd, values, now), inline=True
            )
        if self.movers is not None and not upd.results:
            # PostgreSQL: one statement, one round trip, beside the other moves. A match's last
            # move (results, standings, ratings: reads then writes) takes the one writer.
            return await self._move_on_postgresql(tuple(values), _move_params(upd, values, now), upd.match_id)
        return await self.write(_move, upd, values, now)

    async def _move_on_postgresql(
        self, columns: tuple[str, ...], params: dict[str, Any], match_id: int
    ) -> MatchRecord:
        """``_move_statement`` run by asyncpg itself on a connection of the movers' pool (one
        round trip; asyncpg prepares it once a connection): 0.18 ms of the event loop's CPU a
        move, pool checkout included, against 0.28 ms for the same statement through
        SQLAlchemy. Errors come out as SQLAlchemy's, as they would through it."""
        import asyncpg

        statement = _move_statement_for_asyncpg(columns)
        args = statement.bind(params)
        assert self.movers is not None
        async with self.movers.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            try:
                row = await driver.fetchrow(statement.sql, *args)
            except asyncpg.IntegrityConstraintViolationError as err:
                raise IntegrityError(statement.sql, args, err) from err
            except asyncpg.PostgresError as err:
                raise DBAPIError(statement.sql, args, err) from err
        if row is None:
            raise StaleVersion(match_id)
        return _record(_MatchRow._make(row))

    async def moves(self, match_id: int) -> list[MoveRecord]:
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(select(move_table).where(MV.match_id == match_id).order_by(MV.version))
            ).all()
            return [MoveRecord(r.version, r.seat, r.user_id, r.code, r.created_at) for r in rows]

    async def results(self, match_id: int) -> list[ResultRow]:
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(select(result_table).where(RS.match_id == match_id).order_by(RS.seat))
            ).all()
            return [
                ResultRow(r.seat, r.user_id, r.is_ai, r.place, r.score, r.team, r.left, r.skill_change)
                for r in rows
            ]

    async def turn_seconds(self, guild_id: int) -> int | None:
        """The server's turn timer in seconds (None: not set, 0: off)."""
        async with self.reader.connect() as conn:
            row = (await conn.execute(select(GC.turn_seconds).where(GC.guild_id == guild_id))).first()
            return None if row is None else row[0]

    async def set_turn_seconds(self, guild_id: int, seconds: int | None) -> None:
        now = time.time()
        await self.write(
            _upsert,
            config_table,
            GC.guild_id == guild_id,
            {"turn_seconds": seconds, "updated_at": now},
            {"guild_id": guild_id},
        )

    async def set_turn_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the match's current "your turn" message (None: there is none)."""
        await self.write(
            _execute, update(match_table).where(MT.id == match_id).values(turn_message_id=message_id)
        )

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The server's display settings (defaults where never changed)."""
        async with self.reader.connect() as conn:
            row = (
                await conn.execute(select(GC.turn_pings, GC.text_only).where(GC.guild_id == guild_id))
            ).first()
        if row is None:
            return ServerSettings()
        return ServerSettings(turn_pings=row[0] is not False, text_only=bool(row[1]))

    async def set_server_settings(self, guild_id: int, **values: bool) -> ServerSettings:
        now = time.time()
        await self.write(
            _upsert,
            config_table,
            GC.guild_id == guild_id,
            {**values, "updated_at": now},
            {"guild_id": guild_id},
        )
        return await self.server_settings(guild_id)

    async def preferences(self, user_ids: Sequence[int]) -> dict[int, Preferences]:
        """The settings of these users (defaults for those who never changed any)."""
        out = {u: Preferences() for u in user_ids}
        if not user_ids:
            return out
        async with self.reader.connect() as conn:
            rows = await conn.execute(
                select(US.user_id, US.turn_pings, US.text_only).where(US.user_id.in_(list(user_ids)))
            )
            for user_id, pings, text_only in rows:
                out[user_id] = Preferences(turn_pings=pings is not False, text_only=bool(text_only))
        return out

    async def set_preferences(self, user_id: int, **values: bool) -> Preferences:
        now = time.time()
        await self.write(
            _upsert,
            settings_table,
            US.user_id == user_id,
            {**values, "updated_at": now},
            {"user_id": user_id},
        )
        return (await self.preferences([user_id]))[user_id]

    async def set_deadline(
        self, match_id: int, version: int, deadline_at: float | None, deadline: dict[str, Any] | None
    ) -> bool:
        """Replace the stored deadline of this version (no version bump); False if stale."""
        statement = (
            update(match_table)
            .where(MT.id == match_id, MT.version == version)
            .values(deadline_at=deadline_at, deadline=dump_json(deadline) if deadline else None)
        )
        return bool(await self.write(_rowcount, statement) == 1)


# --- the writes, as synchronous functions of one connection (see Repository.write) ---------


def _transaction(fn: Callable[..., T], args: tuple[Any, ...], conn: Connection) -> T:
    with conn.begin():
        return fn(conn, *args)


def _execute(conn: Connection, statement: Any) -> None:
    conn.execute(statement)


def _rowcount(conn: Connection, statement: Any) -> int:
    return int(conn.execute(statement).rowcount)


def _upsert(conn: Connection, table: Table, where: Any, values: dict[str, Any], key: dict[str, Any]) -> None:
    """Update the row ``where`` selects, or insert it with ``key`` if there is none."""
    if conn.execute(update(table).where(where).values(**values)).rowcount == 0:
        conn.execute(insert(table).values(**key, **values))


# Statements built once: SQLAlchemy reuses their cache keys and compiled forms (the columns
# an update sets come with its parameters, each set of them compiled once).
_VERSIONED_UPDATE = (
    update(match_table)
    .where(MT.id == bindparam("match_id_"), MT.version == bindparam("expected_version_"))
    .values(version=MT.version + 1)
    .returning(*MATCH_COLUMNS)
)
_MOVE_INSERT = insert(move_table)


def _versioned_update(
    conn: Connection, match_id: int, expected_version: int, values: dict[str, Any]
) -> MatchRecord:
    """Set ``values`` on the match if it is still at ``expected_version``, and bump it."""
    row = conn.execute(
        _VERSIONED_UPDATE, {**values, "match_id_": match_id, "expected_version_": expected_version}
    ).first()
    if row is None:
        raise StaleVersion(match_id)
    return _record(row)


def _move_values(upd: MatchUpdate, now: float) -> dict[str, Any]:
    """The columns of the match's row that a move sets."""
    values: dict[str, Any] = {
        "state": dump_json(upd.state),
        "notes": dump_json(upd.notes),
        "status": str(upd.status),
        "deadline_at": upd.deadline_at,
        "deadline": dump_json(upd.deadline) if upd.deadline else None,
        "updated_at": now,
    }
    if upd.seats is not None:
        values["seats"] = dump_json([s.to_json() for s in upd.seats])
    if upd.status.over:
        values["finished_at"] = now
    return values


def _move(conn: Connection, upd: MatchUpdate, values: dict[str, Any], now: float) -> MatchRecord:
    """A move through SQLAlchemy Core (PostgreSQL, and SQLite in memory); on PostgreSQL the
    match's row and the move's in one statement (one round trip fewer)."""
    if conn.dialect.name == "postgresql":
        row = conn.execute(_move_statement(tuple(values)), _move_params(upd, values, now)).first()
        if row is None:
            raise StaleVersion(upd.match_id)
        rec = _record(row)
    else:
        rec = _versioned_update(conn, upd.match_id, upd.expected_version, values)
        conn.execute(_MOVE_INSERT, _move_row(upd, now))
    if upd.results:
        _insert_results(conn, rec, upd.results, now)
    return rec


MOVE_COLUMNS = ("match_id", "version", "seat", "user_id", "code", "created_at")
_ASYNCPG = asyncpg_dialect()


@functools.cache
def _move_statement(columns: tuple[str, ...]) -> Any:
    """A move as one statement (PostgreSQL): the match's UPDATE of ``columns`` at the expected
    version, and the move's row inserted from what it returns; the match's row comes back,
    none if the version moved on (then nothing was written)."""
    moved = (
        update(match_table)
        .where(MT.id == bindparam("match_id_"), MT.version == bindparam("expected_version_"))
        .values({match_table.c[c]: bindparam(c) for c in columns})
        .values(version=MT.version + 1)
        .returning(*MATCH_COLUMNS)
        .cte("moved")
    )
    given = [
        bindparam(f"{c}_", type_=move_table.c[c].type) for c in MOVE_COLUMNS[2:]
    ]  # not the matches' column names
    logged = (
        insert(move_table)
        .from_select(list(MOVE_COLUMNS), select(moved.c.id, moved.c.version, *given))
        .cte("logged")
    )
    return select(moved).add_cte(logged)


def _move_params(upd: MatchUpdate, values: dict[str, Any], now: float) -> dict[str, Any]:
    """``_move_statement``'s parameters: the match's ``values`` and the move's row."""
    move = {
        "match_id_": upd.match_id,
        "expected_version_": upd.expected_version,
        "seat_": upd.seat,
        "user_id_": upd.user_id,
    }
    return {**values, **move, "code_": upd.code, "created_at_": now}


@functools.cache
def _move_statement_for_asyncpg(columns: tuple[str, ...]) -> CompiledStatement:
    """``_move_statement`` compiled for asyncpg once: its text and the order of its ``$n``."""
    return compile_statement(_move_statement(columns), dialect=_ASYNCPG)


def _move_row(upd: MatchUpdate, now: float) -> dict[str, Any]:
    """The move's row in ``moves``: the columns ``MOVE_COLUMNS``."""
    return {
        "match_id": upd.match_id,
        "version": upd.expected_version + 1,
        "seat": upd.seat,
        "user_id": upd.user_id,
        "code": upd.code,
        "created_at": now,
    }


# --- the per-move write on SQLite: statements compiled once, run on the driver's connection ----
#
# SQLAlchemy Core builds, caches and compiles a statement and processes its result on every
# call: about 0.5 ms a move, against 30 us for the rows themselves. The move's statements are
# compiled from the tables once (the models stay the one schema) and run on the writer's
# sqlite3 connection; the record comes from the values written plus the columns the UPDATE
# returns, read the same way a fresh read reads them (``_record``). A match's last move also
# writes its results, the season's standings and the ratings: the same functions as on
# PostgreSQL, run on the same connection through ``db.direct`` (0.8 ms of the writer's CPU
# through SQLAlchemy Core, 0.5 ms so, most of what is left the ratings' arithmetic).
#
# An UPDATE that names an indexed column rewrites its index entries even when the value stays
# the same. ``status`` is in two indexes and a move rarely changes it, so the move's UPDATE
# returns it and a second statement sets it only when it changes: two pages of the six a
# move would write, and fewer checkpoints.


@functools.cache
def _sqlite_move_update(columns: tuple[str, ...]) -> CompiledStatement:
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


_MatchRow = namedtuple("_MatchRow", [c.name for c in MATCH_COLUMNS])  # type: ignore[misc]  # a row as _record reads it


def _matches_on_sqlite(statuses: tuple[MatchStatus, ...], conn: Connection) -> list[MatchRecord]:
    """The matches in ``statuses``, read on the writer thread's own sqlite3 connection."""
    driver = conn.connection.driver_connection
    assert driver is not None
    statement = _sqlite_with_status(len(statuses))
    rows = driver.execute(
        statement.sql, statement.bind({f"status{i}": v for i, v in enumerate(statuses)})
    ).fetchall()
    return [_record(_MatchRow._make(row)) for row in rows]


_SQLITE_SET_STATUS = compile_statement(update(match_table).where(MT.id == bindparam("match_id")), ["status"])
_SQLITE_MOVE_INSERT = compile_statement(insert(move_table), MOVE_COLUMNS)


def _move_on_sqlite(upd: MatchUpdate, values: dict[str, Any], now: float, conn: Connection) -> MatchRecord:
    """A move on SQLite's writer thread, as one transaction; a match's last move writes its
    results, the season's standings and the ratings in it too (``db.direct``)."""
    update_statement = _sqlite_move_update(tuple(c for c in values if c != "status"))
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
        statement, params = _SQLITE_MOVE_INSERT, _SQLITE_MOVE_INSERT.bind(_move_row(upd, now))
        driver.execute(statement.sql, params)
        rec = _record(
            SimpleNamespace(**{**row, **values}, version=upd.expected_version + 1), upd.state, upd.notes
        )
        if upd.results:
            _insert_results(Direct(conn), rec, upd.results, now)
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
def _compile_the_moves() -> None:
    """Compile the statements of SQLite's move path now, at start-up, not in the first
    players' moves: a move, and the last moves of two rated matches of one server (its first
    season opened, standings inserted, then updated), played on a throwaway in-memory
    database of the same tables. The compiled forms are kept by statement, whatever the
    database (``_sqlite_move_update``, ``Direct``). Measured on a slow CPU: the first move
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
                    _move_on_sqlite(upd, _move_values(upd, 0.0), 0.0, conn)
    finally:
        scratch.dispose()


_RESULTS_INSERT = insert(result_table)


def _insert_results(
    conn: Connection | Direct, rec: MatchRecord, results: tuple[ResultRow, ...], now: float
) -> None:
    has_ai = any(r.is_ai for r in results)
    # Leaderboards: the guild's open season (the first is created now) and its standings,
    # in this same transaction.
    season_id = leaderboard.current_season_id(conn, rec.guild_id, now)
    changes = leaderboard.record_match(conn, rec.guild_id, rec.game_id, season_id, results, now)
    conn.execute(
        _RESULTS_INSERT,
        [
            {
                "match_id": rec.id,
                "guild_id": rec.guild_id,
                "game_id": rec.game_id,
                "season_id": season_id,
                "user_id": r.user_id,
                "seat": r.seat,
                "is_ai": r.is_ai,
                "place": r.place,
                "score": r.score,
                "team": r.team,
                "players": len(results),
                "has_ai": has_ai,
                "left": r.left,
                "created_at": now,
                "skill_change": changes.get(r.user_id) if r.user_id is not None and not r.is_ai else None,
            }
            for r in results
        ],
    )


def _no_automatic_checkpoint(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.close()
