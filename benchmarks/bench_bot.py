"""Whole-bot move latency: people pressing moves at once, through the real discord.py client
against the loopback fake Discord (tests/fakediscord), with SQLite persistence.

For 1, 16 and 64 players moving at once (two-player King and Crown tourney matches, one per
channel; one player alone faces an AI seat), every player sends ``/move`` for a legal move in
the same instant, round after round; a move's latency is from the interaction's dispatch to
the bot's answer (the move committed, the private hand with its picture sent). Baseline, in
the same run: the same moves through the service alone (no Discord). Not a timed test.

    .venv/bin/python benchmarks/bench_bot.py [--rounds 3] [--breakdown]

``--breakdown`` runs the 64-player case once more under ``cProfile`` and prints where the
event loop's time goes, by layer (the fake Discord server, discord.py, HTTP, the UI, the
service, the engines, pictures, the database, the event loop itself). SQLite's own work runs in
aiosqlite's thread and is not in the profile; its share is the database row's waiting time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import KingBot
from bot.service import MatchService
from bot.settings import Settings
from db.repository import Repository
from tests.e2e_support import World, acknowledged, fire_command, open_match
from tests.fakediscord import FakeDiscord


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


async def through_discord(players: int, rounds: int) -> list[float]:
    tmp = Path(tempfile.mkdtemp())
    latencies: list[float] = []
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        users = [fake.add_user(f"p{i}") for i in range(max(players, 2))]
        bot = KingBot(Settings(token=fake.token, database_url=f"sqlite:///{tmp / 'bot.db'}", ai_delay=0, sync_commands=True, table_edit_seconds=0))
        async with fake.bot_running(bot) as client:
            kb: KingBot = client  # type: ignore[assignment]
            kb.service.default_turn_seconds = 0
            tables = []
            pairs = [(users[0], None)] if players == 1 else [(users[i], users[i + 1]) for i in range(0, players, 2)]
            for n, (a, b) in enumerate(pairs):
                channel = fake.add_channel(guild, f"t{n}")
                world = World(fake, guild, channel, users, "", tmp)
                tables.append((channel, await open_match(world, a, [b] if b else [], options={"variant": "tourney"}, ais=0 if b else 1, channel=channel)))
            fake.quiet, fake.busy_quiet = 0.005, 0.02
            for _ in range(rounds):
                await fake.settle()
                batch = []
                for (channel, _table), (a, b) in zip(tables, pairs):
                    snap = await kb.service.active_in_channel(channel.id)
                    if snap is None:
                        continue
                    for user in (a, b):
                        if user is None:
                            continue
                        seat = snap.seat_of(user.id)
                        moves = snap.legal_moves(seat) if seat is not None else []
                        if moves:
                            batch.append(fire_command(fake, user, channel, "move", [{"name": "move", "type": 3, "value": moves[0].code}]))
                await acknowledged(fake, batch, 60)
                latencies.extend(r.elapsed * 1000 for r in batch if r.elapsed is not None)
    return latencies


async def through_service(players: int, rounds: int) -> list[float]:
    tmp = Path(tempfile.mkdtemp())
    repo = Repository(f"sqlite:///{tmp / 'svc.db'}")
    await repo.migrate()
    svc = MatchService(repo, ai_delay=0, default_turn_seconds=0)
    matches = []
    for n in range(max(1, players // 2)):
        m = await svc.open_lobby(guild_id=1, channel_id=100 + n, host_id=2 * n + 1, host_name="a", game_id="crown", options={"variant": "tourney"})
        if players == 1:
            await svc.add_ai(m.id, 2 * n + 1)
        else:
            await svc.join(m.id, 2 * n + 2, "b")
        matches.append(await svc.start(m.id, 2 * n + 1))
    latencies: list[float] = []

    async def one(match_id: int, user: int) -> None:
        snap = await svc.get(match_id)
        seat = snap.seat_of(user)
        moves = snap.legal_moves(seat) if seat is not None else []
        if not moves:
            return
        start = time.perf_counter()
        await svc.play(match_id, user, moves[0])
        latencies.append((time.perf_counter() - start) * 1000)

    for _ in range(rounds):
        await svc.settle()
        await asyncio.gather(*(one(m.id, u) for m in matches for u in (m.seats[0].user_id, m.seats[1].user_id) if u))
    await svc.close()
    await repo.close()
    return latencies


LAYERS = (  # (name, fragments of a function's file or name); the first that matches wins
    ("idle: the loop waiting for sockets or worker threads", ("select.epoll",)),
    ("handing work to threads (database, pictures)", ("_queue.SimpleQueue", "concurrent/futures")),
    ("fake Discord server (test harness)", ("tests/fakediscord", "tests/e2e_support")),
    ("discord.py: gateway, parsing, models", ("site-packages/discord/",)),
    ("HTTP and websockets (aiohttp, sockets)", ("aiohttp", "yarl", "multidict", "frozenlist", "_socket.socket", "ssl")),
    ("bot UI: text, components, tables", ("bot/ui/", "cogs/")),
    ("service: locks, caches, timers", ("bot/service/",)),
    ("game engines", ("bot/games/",)),
    ("pictures (Pillow)", ("bot/images/", "PIL")),
    ("database (SQLAlchemy, aiosqlite)", ("sqlalchemy", "aiosqlite", "db/", "sqlite3")),
    ("JSON", ("json", "orjson")),
    ("asyncio event loop", ("asyncio",)),
)


def breakdown(profile: cProfile.Profile) -> list[tuple[str, float]]:
    """Self time per layer, in seconds, largest first."""
    totals: dict[str, float] = {}
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    for (filename, _line, function), (_cc, _nc, tottime, _ct, _callers) in stats.items():
        where = f"{filename} {function}"
        layer = next((name for name, parts in LAYERS if any(p in where for p in parts)), "other (Python, built-ins)")
        totals[layer] = totals.get(layer, 0.0) + tottime
    return sorted(totals.items(), key=lambda kv: -kv[1])


async def main(rounds: int) -> None:
    print("| players at once | moves | p50 ms | p99 ms | max ms | service alone p50 / p99 ms | ratio p99 |")
    print("|---|---|---|---|---|---|---|")
    for players in (1, 16, 64):
        bot = await through_discord(players, rounds)
        base = await through_service(players, rounds)
        ratio = pct(bot, 0.99) / max(pct(base, 0.99), 1e-9)
        print(
            f"| {players} | {len(bot)} | {statistics.median(bot):.1f} | {pct(bot, 0.99):.1f} | {max(bot):.1f} | "
            f"{statistics.median(base):.1f} / {pct(base, 0.99):.1f} | {ratio:.1f}x |",
            flush=True,
        )


async def profiled(rounds: int) -> None:
    profile = cProfile.Profile()
    profile.enable()
    await through_discord(64, rounds)
    profile.disable()
    rows = breakdown(profile)
    total = sum(t for _n, t in rows)
    print("\n| where the time goes, 64 players at once | seconds | share |")
    print("|---|---|---|")
    for name, t in rows:
        print(f"| {name} | {t:.2f} | {100 * t / total:.0f}% |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--breakdown", action="store_true", help="profile the 64-player case by layer")
    args = parser.parse_args()
    asyncio.run(main(args.rounds))
    if args.breakdown:
        asyncio.run(profiled(args.rounds))
