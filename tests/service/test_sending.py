"""An answer's bytes leave when it is handed over: aiohttp's body writer starts eagerly on
the bot's loop (``bot/sending.py``), as it does by itself on Python 3.12 and later."""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.sending import EagerStart, write_bodies_at_once

pytestmark = pytest.mark.asyncio

seen: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="none")


async def steps(log: list[str], gate: asyncio.Future[None] | None = None) -> str:
    log.append(f"first step in {seen.get()}")
    if gate is not None:
        try:
            await gate
        except asyncio.CancelledError:
            log.append("cancelled")
            raise
        log.append("second step")
        if gate.result() == "fail":
            raise ValueError("after the wait")
    return "done"


def eager_loop() -> asyncio.AbstractEventLoop:
    loop = asyncio.get_running_loop()
    loop.set_task_factory(EagerStart({steps.__code__}))
    return loop


async def test_the_first_step_runs_at_once_in_the_callers_context() -> None:
    loop, log = eager_loop(), []
    seen.set("the caller's")
    task = loop.create_task(steps(log))
    assert log == ["first step in the caller's"]  # before the loop ran anything else
    assert task.done() and task.result() == "done"


async def test_a_coroutine_that_waits_goes_on_in_a_task() -> None:
    loop, log = eager_loop(), []
    gate: asyncio.Future[Any] = loop.create_future()
    task = loop.create_task(steps(log, gate))
    assert log == ["first step in none"] and not task.done()
    gate.set_result("go")
    assert await task == "done"
    assert log == ["first step in none", "second step"]


async def test_an_error_after_the_wait_reaches_whoever_awaits_the_task() -> None:
    loop, log = eager_loop(), []
    gate: asyncio.Future[Any] = loop.create_future()
    task = loop.create_task(steps(log, gate))
    gate.set_result("fail")
    with pytest.raises(ValueError, match="after the wait"):
        await task


async def test_cancelling_the_task_cancels_the_coroutine_where_it_waits() -> None:
    loop, log = eager_loop(), []
    gate: asyncio.Future[Any] = loop.create_future()
    task = loop.create_task(steps(log, gate))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert log == ["first step in none", "cancelled"] and task.cancelled()


async def test_every_other_coroutine_is_an_ordinary_task() -> None:
    loop, log = eager_loop(), []

    async def other() -> None:
        log.append("other")

    task = loop.create_task(other(), name="named")
    assert log == [] and isinstance(task, asyncio.Task) and task.get_name() == "named"
    await task
    assert log == ["other"]


@pytest.fixture
async def server() -> AsyncIterator[str]:
    async def echo(request: web.Request) -> web.Response:
        return web.Response(body=await request.read())

    app = web.Application()
    app.router.add_post("/callback", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield f"http://127.0.0.1:{port}/callback"
    await runner.cleanup()


async def test_a_requests_body_is_written_before_the_loop_runs_the_next_ready_task(server: str) -> None:
    """What the bot's loop gets: with many commands ready at once, each answer's bytes reach
    the socket in the step that hands it over, not after the other commands have run."""
    installed = write_bodies_at_once(asyncio.get_running_loop())
    assert installed == (sys.version_info < (3, 12))  # 3.12 and later do it by themselves
    order: list[str] = []

    async def body_sent(_session: Any, _context: Any, _params: Any) -> None:
        order.append("body written")

    trace = aiohttp.TraceConfig()
    trace.on_request_chunk_sent.append(body_sent)
    async with aiohttp.ClientSession(trace_configs=[trace]) as session:
        async with session.post(server, data=b"warm") as response:  # a pooled connection, as the bot has
            assert await response.read() == b"warm"
        order.clear()

        async def answer() -> bytes:
            async with session.post(server, data=b"an answer") as response:
                return await response.read()

        async def next_command() -> None:
            order.append("the next command")

        answered = asyncio.create_task(answer())
        await asyncio.gather(answered, asyncio.create_task(next_command()))
    assert answered.result() == b"an answer"
    assert order == ["body written", "the next command"]


async def test_nothing_is_installed_over_another_task_factory() -> None:
    loop = asyncio.get_running_loop()
    mine = EagerStart(set())
    loop.set_task_factory(mine)
    assert not write_bodies_at_once(loop) and loop.get_task_factory() is mine
