"""SQLite's writing threads: the writer, one thread holding the one writer connection and
running jobs one at a time for the event loop, and the checkpointer beside it.

A job is a synchronous function of the SQLAlchemy ``Connection``; it owns its transaction
(``Repository.write`` wraps it in one). The connection is opened on the thread at the first
job and kept until ``close``: no pool check-out per write.

The hop from the event loop and back is a queue put, the thread's wake-up and one
``call_soon_threadsafe``: about 14 us here against 23 us through ``run_in_executor`` and its
two chained futures (``benchmarks/bench_write.py --breakdown`` measures both).

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
# (the caller's loop, its future, the job; None to close)
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[Connection], Any] | None]


class Checkpointer:
    """Copies the WAL into the database file on a thread of its own (see above)."""

    def __init__(self, database: str, every: int = 200, idle_seconds: float = 5.0) -> None:
        self._database, self._every, self._idle = database, every, idle_seconds
        self._written = 0  # writes committed (counted by the writer thread)
        self._signalled = 0  # _written when the writer last called for a checkpoint
        self._copied = 0  # _written when the last checkpoint started (the checkpointer's own)
        self._seen = 0  # _written when the checkpointer last woke (quiet since: no write after it)
        self._due = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name="sqlite-checkpointer", daemon=True)
        self._thread.start()

    def wrote(self) -> None:
        """One more write committed (called by the writer thread only)."""
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
            if written != seen and written - self._copied < self._every:  # writes came meanwhile: not quiet yet
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
        self, engine: Engine, checkpointer: Checkpointer | None = None, name: str = "sqlite-writer", lock_path: str | None = None
    ) -> None:
        """``lock_path``: the file whose ``flock`` the writers of every process take in turn."""
        self._engine = engine
        self._checkpointer = checkpointer
        self._lock_path = lock_path if fcntl is not None else None
        self._lock_fd: int | None = None
        self._connection: Connection | None = None
        self._closed = False
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    async def run(self, job: Callable[[Connection], T]) -> T:
        """``job(connection)`` on the writer thread; its result or its exception here."""
        if self._closed:
            raise RuntimeError("the SQLite writer is closed")
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
            try:
                if self._connection is None or self._connection.closed:
                    self._connection = self._engine.connect()
                if self._lock_path is not None and self._lock_fd is None:
                    self._lock_fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
                if self._lock_fd is not None:
                    fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
                try:
                    outcome: tuple[bool, Any] = (True, job(self._connection))
                    if self._connection.in_transaction():  # a job that left its transaction open loses it
                        self._connection.rollback()
                finally:
                    if self._lock_fd is not None:
                        fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            except BaseException as err:  # noqa: BLE001 - handed to the caller, the thread lives on
                outcome = (False, err)
            if self._checkpointer is not None:
                self._checkpointer.wrote()
            _reply(loop, done, outcome)


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
