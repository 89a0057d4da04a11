"""The per-move write against the physical limit: ``Repository.apply_move`` (the bot's one
writer; a move that finds it idle, as each of these does, is written at once on the event
loop, ``db.writer``) beside a raw ``sqlite3`` commit of the same rows in the same mode (WAL,
``synchronous=NORMAL``): the match row updated on its version, one move row inserted, one
commit per move. Moves one after another, so this is each write's own cost. The two run in
alternating rounds in one process, so both see the same load on a shared machine.

``--breakdown`` adds where the bot's time goes, each part measured on its own in the same
run: the hop from the event loop to the writer thread and back (an empty job: what a move
pays when the writer is busy), the JSON dumps, the write on the writer thread without the
hop, and the baseline's own work handed through the same hop.

    .venv/bin/python benchmarks/bench_write.py [--moves 2000] [--breakdown]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import GAMES
from db import sqlite_moves
from db.records import MatchRecord, MatchUpdate, Seat
from db.repository import Repository, dump_json
from db.writer import Checkpointer

ROUNDS = 10
NOTES = {"log": ["{p0} plays a card."] * 50}


def a_state() -> dict[str, object]:
    """A real King's Dynasty state, as the bot stores it (about 2 KB of JSON)."""
    game = GAMES["dynasty"]
    return game.dump(game.setup(4, 1, {o.key: o.default_value for o in game.options}))


class Bot:
    """A match on a migrated database, moved through ``Repository.apply_move``."""

    def __init__(self, repo: Repository, match: MatchRecord, state: dict[str, object]) -> None:
        self.repo, self.match, self.state, self.version = repo, match, state, match.version

    @staticmethod
    async def open(path: Path, state: dict[str, object]) -> Bot:
        repo = Repository(f"sqlite:///{path}")
        await repo.migrate()
        m = await repo.create_match(
            guild_id=1,
            channel_id=2,
            host_id=3,
            game_id="dynasty",
            options={},
            seats=[Seat(3, "a"), Seat(None, "AI", ai=True)],
            seed=1,
        )
        m = await repo.start_match(
            m.id, m.version, state=state, seats=m.seats, deadline_at=None, deadline=None
        )
        return Bot(repo, m, state)

    def update(self) -> MatchUpdate:
        return MatchUpdate(self.match.id, self.version, self.state, 0, 3, f"p:{self.version}", NOTES)

    async def moves(self, n: int) -> list[float]:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            rec = await self.repo.apply_move(self.update())
            times.append(time.perf_counter() - start)
            self.version = rec.version
        return times


class Raw:
    """The baseline: plain ``sqlite3``, two small tables, the same rows, one commit a move.
    With ``checkpointer``, its checkpoints run beside it as the bot's do (``db.writer``)."""

    def __init__(self, path: Path, state: dict[str, object], checkpointer: bool = False) -> None:
        self.conn = conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        self.checkpointer = Checkpointer(str(path)) if checkpointer else None
        if self.checkpointer is not None:
            conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute(
            "CREATE TABLE m (id INTEGER PRIMARY KEY, version INT, state TEXT, notes TEXT, status TEXT, "
            "deadline_at REAL, deadline TEXT, updated_at REAL)"
        )
        conn.execute(
            "CREATE TABLE mv (match_id INT, version INT, seat INT, user_id INT, code TEXT, created_at REAL, "
            "PRIMARY KEY (match_id, version))"
        )
        conn.execute("INSERT INTO m VALUES (1, 1, '{}', '{}', 'running', NULL, NULL, 0)")
        self.notes = json.dumps(NOTES, separators=(",", ":"), sort_keys=True)
        self.body = json.dumps(state, separators=(",", ":"), sort_keys=True)
        self.version = 1

    def move(self) -> None:
        conn, now = self.conn, time.time()
        conn.execute("BEGIN")
        cur = conn.execute(
            "UPDATE m SET version = version + 1, state = ?, notes = ?, status = 'running', deadline_at = NULL, "
            "deadline = NULL, updated_at = ? WHERE id = 1 AND version = ? RETURNING *",
            (self.body, self.notes, now, self.version),
        )
        cur.fetchall()
        conn.execute("INSERT INTO mv VALUES (1, ?, 0, 3, ?, ?)", (self.version + 1, f"p:{self.version}", now))
        conn.execute("COMMIT")
        self.version += 1
        if self.checkpointer is not None:
            self.checkpointer.wrote()

    def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.close()
        self.conn.close()

    def moves(self, n: int) -> list[float]:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            self.move()
            times.append(time.perf_counter() - start)
        return times


