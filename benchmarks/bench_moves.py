"""Move latency through the service and SQLite under concurrent players (no Discord).

64 players in 32 two-player tourney matches pick their cards at the same moment, round after
round; every pick is one transaction. The same load runs three times in one process: with the
bot's design (one writer connection, a move's statements compiled once and run on its sqlite3
connection, at once on the event loop when the writer is idle, else on the writer's thread;
see ``db/writer.py``), with the design before it (the one writer through aiosqlite, a hop per
statement), and with a pool of 8 writer connections through aiosqlite (the first baseline);
it prints p50/p99 and the ratios.

    .venv/bin/python benchmarks/bench_moves.py [--players 64] [--rounds 5] [--postgres]

A pick's latency runs from the moment its round's picks are all sent (a pick that waits for
the event loop before it starts counts that wait).

``--postgres`` runs the bot's design once more on a real PostgreSQL server started from the
machine's binaries (as the tests do, ``tests/postgres.py``) and prints it beside SQLite.
``--thread`` runs the design before 2026-11-27 beside them: every move through the writer
thread (a hop from the event loop and back per transaction), the rest the same.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from bot.service import MatchService
from db import database as database_module
from db.repository import Repository
from db.writer import WriterThread


class _NoLock(contextlib.AbstractAsyncContextManager):
    async def __aexit__(self, *exc: object) -> None:
        return None


def pooled(repo: Repository) -> Repository:
    """The baseline: several writer connections on one SQLite file, no write lock."""
    repo.database.writer = create_async_engine(repo.url, pool_size=8, max_overflow=0)
    event.listen(repo.database.writer.sync_engine, "connect", database_module.sqlite_pragmas)
    repo.database.write_lock = _NoLock()  # type: ignore[assignment]
    repo.database.writer_thread = None  # through aiosqlite (the idle writer thread has no connection yet)
    return repo


def through_aiosqlite(repo: Repository) -> Repository:
    """The bot's design before: the one writer connection through aiosqlite, a thread hop
    for every statement."""
    repo.database.writer_thread = None
    return repo


class ThreadOnly:
    """The design before 2026-11-27: every write, moves too, hops to the writer thread and back,
    even when the writer is idle."""

    def __init__(self, writer: WriterThread) -> None:
        self.writer = writer

    async def run(self, job: Callable[[Connection], Any], *, inline: bool = False) -> Any:
        return await self.writer.run(job)

    async def close(self) -> None:
        await self.writer.close()


async def run(players: int, rounds: int, design: str = "bot", url: str | None = None) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repository(url or f"sqlite:///{tmp}/bench.db")
        await repo.migrate()
        if design == "pooled":
            repo = pooled(repo)
        elif design == "aiosqlite":
            repo = through_aiosqlite(repo)
        elif design == "thread":
            assert repo.database.writer_thread is not None
            repo.database.writer_thread = ThreadOnly(repo.database.writer_thread)  # type: ignore[assignment]
        svc = MatchService(repo, ai_delay=0)
        matches = []
        for i in range(players // 2):
            a, b = 1000 + 2 * i, 1001 + 2 * i
            m = await svc.open_lobby(
                guild_id=1,
                channel_id=10 + i,
                host_id=a,
                host_name=f"p{a}",
                game_id="crown",
                options={"variant": "tourney"},
            )
            await svc.join(m.id, b, f"p{b}")
            await svc.start(m.id, a)
            matches.append((m.id, a, b))
        latencies: list[float] = []

        async def pick(match_id: int, user: int, card: str, start: float) -> None:
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
            start = time.perf_counter()
            await asyncio.gather(*(pick(mid, u, card, start) for mid, a, b in matches for u in (a, b)))
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
    parser.add_argument(
        "--thread", action="store_true", help="also every move through the writer thread (the design before)"
    )
    args = parser.parse_args()
    ours = asyncio.run(run(args.players, args.rounds, "bot"))
    before = asyncio.run(run(args.players, args.rounds, "aiosqlite"))
    base = asyncio.run(run(args.players, args.rounds, "pooled"))
    print(f"moves: {len(ours)} by {args.players} concurrent players")
    print(f"{'':40}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}")
    rows = (
        ("one writer, plain sqlite3 (bot)", ours),
        ("one writer through aiosqlite (before)", before),
        ("8 writers through aiosqlite (baseline)", base),
    )
    for name, xs in rows:
        print(f"{name:40}{pct(xs, 0.5):10.1f}{pct(xs, 0.99):10.1f}{statistics.mean(xs) * 1000:10.1f}")
    print(
        f"ratio at p99: before/bot {pct(before, 0.99) / pct(ours, 0.99):.2f}x, baseline/bot {pct(base, 0.99) / pct(ours, 0.99):.2f}x"
    )
    if args.thread:
        thread = asyncio.run(run(args.players, args.rounds, "thread"))
        name = "every move through the thread (before)"
        print(
            f"{name:40}{pct(thread, 0.5):10.1f}{pct(thread, 0.99):10.1f}{statistics.mean(thread) * 1000:10.1f}"
        )
        print(
            f"ratio thread/bot: p50 {pct(thread, 0.5) / pct(ours, 0.5):.2f}x, p99 {pct(thread, 0.99) / pct(ours, 0.99):.2f}x"
        )
    if args.postgres:
        from tests.postgres import PostgresServer

        server = PostgresServer()
        try:
            pg = asyncio.run(run(args.players, args.rounds, "bot", url=server.database()))
        finally:
            server.stop()
        name = "PostgreSQL, asyncpg (bot)"
        print(f"{name:40}{pct(pg, 0.5):10.1f}{pct(pg, 0.99):10.1f}{statistics.mean(pg) * 1000:10.1f}")
        print(f"ratio PostgreSQL/SQLite at p99: {pct(pg, 0.99) / pct(ours, 0.99):.2f}x")


if __name__ == "__main__":
    main()
