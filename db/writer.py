"""SQLite's writing threads: the writer, one thread holding the one writer connection and
running jobs one at a time for the event loop, and the checkpointer beside it.

A job is a synchronous function of the SQLAlchemy ``Connection``; it owns its transaction
(``Repository.write`` wraps it in one). The connection is opened at the first job and kept
until ``close``: no pool check-out per write.

The hop from the event loop and back is a queue put, the thread's wake-up and one
``call_soon_threadsafe``: about 14 us here against 23 us through ``run_in_executor`` and its
two chained futures (``benchmarks/bench_write.py --breakdown`` measures both).

A move's write that finds the writer idle (no job running, none queued) and the other
processes' lock free skips the hop: it runs at once on the event loop, on the same
connection, ``_turn`` held so the thread cannot start a job meanwhile. Since the loop runs
one callback at a time, that is nearly every move, in a burst too; the thread keeps the other
writes (lobbies, settings, message ids, a restart's read) and a move that comes while one of
those runs or another process writes. A write is about 50-150 us of SQLite and Python; the
hop it saves costs about as much again when both threads wake from idle, and in a burst
each hop is a switch of the GIL between the two threads. ``bench_write.py``: 2.2-2.3 times
the raw commit against 3.9-4.5 with the hop; ``bench_bot.py``, 64 at once: p99 about 5%
lower (2026-11-27, docs/MEASUREMENTS.md). SQLite's own write lock can still be taken by
something that is not one of the bot's writers (an admin's shell); a write on the loop must
never wait for it (up to the busy timeout of 5 s), so it runs with a busy timeout of 0, and
on "database is locked" (its transaction rolled back) it goes to the thread to wait there.

In WAL mode with ``synchronous=NORMAL`` a commit only appends to the WAL file; the disk
waits (fsync) come with the checkpoint that copies the WAL back into the database file, which
SQLite runs by default inside the commit that fills the WAL past 1,000 pages: a few
milliseconds, every 200 moves or so, on one unlucky move. The writer connection has that
automatic checkpoint off; the checkpointer runs the same checkpoint (PASSIVE: it never
blocks a writer or a reader) on its own connection and thread, every ``every`` writes and
after ``idle_seconds`` of quiet (no write at all) with writes not yet copied, so that a steady
trickle of moves meets a checkpoint's disk waits once in ``every`` writes rather than on a
timer.

Several processes may write to one file (shards on one machine: ``SHARD_IDS``). SQLite
itself lets one writer at a time in and makes the others poll: a writer that finds the file
locked sleeps 1, 2, 5, 10 ms and longer before trying again, so a process that meets a
burst of the other's writes falls behind by tens of milliseconds. The writers therefore
take turns on an advisory lock beside the database (``flock`` on ``<file>-writer.lock``)
around each transaction: the kernel wakes the next writer the moment the lock is free. The
lock costs two system calls a write (under 1 us here) when nobody else holds it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

try:
    import fcntl
except ImportError:  # Windows has no flock: there SQLite's own polling decides who writes
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)
T = TypeVar("T")
BUSY_TIMEOUT_MS = 5000  # how long a write waits for SQLite's lock (``db.database.sqlite_pragmas`` sets it)
# (the caller's loop, its future, the job; None to close)
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[Connection], Any] | None]


class Checkpointer:
    """Copies the WAL into the database file on a thread of its own (see above)."""

    def __init__(self, database: str, every: int = 200, idle_seconds: float = 5.0) -> None:
        self._database, self._every, self._idle = database, every, idle_seconds
        self._written = 0  # writes committed (counted by whoever holds the writer's turn)
        self._signalled = 0  # _written when the writer last called for a checkpoint
        self._copied = 0  # _written when the last checkpoint started (the checkpointer's own)
        self._seen = 0  # _written when the checkpointer last woke (quiet since: no write after it)
        self._due = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name="sqlite-checkpointer", daemon=True)
        self._thread.start()

    def wrote(self) -> None:
        """One more write committed (called by whoever holds the writer's turn: its thread, or an inline write on the event loop)."""
        self._written += 1
        if self._written - self._signalled >= self._every:
            self._signalled = self._written
            self._due.set()

    def close(self) -> None:
        self._stopping = True
        self._due.set()
        self._thread.join()

    def _serve(self) -> None:
        conn: sqlite3.Connection | None = None
        while not self._stopping:
            self._due.wait(self._idle)
            self._due.clear()
            written, seen, self._seen = self._written, self._seen, self._written
            if self._stopping or written == self._copied:
                continue
            if (
                written != seen and written - self._copied < self._every
            ):  # writes came meanwhile: not quiet yet
                continue
            self._copied = written
            try:
                conn = conn or sqlite3.connect(self._database, check_same_thread=False)
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except Exception:  # the thread lives on; the next checkpoint copies what this one could not
                log.exception("WAL checkpoint failed")
        if conn is not None:
            conn.close()


class WriterThread:
    """The one thread that writes to a SQLite file, on the one writer connection."""

    def __init__(
        self,
        engine: Engine,
        checkpointer: Checkpointer | None = None,
        name: str = "sqlite-writer",
        lock_path: str | None = None,
    ) -> None:
        """``lock_path``: the file whose ``flock`` the writers of every process take in turn."""
        self._engine = engine
        self._checkpointer = checkpointer
        self._lock_path = lock_path if fcntl is not None else None
        self._lock_fd: int | None = None
        self._connection: Connection | None = None
        self._waits_for_sqlite = True  # the connection's busy timeout: BUSY_TIMEOUT_MS, or 0 for inline jobs
        self._closed = False
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._turn = threading.Lock()  # held by whoever is writing: the thread, or an inline job
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    async def run(self, job: Callable[[Connection], T], *, inline: bool = False) -> T:
        """``job(connection)`` on the writer thread; its result or its exception here.

        ``inline``: a short job (a move's write) that finds the writer idle, nothing queued
        and the other processes' lock free runs at once on the caller's thread instead, on
        the same connection (see the module's docstring)."""
        if self._closed:
            raise RuntimeError("the SQLite writer is closed")
        if inline and self._jobs.empty() and self._turn.acquire(blocking=False):
            try:
                return self._write(job, wait=False)
            except _NotNow:  # another writer holds a lock: wait for it on the thread
                pass
            finally:
                self._turn.release()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, done, job))
        return await done

    async def close(self) -> None:
        """Run the jobs already queued, close the connection and end the thread (once)."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._jobs.put((loop, done, None))
        await done
        self._thread.join()
        if self._checkpointer is not None:
            self._checkpointer.close()

    def _serve(self) -> None:
        while True:
            loop, done, job = self._jobs.get()
            if job is None:  # close
                if self._connection is not None:
                    self._connection.close()
                if self._lock_fd is not None:
                    os.close(self._lock_fd)
                self._engine.dispose()
                _reply(loop, done, (True, None))
                return
            if done.cancelled():  # the caller gave up before its turn came: do not write
                continue
            with self._turn:
                try:
                    outcome: tuple[bool, Any] = (True, self._write(job, wait=True))
                except BaseException as err:  # noqa: BLE001 - handed to the caller, the thread lives on
                    outcome = (False, err)
            _reply(loop, done, outcome)

    def _write(self, job: Callable[[Connection], T], *, wait: bool) -> T:
        """``job`` on the writer connection (opened at the first job), the other processes'
        lock held around it; called with ``_turn`` held. ``wait=False`` (a write on the
        event loop) waits for no lock: :class:`_NotNow` when another process holds theirs or
        something else holds SQLite's own (its busy timeout is 0 then; the job rolled back)."""
        if self._lock_path is not None and self._lock_fd is None:
            self._lock_fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        if self._lock_fd is not None:
            try:
                fcntl.flock(self._lock_fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise _NotNow from None
        try:
            if self._connection is None or self._connection.closed:
                self._connection = self._engine.connect()
                self._waits_for_sqlite = True  # the connection's pragmas set the busy timeout
            if wait != self._waits_for_sqlite:  # changed only when the kind of write changes
                driver = self._connection.connection.driver_connection
                assert driver is not None
                driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS if wait else 0}")
                self._waits_for_sqlite = wait
            try:
                result = job(self._connection)
            except Exception as err:
                if not wait and _locked(err):
                    raise _NotNow from err
                raise
            if self._connection.in_transaction():  # a job that left its transaction open loses it
                self._connection.rollback()
            return result
        finally:
            if self._lock_fd is not None:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            if self._checkpointer is not None:
                self._checkpointer.wrote()


class _NotNow(Exception):
    """A write on the event loop met a lock it must not wait for (``WriterThread._write``)."""


def _locked(err: BaseException) -> bool:
    """Whether ``err`` (or the driver's error it wraps) is SQLite's "database is locked"."""
    orig = getattr(err, "orig", err)
    code = getattr(orig, "sqlite_errorcode", None)  # the extended code: its low byte is the primary one
    return (
        isinstance(orig, sqlite3.OperationalError) and code is not None and code & 0xFF == sqlite3.SQLITE_BUSY
    )


def _reply(loop: asyncio.AbstractEventLoop, done: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    try:
        loop.call_soon_threadsafe(_settle, done, outcome)
    except RuntimeError:  # the loop closed while the job ran: nobody is waiting
        pass


def _settle(done: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if done.cancelled():
        return
    ok, value = outcome
    if ok:
        done.set_result(value)
    else:
        done.set_exception(value)
