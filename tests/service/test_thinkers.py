"""The hard AI thinks in worker processes (``bot.service.thinkers``), not in a thread that
would hold the GIL against the event loop: the same search there as here, its deadline kept
across processes, the service using it, and its setting."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot import worker
from bot.games import EXAMPLES, GAMES
from bot.games.search import search_move
from bot.service import MatchService, ai_seats, thinkers
from bot.settings import Settings
from db.repository import Repository
from tests.service.test_service import HOST, lobby, wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_id,players", [("dynasty", 3), ("four", 4), ("court", 4), ("highcard", 2)])
async def test_a_search_in_a_worker_process_is_the_search_here(game_id: str, players: int) -> None:
    """The worker gets the state as the engine dumps it and the seed: for the same number of
    rollouts it plays the same rounds and chooses the same move as this process (the example
    game too, which the test suites host like a registered one)."""
    game = GAMES.get(game_id) or EXAMPLES[game_id]
    state = game.setup(players, 11, {})
    seat = min(game.to_act(state))
    here = search_move(game, state, seat, 99, 24)
    there = await thinkers.search(1, game, state, seat, 99, 24, time.monotonic() + 120)
    assert (there.move, there.rounds, there.rollouts, there.values) == (
        here.move,
        here.rounds,
        here.rollouts,
        here.values,
    )
    assert there.rollouts > 0


async def test_a_search_that_finds_its_deadline_passed_plays_the_game_ai_choice() -> None:
    """A search waiting for a busy worker gets only what is left of its time: none left,
    the game's own AI's choice (the normal level), at once, never a longer pause."""
    game = GAMES["dynasty"]
    state = game.setup(3, 11, {})
    seat = min(game.to_act(state))
    late = await thinkers.search(1, game, state, seat, 99, 24, time.monotonic() - 1)
    assert late.rollouts == 0 and late.values == {}
    assert late.move.code in {m.code for m in game.legal_moves(state, seat)}


async def test_a_pool_whose_worker_died_gives_the_game_ai_choice_then_a_fresh_pool() -> None:
    """A worker killed (out of memory, by hand) breaks its pool: that move is the game's AI
    choice at once, and the next search runs in a new pool, so an AI seat never stalls."""
    game = GAMES["dynasty"]
    state = game.setup(3, 11, {})
    seat = min(game.to_act(state))
    broken = thinkers._pool(1)
    with pytest.raises(BrokenProcessPool):
        await asyncio.wrap_future(broken.submit(os._exit, 1))
    now = await thinkers.search(1, game, state, seat, 99, 24, time.monotonic() + 120)
    assert now.rollouts == 0 and now.move.code in {m.code for m in game.legal_moves(state, seat)}
    assert thinkers._pool(1) is not broken
    later = await thinkers.search(1, game, state, seat, 99, 24, time.monotonic() + 120)
    assert later == search_move(game, state, seat, 99, 24)


async def test_a_search_no_worker_takes_in_time_plays_the_game_ai_choice() -> None:
    """Every worker busy (or none started) past the search's end and ``WAIT_GRACE``: the
    result is not waited for any longer, and the seat plays the game AI's choice."""
    game = GAMES["dynasty"]
    state = game.setup(3, 11, {})
    seat = min(game.to_act(state))
    busy = thinkers._pool(2)  # a pool of its own, so no other test waits behind it
    for _ in range(2):
        busy.submit(time.sleep, thinkers.WAIT_GRACE + 3)
    started = time.monotonic()
    waited = await thinkers.search(2, game, state, seat, 99, 24, started + 0.1)
    assert waited.rollouts == 0 and waited.move.code in {m.code for m in game.legal_moves(state, seat)}
    assert time.monotonic() - started < thinkers.WAIT_GRACE + 3, "it did not wait for a worker to come free"


async def test_a_hard_move_is_made_by_its_deadline_when_every_worker_is_busy() -> None:
    """Issue 47: the search's deadline is the AI's (``AI_THINK``): with every worker busy the
    seat plays the normal level's choice by then, not up to 2 s later (``WAIT_GRACE`` was
    2.0: a hard AI's pause reached 2.8 s while others searched)."""
    game = GAMES["dynasty"]
    state = game.setup(3, 11, {})
    seat = min(game.to_act(state))
    busy = thinkers._pool(3)  # a pool of its own, so no other test waits behind it
    for _ in range(3):
        busy.submit(time.sleep, 4)
    started = time.monotonic()
    waited = await thinkers.search(3, game, state, seat, 99, 24, started + 0.3)
    took = time.monotonic() - started
    assert waited.rollouts == 0 and waited.move.code in {m.code for m in game.legal_moves(state, seat)}
    assert took < 0.3 + 0.5, f"the move came {took - 0.3:.2f} s after its deadline"


