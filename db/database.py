"""The database's engines: where every SQL statement of the bot runs.

One writer connection serialises every write (SQLite allows one writer at a time; a pool
of writers only queues inside SQLite with busy waits: measured about 4 times slower at
p99 with 64 concurrent players). Reads use their own small pool. On PostgreSQL the same
code runs with a normal pool for reads and one writer per process for every write but one:
a move that does not end its match is a single statement (``db.moves.move_statement``: the match's
versioned UPDATE and the move's row in one), committed on its own on a small pool of
connections, so moves of different matches do not queue behind each other.

On a SQLite file the writer is a thread of its own (``db.writer``), and a move, the write
that happens most, skips SQLAlchemy's per-call work: its statements are compiled from the
tables once and run on the writer's sqlite3 connection (``db.sqlite_moves.move_on_sqlite``, with
``db.direct`` for the results of a match's last move).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Connection, create_engine, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool, QueuePool

from db.writer import BUSY_TIMEOUT_MS, Checkpointer, WriterThread

T = TypeVar("T")


def normalise_url(url: str) -> str:
    """Pick the async driver for plain URLs (``sqlite:///x``, ``postgresql://...``)."""
    u = make_url(url)
    if u.drivername == "sqlite":
        u = u.set(drivername="sqlite+aiosqlite")
    elif u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+asyncpg")
    return u.render_as_string(hide_password=False)


class Database:
    """The engines of one database URL and its one writer: every statement of the stores runs
    on a connection from here (reads on ``reader``, writes through :meth:`write`)."""

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
        self.writer_thread: WriterThread | None = None
        self.reader: AsyncEngine = (
            create_async_engine(self.url, pool_size=4, max_overflow=4) if not self.memory else self.writer
        )
        if self.is_sqlite:
            for engine in {self.writer, self.reader}:
                event.listen(engine.sync_engine, "connect", sqlite_pragmas)
            if not self.memory:
                sync_url = make_url(self.url).set(drivername="sqlite+pysqlite")
                sync_writer = create_engine(
                    sync_url,
                    poolclass=QueuePool,
                    pool_size=1,
                    max_overflow=0,
                    connect_args={"check_same_thread": False},
                )
                event.listen(sync_writer, "connect", sqlite_pragmas)
                event.listen(sync_writer, "connect", no_automatic_checkpoint)  # the Checkpointer's work
                self.writer_thread = WriterThread(
                    sync_writer, Checkpointer(str(db_path)), lock_path=f"{db_path}-writer.lock"
                )
        # PostgreSQL: the moves that end nothing, each one statement committed on its own, on
        # a pool of their own (the version check and row locks keep a match's moves in order).
        self.movers: AsyncEngine | None = (
            None
            if self.is_sqlite
            else create_async_engine(self.url, pool_size=4, max_overflow=4, isolation_level="AUTOCOMMIT")
        )
        self.write_lock = asyncio.Lock()

    @property
    def memory(self) -> bool:
        return self.is_sqlite and make_url(self.url).database in (None, "", ":memory:")

    # --- life cycle ---------------------------------------------------------------------

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (keeps running matches)."""
        from db.migrate import upgrade

        async with self.write_lock, self.writer.begin() as conn:
            await conn.run_sync(upgrade)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection from the reader pool."""
        async with self.reader.connect() as conn:
            yield conn

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)``, synchronous SQLAlchemy Core, as one transaction on the
        one writer: committed when it returns, rolled back if it raises."""
        if self.writer_thread is not None:
            return await self.writer_thread.run(functools.partial(transaction, fn, args))
        async with self.write_lock, self.writer.begin() as conn:
            return await conn.run_sync(fn, *args)

    async def close(self) -> None:
        if self.writer_thread is not None:
            await self.writer_thread.close()
        await self.writer.dispose()
        if self.movers is not None:
            await self.movers.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()


def transaction(fn: Callable[..., T], args: tuple[Any, ...], conn: Connection) -> T:
    with conn.begin():
        return fn(conn, *args)


def no_automatic_checkpoint(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.close()


def execute(conn: Connection, statement: Any) -> None:
    """A write of one statement (for :meth:`Database.write`)."""
    conn.execute(statement)


def rowcount(conn: Connection, statement: Any) -> int:
    """A write of one statement, and how many rows it changed (for :meth:`Database.write`)."""
    return int(conn.execute(statement).rowcount)
