"""The per-move write against the physical limit: ``Repository.apply_move`` (SQLAlchemy,
aiosqlite, the bot's one writer) beside a raw ``sqlite3`` commit of the same rows in the same
mode (WAL, ``synchronous=NORMAL``): the match row updated on its version, one move row
inserted, one commit per move. Moves one after another, so this is each write's own cost.

    .venv/bin/python benchmarks/bench_write.py [--moves 2000]
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import GAMES
from db.records import MatchUpdate, Seat
from db.repository import Repository


def a_state() -> dict[str, object]:
    """A real King's Dynasty state, as the bot stores it (about 4 KB of JSON)."""
    game = GAMES["dynasty"]
    return game.dump(game.setup(4, 1, {o.key: o.default_value for o in game.options}))


async def through_repository(path: Path, moves: int, state: dict[str, object]) -> list[float]:
    repo = Repository(f"sqlite:///{path}")
    await repo.migrate()
    m = await repo.create_match(guild_id=1, channel_id=2, host_id=3, game_id="dynasty", options={},
                                seats=[Seat(3, "a"), Seat(None, "AI", ai=True)], seed=1)
    m = await repo.start_match(m.id, m.version, state=state, seats=m.seats, deadline_at=None, deadline=None)
    notes = {"log": ["{p0} plays a card."] * 50}
    times = []
    version = m.version
    for i in range(moves):
        start = time.perf_counter()
        rec = await repo.apply_move(MatchUpdate(m.id, version, state, 0, 3, f"p:{i}", notes))
        times.append(time.perf_counter() - start)
        version = rec.version
    await repo.close()
    return times


def raw(path: Path, moves: int, state: dict[str, object]) -> list[float]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE m (id INTEGER PRIMARY KEY, version INT, state TEXT, notes TEXT, status TEXT, "
                 "deadline_at REAL, deadline TEXT, updated_at REAL)")
    conn.execute("CREATE TABLE mv (match_id INT, version INT, seat INT, user_id INT, code TEXT, created_at REAL, "
                 "PRIMARY KEY (match_id, version))")
    conn.execute("INSERT INTO m VALUES (1, 1, '{}', '{}', 'running', NULL, NULL, 0)")
    notes = json.dumps({"log": ["{p0} plays a card."] * 50}, separators=(",", ":"), sort_keys=True)
    body = json.dumps(state, separators=(",", ":"), sort_keys=True)
    times = []
    for i in range(moves):
        start = time.perf_counter()
        now = time.time()
        conn.execute("BEGIN")
        cur = conn.execute("UPDATE m SET version = version + 1, state = ?, notes = ?, status = 'running', deadline_at = NULL, "
                           "deadline = NULL, updated_at = ? WHERE id = 1 AND version = ? RETURNING *", (body, notes, now, i + 1))
        cur.fetchall()
        conn.execute("INSERT INTO mv VALUES (1, ?, 0, 3, ?, ?)", (i + 2, f"p:{i}", now))
        conn.execute("COMMIT")
        times.append(time.perf_counter() - start)
    conn.close()
    return times


def main(moves: int) -> None:
    state = a_state()
    with tempfile.TemporaryDirectory() as tmp:
        ours = asyncio.run(through_repository(Path(tmp) / "bot.db", moves, state))
        base = raw(Path(tmp) / "raw.db", moves, state)
    def line(name: str, xs: list[float]) -> str:
        xs = sorted(xs)
        return f"| {name} | {statistics.median(xs) * 1e6:.0f} | {xs[int(0.99 * len(xs))] * 1e6:.0f} | {statistics.mean(xs) * 1e6:.0f} |"
    print(f"{moves} moves, one after another, a {len(json.dumps(state)) / 1024:.1f} KiB state each")
    print("| write | p50 us | p99 us | mean us |")
    print("|---|---|---|---|")
    print(line("Repository.apply_move (bot)", ours))
    print(line("raw sqlite3, same rows and mode (baseline)", base))
    print(f"ratio bot/raw, mean: {statistics.mean(ours) / statistics.mean(base):.1f}x (target: at most 2.5x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=2000)
    main(parser.parse_args().moves)
