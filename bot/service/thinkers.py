"""Hard AI searches in worker processes, so that a thinking AI never slows anyone's answer.

A search (:func:`bot.games.search.search_move`) is pure Python for most of its 0.8 s. In a
thread of the bot's process it holds the GIL, which the event loop must take back every time
it wakes: the loop then waits up to the switch interval (5 ms) for each wake-up, several a
move. Measured (a loop that wakes every 2 ms, while searches ran in threads of the same
process; the slow CPU of 2026-11-27): no search, p50 0.17 ms late; one search, p50 5.5 ms and
p99 10.9 ms; two, 9.6 and 64 ms; four, 22 and 93 ms. Every player of the process felt every
hard AI seat that was thinking anywhere.

So the bot searches in a pool of worker processes (``AI_PROCESSES``). A worker gets the
game's id and the state as the engine dumps it, and the time the search must end by (the
monotonic clock is the machine's, the same in every process); it sends back the search's
result. What a worker runs is in :mod:`bot.worker`, which imports the games and nothing else
of the bot (a worker holds about 15 MB of its own once it has searched). Workers run at a
lower priority than the bot (``bot.worker.NICENESS``): when the CPU is short, answers come
before thinking.

There are at least four workers (:func:`default_workers`), more than the cores of a small
machine: hard seats thinking at once each get a share of the CPU for their whole time, rather
than queueing. A search that waits for a worker gets only what is left of its time, so when
more think at once than there are workers, the later ones play the game's own AI's choice
(the normal level), never a longer pause. A result that has not come back ``WAIT_GRACE``
(0.1 s, its way back from the worker) after the search's end (every worker busy, none
started yet, a worker starved of the CPU), a worker that died or any other failure of this
path gives the game AI's choice too: the move is made by its deadline, and a hard seat never
stalls. (A grace of 2 s let a hard seat's pause reach 2.8 s with all workers busy.)

The pool is started once a process, at the first search or by :func:`start` (``python -m
bot`` calls it at start-up, so that the first hard move does not wait for a worker to start,
and :func:`shutdown` at its end). Its workers start from a fresh interpreter
(:func:`_context`), not forked from a process that runs threads, and each ends when the bot's
process ends, however it ends.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import worker
from bot.games.base import Game
from bot.games.search import SearchResult, level_move

log = logging.getLogger(__name__)
MIN_WORKERS = 4  # hard seats that think at once at full time, however few the cores
WAIT_GRACE = 0.1  # seconds past a search's deadline its result is waited for at most (its way back)
_pools: dict[int, ProcessPoolExecutor] = {}  # workers -> the process's pool of that size


def default_workers() -> int:
    """One fewer than the machine's cores (the event loop keeps a core), and at least
    ``MIN_WORKERS``: searches past the cores share them, each with fewer rollouts in the same
    time, where waiting for a worker would leave a search no time at all."""
    return max(MIN_WORKERS, (os.cpu_count() or 2) - 1)


def _pool(workers: int) -> ProcessPoolExecutor:
    pool = _pools.get(workers)
    if pool is None:
        pool = _pools[workers] = ProcessPoolExecutor(workers, mp_context=_context(), initializer=worker.ready)
    return pool


def _context() -> multiprocessing.context.BaseContext:
    """Workers forked from a fresh server process that has imported :mod:`bot.worker` and the
    games (``forkserver``); where there is none (Windows), started fresh (``spawn``). Both start
    from a new interpreter, never forked from the bot's threads. As always with these, each
    worker imports the main module again (as ``__mp_main__``): ``python -m bot`` is guarded,
    and a script that runs the bot must be too (``if __name__ == "__main__":``), or its
    workers run it again and the hard seats play the game AI's choice (``WAIT_GRACE``)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bot.worker"])
        return context
    return multiprocessing.get_context("spawn")


def start(workers: int) -> None:
    """Start the pool's workers now (they import the games), without waiting for them."""
    pool = _pool(workers)
    for _ in range(workers):
        pool.submit(worker.started)


def shutdown() -> None:
    """Stop every pool of this process; a search under way ends at its deadline."""
    for pool in _pools.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _pools.clear()


async def search(
    workers: int,
    game: Game[Any],
    state: Any,
    seat: int,
    seed: int,
    rollouts: int,
    deadline: float,
    moves: int | None = None,
) -> SearchResult:
    """``search_move`` for ``seat`` in a worker process of the pool of ``workers``, stopped
    at ``deadline`` (``time.monotonic()``); the same move as in this process for the same
    seed, rollouts and moves."""
    loop = asyncio.get_running_loop()
    pool = _pool(workers)
    try:
        waited = loop.run_in_executor(
            pool, worker.search, game.id, game.dump(state), seat, seed, rollouts, deadline, moves
        )
        return await asyncio.wait_for(waited, max(0.0, deadline - time.monotonic()) + WAIT_GRACE)
    except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool next time
        log.warning("a hard AI worker process ended abruptly; the next search starts a fresh pool")
        if _pools.get(workers) is pool:
            del _pools[workers]
    except TimeoutError:  # no worker free or started in time: not worth waiting for any longer
        log.warning(
            "no hard AI worker answered within %.1f s of the search's end; playing the game AI's choice",
            WAIT_GRACE,
        )
    except Exception:  # a worker that could not start, a search that failed: the seat still moves
        log.exception("a hard AI search in a worker process failed; playing the game AI's choice")
    return SearchResult(
        level_move(game, state, seat, "normal", seed), 0, 0, {}
    )  # this move: the normal level's, at once
