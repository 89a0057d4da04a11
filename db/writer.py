"""The SQLite writer thread: one thread holding the one writer connection, running jobs one at
a time for the event loop.

A job is a synchronous function of the SQLAlchemy ``Connection``; it owns its transaction
(``Repository.write`` wraps it in one). The connection is opened on the thread at the first
job and kept until ``close``: no pool check-out per write.

The hop from the event loop and back is a queue put, the thread's wake-up and one
``call_soon_threadsafe``: about 13 us here against 22 us through ``run_in_executor`` and its
two chained futures (``benchmarks/bench_write.py --breakdown`` measures both).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

T = TypeVar("T")
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[Connection], Any]]


class WriterThread:
    def __init__(self, engine: Engine, name: str = "sqlite-writer") -> None:
        self._engine = engine
        self._connection: Connection | None = None
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    async def run(self, job: Callable[[Connection], T]) -> T:
        """``job(connection)`` on the writer thread; its result or its exception here."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, done, job))
        return await done

    async def close(self) -> None:
        """Run the jobs already queued, close the connection and end the thread."""
        await self.run(self._close_connection)
        self._jobs.put(None)
        self._thread.join()

    def _close_connection(self, _conn: Connection) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _serve(self) -> None:
        while (item := self._jobs.get()) is not None:
            loop, done, job = item
            if done.cancelled():  # the caller gave up before its turn came: do not write
                continue
            try:
                if self._connection is None or self._connection.closed:
                    self._connection = self._engine.connect()
                outcome: tuple[bool, Any] = (True, job(self._connection))
            except BaseException as err:  # noqa: BLE001 - handed to the caller, the thread lives on
                outcome = (False, err)
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
