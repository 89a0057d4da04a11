"""Restart benchmark: how long the bot's service takes to restore many running matches (load
each one, renew or re-arm its deadline, wake its AI seats) and the memory they hold, beside the
raw SQLite read of the same rows. Not a timed test.

    .venv/bin/python benchmarks/bench_restart.py [--matches 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import GAMES
from bot.service import MatchService
from db.repository import Repository


async def build(path: Path, count: int) -> None:
    """``count`` running matches (half King and Crown, half King's Dynasty), each a real state."""
    repo = Repository(f"sqlite:///{path}")
    await repo.migrate()
    await repo.close()
    now = time.time()
    rows = []
    for i in range(count):
        game = GAMES["crown" if i % 2 else "dynasty"]
        options = {o.key: o.default_value for o in game.options}
        state = game.dump(game.setup(2, i, options))
        seats = [
            {"user_id": 10_000 + 2 * i, "name": "a", "ai": False, "left": False, "missed": 0},
            {"user_id": None, "name": "AI 1", "ai": True, "left": False, "missed": 0},
        ]
        # As stored by a running bot: the turn deadline of the current version (3 minutes).
        deadline = {
            "version": 1,
            "turn": {"at": now + 180, "warn_at": now + 120, "warned": False, "seats": [0]},
        }
        rows.append(
            (
                1,
                1_000 + i,
                5_000 + i,
                10_000 + 2 * i,
                game.id,
                json.dumps(options),
                "running",
                json.dumps(seats),
                1,
                i,
                json.dumps(state),
                "{}",
                now + 120,
                json.dumps(deadline),
                now,
                now,
            )
        )
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO matches (guild_id, channel_id, message_id, host_id, game_id, options, status, seats, "
            "version, seed, state, notes, deadline_at, deadline, created_at, updated_at) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )


async def restore(path: Path, trace: bool) -> tuple[float, int, int, float]:
    """Seconds (timed without memory tracing, which slows Python down), matches, and with
    ``trace`` the peak memory traced while restoring, without it the seconds a full garbage
    collection over the restored matches takes (what freezing them spares the players). The
    timed restore is the one ``python -m bot`` runs (``freeze=True``)."""
    repo = Repository(f"sqlite:///{path}")
    await repo.migrate()
    service = MatchService(repo, ai_delay=3600)  # AI seats wake but wait: only the restore is timed
    gc.collect()  # the runs before leave no garbage for this one: a bot starts with little
    if trace:
        tracemalloc.start()
    start = time.perf_counter()
    snaps = await service.restore(freeze=not trace)
    seconds = time.perf_counter() - start
    peak, collecting = 0, 0.0
    if trace:
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    else:
        gc.unfreeze()
        start = time.perf_counter()
        gc.collect()
        collecting = time.perf_counter() - start
    await service.close()
    await repo.close()
    return seconds, len(snaps), peak, collecting


def raw_read(path: Path) -> float:
    start = time.perf_counter()
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT * FROM matches WHERE status IN ('lobby', 'running')").fetchall()
        for row in rows:
            json.loads(row[11])
    return time.perf_counter() - start


async def main(count: int, repeat: int) -> None:
    path = Path(tempfile.mkdtemp()) / "restart.db"
    await build(path, count)
    times, bases, collections = [], [], []
    for _ in range(repeat):  # alternating, so that both see the same moments of a shared machine
        seconds, restored, _, collecting = await restore(path, trace=False)
        times.append(seconds)
        collections.append(collecting)
        bases.append(raw_read(path))
    _, _, peak, _ = await restore(path, trace=True)
    seconds, base = statistics.median(times), statistics.median(bases)
    print(
        f"{restored} running matches restored and armed in {seconds:.2f} s, median of {repeat} "
        f"(from {min(times):.2f} to {max(times):.2f} s; {seconds / restored * 1e6:.0f} us a match); "
        f"peak memory while restoring (a further run, traced by tracemalloc) {peak / 2**20:.0f} MiB "
        f"({peak / restored / 1024:.1f} KiB a match); the restored matches frozen out of the garbage collector's way "
        f"(a full collection over them would take {statistics.median(collections) * 1000:.0f} ms)"
    )
    print(
        f"baseline: reading and parsing the same rows with sqlite3 alone: {base:.2f} s, median of {repeat}; "
        f"ratio {seconds / base:.1f}x"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5, help="timed restores (each beside a baseline read)")
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.repeat))
