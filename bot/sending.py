"""An answer's bytes leave when it is handed over, not after everyone else's work.

aiohttp sends a request's headers and body from a task of its own (``ClientRequest.write_bytes``).
On Python 3.12 and later that task starts eagerly (``eager_start=True``): a small body is
written in the same step that hands the request over. On Python 3.11 it is an ordinary task,
queued behind everything already ready on the event loop, and until it runs nothing of the
request, not even its headers, reaches the socket.

When many players press at once, what is ready are their commands: discord.py parses a
batch of interactions and queues a task for each, and each runs to its answer without
suspending (the move's write is on the loop). So on 3.11 the answers of a batch left
together, once its last command had run: at 64 at once (``benchmarks/bench_bot.py
--phases``) an answer was written to the socket 6.8 ms after discord.py was handed it at
p50, against 0.3 ms with this module, and over seven runs each in turn the answers reached
the fake Discord at p50 26 ms (median of the runs) against 36 ms; p99 55 against 60 ms, within
the runs' spread (the last answer of a burst still waits for every command before it).

:func:`write_bodies_at_once` gives the bot's loop a task factory that starts aiohttp's body
writer eagerly, as 3.12 does: its first step runs at once in the caller's context (a body
that fits the socket's buffer is written there and the task is already done); if it has to
wait (a full buffer), the rest goes on in an ordinary task. Unlike 3.12's eager tasks, the
first step runs as part of the caller's task (``asyncio.current_task()`` is the caller's),
so only a coroutine that neither asks for its task nor sets a timeout on it may be started
so; aiohttp's writer does neither (it writes, signals its trace and arms the protocol's read
timeout). Every other coroutine becomes an ordinary task exactly as without a factory.
Nothing is installed on 3.12 and later, or when the loop has a task factory already, or
when aiohttp has no such writer.
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
import types
from collections.abc import Coroutine, Generator
from typing import Any, TypeVar

import aiohttp

T = TypeVar("T")


def _body_writer_code() -> types.CodeType | None:
    writer = getattr(aiohttp.ClientRequest, "write_bytes", None)
    return getattr(writer, "__code__", None)


def write_bodies_at_once(loop: asyncio.AbstractEventLoop) -> bool:
    """Install the eager start of aiohttp's body writer on ``loop`` where Python does not
    already have it; True if installed."""
    code = _body_writer_code()
    if sys.version_info >= (3, 12) or code is None or loop.get_task_factory() is not None:
        return False
    loop.set_task_factory(EagerStart({code}))
    return True


class EagerStart:
    """A task factory that runs the first step of the coroutines of ``codes`` at once."""

    def __init__(self, codes: set[types.CodeType]) -> None:
        self.codes = codes

    def __call__(
        self,
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, T] | Generator[Any, None, T],
        /,
        context: contextvars.Context | None = None,
    ) -> asyncio.Future[T]:
        if getattr(coro, "cr_code", None) not in self.codes:
            return asyncio.Task(coro, loop=loop, context=context)
        context = context if context is not None else contextvars.copy_context()
        finished: asyncio.Future[T] = loop.create_future()
        try:
            waiting_on = context.run(coro.send, None)
        except StopIteration as done:  # the usual case: written at once
            finished.set_result(done.value)
            return finished
        except Exception as error:  # noqa: BLE001 - kept on the future, as a task would
            finished.set_exception(error)
            return finished
        return asyncio.Task(_going_on(coro, waiting_on), loop=loop, context=context)


async def _going_on(coro: Coroutine[Any, Any, T] | Generator[Any, None, T], waiting_on: Any) -> T:
    return await _rest(coro, waiting_on)


@types.coroutine
def _rest(coro: Coroutine[Any, Any, T] | Generator[Any, None, T], waiting_on: Any) -> Generator[Any, Any, T]:
    """The rest of a coroutine whose first step has run and yielded ``waiting_on``: what the
    task sends or throws goes on to it (``yield from`` once it has started)."""
    while True:
        try:
            sent = yield waiting_on
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as error:  # noqa: BLE001 - a cancellation, handed on
            try:
                waiting_on = coro.throw(error)
            except StopIteration as done:
                return done.value
        else:
            try:
                waiting_on = coro.send(sent)
            except StopIteration as done:
                return done.value
