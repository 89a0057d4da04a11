"""Move latency through the service and SQLite under concurrent players (no Discord).

64 players in 32 two-player tourney matches pick their cards at the same moment, round after
round; every pick is one transaction. The same load runs twice in one process: with the
bot's design (one writer connection) and with a pool of 8 writer connections on the same
file (the baseline), and prints p50/p99 and the ratio.

    .venv/bin/python benchmarks/bench_moves.py [--players 64] [--rounds 5] [--postgres]

``--postgres`` runs the bot's design once more on a real PostgreSQL server started from the
machine's binaries (as the tests do, ``tests/postgres.py``) and prints it beside SQLite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event
from sqlalchemy.ext.asyncio import create_async_engine

from bot.service import MatchService
from db import repository as repository_module
from db.repository import Repository


class _NoLock(contextlib.AbstractAsyncContextManager):
    async def __aexit__(self, *exc: object) -> None:
        return None


def pooled(repo: Repository) -> Repository:
    """The baseline: several writer connections on one SQLite file, no write lock."""
    repo.writer = create_async_engine(repo.url, pool_size=8, max_overflow=0)
    event.listen(repo.writer.sync_engine, "connect", repository_module._sqlite_pragmas)
    repo._write_lock = _NoLock()  # type: ignore[assignment]
    return repo


async def run(players: int, rounds: int, baseline: bool, url: str | None = None) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repository(url or f"sqlite:///{tmp}/bench.db")
        await repo.migrate()
        if baseline:
            repo = pooled(repo)
        svc = MatchService(repo, ai_delay=0)
        matches = []
        for i in range(players // 2):
            a, b = 1000 + 2 * i, 1001 + 2 * i
            m = await svc.open_lobby(guild_id=1, channel_id=10 + i, host_id=a, host_name=f"p{a}", game_id="crown",
                                     options={"variant": "tourney"})
            await svc.join(m.id, b, f"p{b}")
            await svc.start(m.id, a)
            matches.append((m.id, a, b))
        latencies: list[float] = []

        async def pick(match_id: int, user: int, card: str) -> None:
            start = time.perf_counter()
            while True:
                try:
                    await svc.play(match_id, user, f"pick:{card}")
                    break
                except Exception as err:  # the baseline may see "database is locked"
                    if "locked" not in str(err):
                        raise
                    await asyncio.sleep(0.001)
            latencies.append(time.perf_counter() - start)

        for card in "KDNWB"[:rounds]:
            await asyncio.gather(*(pick(mid, u, card) for mid, a, b in matches for u in (a, b)))
        await svc.close()
        await repo.close()
        return latencies


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--postgres", action="store_true", help="also on a real PostgreSQL server")
    args = parser.parse_args()
    ours = asyncio.run(run(args.players, args.rounds, baseline=False))
    base = asyncio.run(run(args.players, args.rounds, baseline=True))
    print(f"moves: {len(ours)} by {args.players} concurrent players")
    print(f"{'':22}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}")
    for name, xs in (("one writer (bot)", ours), ("8 writers (baseline)", base)):
        print(f"{name:22}{pct(xs, .5):10.1f}{pct(xs, .99):10.1f}{statistics.mean(xs) * 1000:10.1f}")
    print(f"ratio baseline/bot at p99: {pct(base, .99) / pct(ours, .99):.2f}x")
    if args.postgres:
        from tests.postgres import PostgresServer

        server = PostgresServer()
        try:
            pg = asyncio.run(run(args.players, args.rounds, baseline=False, url=server.database()))
        finally:
            server.stop()
        name = "PostgreSQL (bot)"
        print(f"{name:22}{pct(pg, .5):10.1f}{pct(pg, .99):10.1f}{statistics.mean(pg) * 1000:10.1f}")
        print(f"ratio PostgreSQL/SQLite at p99: {pct(pg, .99) / pct(ours, .99):.2f}x")


if __name__ == "__main__":
    main()