async def test_a_worker_carries_the_games_and_nothing_of_the_bot_around_them() -> None:
    """What a worker runs is in ``bot.worker``, which imports only the games: no worker
    imports the service, the database or discord.py (with its task named in
    ``bot.service.thinkers``, each worker imported the service package: about 40 MB more)."""
    modules = await asyncio.wrap_future(thinkers._pool(1).submit(eval, "sorted(__import__('sys').modules)"))
    assert "bot.worker" in modules and "bot.games.search" in modules
    heavy = ("bot.service", "bot.ui", "db", "sqlalchemy", "sqlmodel", "discord", "aiohttp", "PIL")
    assert [m for m in modules if m.startswith(heavy)] == []


async def test_searches_beyond_the_cores_share_them_instead_of_waiting() -> None:
    """As many searches as the pool has workers think at once, even past the machine's cores:
    each gets a share of the CPU for its whole time (fewer rollouts, the same pause), where a
    search that waited for a worker found its time spent and played the normal level."""
    game = GAMES["dynasty"]
    state = game.setup(3, 11, {})
    seat = min(game.to_act(state))
    workers = thinkers.default_workers()
    assert workers >= 4
    thinkers.start(workers)
    pool, seen = thinkers._pool(workers), set()
    while len(seen) < workers:  # every worker started (each holds a job a moment, so all take one)
        held = "__import__('time').sleep(0.2) or __import__('os').getpid()"
        seen |= set(
            await asyncio.gather(*(asyncio.wrap_future(pool.submit(eval, held)) for _ in range(workers)))
        )
    deadline = time.monotonic() + 3.0  # a share of a busy machine's cores: a rollout may take long
    results = await asyncio.gather(
        *(thinkers.search(workers, game, state, seat, n, 100_000, deadline) for n in range(workers))
    )
    assert all(r.rollouts > 0 for r in results), [r.rollouts for r in results]


@pytest.mark.skipif(not hasattr(os, "nice"), reason="niceness is POSIX")
async def test_a_worker_runs_below_the_bot() -> None:
    """Answers first: the machine gives the bot's process the CPU before its AI's thinking."""
    niceness = await asyncio.wrap_future(thinkers._pool(1).submit(os.nice, 0))
    assert niceness >= min(19, os.nice(0) + worker.NICENESS)


async def test_the_service_searches_in_a_worker_process_when_it_has_some(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``ai_processes`` the hard seat's move comes from the pool; the thread's search is
    never called."""

    def in_a_thread(*_args: object) -> None:
        raise AssertionError("the hard AI searched in a thread of the bot's process")

    monkeypatch.setattr(ai_seats, "search_move", in_a_thread)
    repo = Repository(f"sqlite:///{tmp_path / 'bot.db'}")
    await repo.migrate()
    svc = MatchService(repo, ai_delay=0, ai_think=0.3, ai_processes=1)
    try:
        m = await lobby(svc, "tourney")
        await svc.add_ai(m.id, HOST, level="hard")
        m = await svc.start(m.id, HOST)

        async def ai_picked() -> bool:
            return bool((await svc.get(m.id)).state.chosen[1])

        await wait_for(ai_picked, timeout=30)
        assert len(await repo.moves(m.id)) == 1  # the AI's pick; the host has not picked yet
    finally:
        await svc.close()
        await repo.close()


def test_the_number_of_worker_processes_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.delenv("AI_PROCESSES", raising=False)
    assert Settings.from_env(load_dotenv_file=False).ai_processes == thinkers.default_workers() >= 1
    monkeypatch.setenv("AI_PROCESSES", "0")  # a worker thread, as before
    assert Settings.from_env(load_dotenv_file=False).ai_processes == 0
    monkeypatch.setenv("AI_PROCESSES", "3")
    assert Settings.from_env(load_dotenv_file=False).ai_processes == 3
    monkeypatch.setenv("AI_PROCESSES", "many")
    with pytest.raises(SystemExit, match="AI_PROCESSES"):
        Settings.from_env(load_dotenv_file=False)


def test_the_workers_end_with_a_killed_bot(tmp_path: Path) -> None:
    """A bot killed outright (no shutdown, no exit handlers) leaves no worker behind."""
    pids = tmp_path / "workers"
    script = textwrap.dedent(
        f"""
        import os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from bot.service import thinkers

        if __name__ == "__main__":
            thinkers.start(2)
            pool = thinkers._pool(2)
            found = [pool.submit(os.getpid).result(timeout=60) for _ in range(8)]
            open({str(pids)!r}, "w").write(" ".join(str(p) for p in set(found)))
            time.sleep(60)
        """
    )
    # stderr: the killed bot's resource tracker reports the semaphores it cleans up
    bot = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if pids.exists() and pids.read_text():
                break
            time.sleep(0.1)
        workers = [int(p) for p in pids.read_text().split()]
        assert workers and bot.pid not in workers
    finally:
        bot.kill()
        bot.wait()
    for _ in range(100):
        alive = [p for p in workers if _alive(p)]
        if not alive:
            return
        time.sleep(0.1)
    raise AssertionError(f"workers {alive} outlived the bot's process")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by init) counts as ended
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True