def timed(fn: Callable[[], Any], n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


async def timed_async(fn: Callable[[], Any], n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    return times


async def breakdown(bot: Bot, raw: Raw, n: int) -> dict[str, list[float]]:
    """The parts of the bot's write, each measured on its own."""
    writer = bot.repo.database.writer_thread
    assert writer is not None
    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(max_workers=1)
    upd = bot.update()

    def on_the_thread(conn: Any) -> list[float]:
        """Moves written by the bot's own code on the writer thread: no hop."""
        times = []
        for _ in range(n):
            start = time.perf_counter()
            u = bot.update()
            values = {
                "state": dump_json(u.state),
                "notes": dump_json(u.notes),
                "status": "running",
                "deadline_at": None,
                "deadline": None,
                "updated_at": time.time(),
            }
            rec = sqlite_moves.move_on_sqlite(u, values, values["updated_at"], conn)
            times.append(time.perf_counter() - start)
            bot.version = rec.version
        return times

    parts = {
        "hop: event loop -> writer thread -> back, an empty job": await timed_async(
            lambda: writer.run(lambda _conn: None), n
        ),
        "the same hop through run_in_executor (the design before)": await timed_async(
            lambda: loop.run_in_executor(executor, lambda: None), n
        ),
        "JSON dumps of the move (state, notes), on the event loop": timed(
            lambda: (dump_json(upd.state), dump_json(upd.notes)), n
        ),
        "the bot's write on the writer thread, no hop (dumps, SQL, commit, record)": await writer.run(
            on_the_thread
        ),
        "baseline's work handed through the same hop": await timed_async(
            lambda: writer.run(lambda _conn: raw.move()), n
        ),
    }
    executor.shutdown()
    return parts


def line(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    return (
        f"| {name} | {statistics.median(xs) * 1e6:.0f} | {xs[int(0.99 * len(xs))] * 1e6:.0f} "
        f"| {statistics.mean(xs) * 1e6:.0f} |"
    )


async def main(moves: int, show_breakdown: bool) -> None:
    state = a_state()
    with tempfile.TemporaryDirectory() as tmp:
        bot = await Bot.open(Path(tmp) / "bot.db", state)
        raw = Raw(Path(tmp) / "raw.db", state)
        raw_beside = Raw(Path(tmp) / "raw-beside.db", state, checkpointer=True)
        ours: list[float] = []
        base: list[float] = []
        base_beside: list[float] = []
        for _ in range(ROUNDS):  # alternating, so a change of load falls on all three
            ours += await bot.moves(moves // ROUNDS)
            base += raw.moves(moves // ROUNDS)
            base_beside += raw_beside.moves(moves // ROUNDS)
        parts = await breakdown(bot, raw, moves) if show_breakdown else {}
        await bot.repo.close()
        raw.close()
        raw_beside.close()
    print(
        f"{len(ours)} moves each, one after another, in {ROUNDS} alternating rounds, "
        f"a {len(json.dumps(state)) / 1024:.1f} KiB state"
    )
    print("| write | p50 us | p99 us | mean us |")
    print("|---|---|---|---|")
    print(line("Repository.apply_move (bot)", ours))
    print(line("raw sqlite3, same rows and mode (baseline)", base))
    print(line("raw sqlite3, its checkpoints on a thread beside it as the bot's", base_beside))
    for name, xs in parts.items():
        print(line(name, xs))
    print(
        f"ratio bot/raw: mean {statistics.mean(ours) / statistics.mean(base):.1f}x, "
        f"p50 {statistics.median(ours) / statistics.median(base):.1f}x (target: at most 2.5x)"
    )
    print(
        f"ratio bot/raw with checkpoints beside both: mean {statistics.mean(ours) / statistics.mean(base_beside):.1f}x, "
        f"p50 {statistics.median(ours) / statistics.median(base_beside):.1f}x"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument(
        "--breakdown", action="store_true", help="time the parts of the bot's write on their own"
    )
    args = parser.parse_args()
    asyncio.run(main(args.moves, args.breakdown))
