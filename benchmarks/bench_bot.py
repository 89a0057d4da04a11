"""Whole-bot move latency: people pressing moves at once, through the real discord.py client
against the loopback fake Discord (tests/fakediscord), with SQLite persistence.

For 1, 16 and 64 players moving at once (two-player King and Crown tourney matches, one per
channel; one player alone faces an AI seat), every player sends ``/move`` for a legal move in
the same instant, round after round.

The bot runs in a process of its own, started as a host starts it (``python -m bot``'s
``run()``: settings from the environment, INFO logging, production pacing: AI seats wait
``AI_DELAY`` = 0.8 s, a table is edited at most once a second, turn timers of 3 minutes), so
that its process holds only the bot's own work; the fake Discord (HTTP server, gateway, JSON,
message store) runs in this process, as Discord runs elsewhere. ``--in-process`` runs both in
one event loop instead (the fake's work then competes with the bot's).

Latency of a move: from the moment the fake Discord sends the ``INTERACTION_CREATE`` on the
gateway to the moment it receives the bot's interaction callback (``POST
/interactions/{id}/{token}/callback``), which carries the answer the player sees: the move
played and their private hand (text and buttons). The hand's picture follows by an edit of
that message; its column is from the same dispatch to that edit. The players' moves are the
first of the legal moves the bot's own ``/move`` autocomplete offers them (asked before the
round, not timed). "Bot CPU a move" is the CPU time of the bot's process (every thread: the
event loop, the SQLite writer, pictures), from each batch of moves until the bot is quiet
again (the tables, pictures, pings and AI replies the moves cause), divided by the moves; it
is read from /proc in clock ticks (10 ms), so it is coarse for the one-player case, and it
depends far less than the latencies on what else the machine runs. "Fake Discord CPU a
move" is this process's CPU in the same windows (the fake's HTTP server, gateway and message
store, and its polling while it waits for the bot to go quiet, which is most of it for one
player alone; with ``--in-process`` the bot's too): on this machine the fake shares the
cores with the bot, where Discord's servers would not. Two baselines, in the
same run: **the floor**, the same rounds of ``/move`` against a bot that only answers (its
own process, discord.py's client and command tree, an ephemeral embed with three buttons; no
game, service, database, table or picture), which is what discord.py, the sockets, the fake
Discord and the machine cost before the bot does anything; and the same kind of moves through
the service alone (no Discord, same process). Not a timed test.

    .venv/bin/python benchmarks/bench_bot.py [--rounds 4] [--alone-rounds 40] [--in-process] [--breakdown [all] [waiting]] [--phases]
        [--answers-first 0 0.3 [--repeat 2]] [--processes 1 2] [--postgres]

``--processes`` runs the bot as a deployment past one process runs it: that many bot
processes on one database, each running one Discord shard of as many (``SHARD_COUNT``,
``SHARD_IDS``), the tables dealt among one server a shard; the fake Discord sends each
server's events to its shard's process only, as Discord does. The floor runs in as many
processes. Several counts are run in turn, ``--repeat`` times. ``--postgres``: the bot on a
real PostgreSQL server started from the machine's binaries (``tests/postgres.py``), a fresh
database a run, as such a deployment would be; otherwise SQLite (several processes share
its file).

``--answers-first`` runs each count once with each of these ``ANSWERS_FIRST_SECONDS`` (how
long the work a move causes besides its answer may wait while players are unanswered; 0 turns
it off), one after the other, ``--repeat`` times: an A/B comparison under the same load.

``--breakdown`` runs the 1- and 64-player cases once more with the bot's process under
``cProfile`` (only from each batch of moves until the bot is quiet again) and prints the REST
calls a move caused and where the bot's event loop spends its time,
by layer (discord.py, HTTP, the UI, the service, the engines, pictures, the database, the event
loop itself). Work in threads (the SQLite writer, pictures) is not in the profile; the loop's
waiting for it is in the "idle" row. ``--breakdown waiting`` profiles only while some player
waits for an answer (from a burst's first interaction to its last answer): the work the
answers queue behind, without the tables, pings and pictures that come after them
(``--breakdown all waiting``: both, one run each).

``--phases`` runs each count once more and prints when each step of a move's answer happens
inside the bot's process (wall clock from the moment discord.py starts parsing the
``INTERACTION_CREATE``, p50 and p99 over the moves): the command reached, the service's move,
the database write (on the event loop when the writer is idle, else queued for the writer thread),
the hand's text and buttons built, the answer handed to discord.py, its request written to
the socket; and the garbage collector's pauses. What the CPU profile of ``--breakdown``
cannot show: waits in queues, and the cost of code run once in a while with cold caches,
which is what one player alone meets.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import pstats
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import KingBot
from bot.service import MatchService
from bot.settings import Settings
from db.repository import Repository
from tests.e2e_support import World, acknowledged, answer_text, fire_command, open_match
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord

# Production pacing (bot.settings defaults), the same in both modes.
AI_DELAY = 0.8
TABLE_EDIT_SECONDS = 1.0
ANSWERS_FIRST = 0.3  # the longest a table edit, ping or picture waits for unanswered players


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


@dataclass
class Run:
    answers: list[float] = field(default_factory=list)  # ms, dispatch -> interaction callback
    pictures: list[float] = field(default_factory=list)  # ms, dispatch -> the answer's first edit
    refused: int = 0  # answers that are not "You chose"
    last_moves: list[float] = field(default_factory=list)  # ms, the answers to moves that ended their match
    cpu: float | None = None  # seconds of CPU the bot's process used (all its threads) for the moves
    fake_cpu: float = 0.0  # seconds of CPU this process (the fake Discord) used in the same windows
    calls: Counter[str] = field(default_factory=Counter)  # REST calls the moves caused, by method and route


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux's /proc), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_meter(run: Run, pids: list[int]) -> Callable[[bool], None]:
    """A ``timed`` callback for :func:`play_rounds`: adds the CPU the processes ``pids`` used
    between each ``timed(True)`` and ``timed(False)`` to ``run.cpu``."""

    def timed(on: bool) -> None:
        run.fake_cpu += -time.process_time() if on else time.process_time()
        for pid in pids:
            used = cpu_seconds(pid)
            if used is not None:
                run.cpu = (run.cpu or 0.0) + (-used if on else used)

    return timed


def connected(fake: FakeDiscord) -> int:
    return sum(1 for session in fake.sessions if session.connected and not session.invalidated)


async def started(fake: FakeDiscord, proc: Any, what: str, sessions: int = 1) -> int:
    """Wait until the bot process ``proc`` is connected with its commands (the fake then has
    ``sessions`` gateway sessions: one a shard); its pid."""
    await fake.wait_for(
        lambda: connected(fake) >= sessions and bool(fake.commands) or not proc.running, 60, what
    )
    assert proc.running and proc.proc is not None, proc.output()
    return int(proc.proc.pid)


def shards(processes: int) -> list[dict[str, str]]:
    """Each process's shard settings: none for one process, else shard ``n`` of ``processes``."""
    if processes == 1:
        return [{}]
    return [{"SHARD_COUNT": str(processes), "SHARD_IDS": str(n)} for n in range(processes)]


@asynccontextmanager
async def bot_processes(
    fake: FakeDiscord, mode: str, processes: int, env: dict[str, str] | None = None
) -> AsyncIterator[list[int]]:
    """This file's ``mode`` (``--bot`` or ``--floor-bot``) in ``processes`` processes, one
    shard each, started one after the other (each migrates first); their pids. Stopped on exit."""
    procs = []
    try:
        pids = []
        for n, shard in enumerate(shards(processes)):
            procs.append(
                await fake.start_bot_process("benchmarks.bench_bot", args=(mode,), env=(env or {}) | shard)
            )
            pids.append(await started(fake, procs[-1], f"{mode} process {n} up", sessions=n + 1))
        yield pids
    finally:
        for proc in procs:
            await proc.terminate()
            proc.cleanup()


def servers(fake: FakeDiscord, name: str, processes: int) -> list[Any]:
    """One server a process: with shards, each on its own shard."""
    if processes == 1:
        return [fake.add_guild(name)]
    return [fake.add_guild(f"{name} {n}", shard=(n, processes)) for n in range(processes)]


def choices_of(rec: InteractionRecord) -> list[str]:
    return [c["value"] for c in rec.choices or []]


Seats = list[tuple[Any, list[FakeUser]]]  # (channel, the players of its match)


async def ask_moves(fake: FakeDiscord, seats: Seats) -> list[tuple[FakeUser, Any, InteractionRecord]]:
    """Every player's ``/move`` autocomplete, answered (not timed)."""
    asks = [
        (
            user,
            channel,
            fire_command(
                fake,
                user,
                channel,
                "move",
                [{"name": "move", "type": 3, "value": "", "focused": True}],
                autocomplete=True,
            ),
        )
        for channel, users in seats
        for user in users
    ]
    await acknowledged(fake, [rec for _u, _c, rec in asks], 60)
    await fake.settle(quiet=0.1, max_wait=30)
    return asks


async def play_rounds(
    fake: FakeDiscord,
    seats: Seats,
    rounds: int,
    run: Run,
    timed: Callable[[bool], None] = lambda _on: None,
    reopen: Callable[[Any, list[FakeUser]], Awaitable[None]] | None = None,
    pause_gc: bool = False,
) -> None:
    """Each round: ask every player's autocomplete for their moves, wait until the bot is
    quiet, then fire every player's first move at once and time the answers. ``timed(True)``
    and ``timed(False)`` are called around each batch of moves and the work it causes. A
    table whose players have no move left (its match is over) is opened again by ``reopen``
    (not timed), so a run has as many rounds as asked. ``pause_gc`` (the bot in processes of
    its own): this process's garbage collector waits until each batch is over, then collects
    (not timed); a full collection of the fake Discord's store took 70 to 140 ms, every
    answer in flight then counted that much late, a pause of the harness standing in for
    Discord's servers, not of the bot."""
    quiet = max(AI_DELAY, TABLE_EDIT_SECONDS) + 0.3  # AI moves and paced table edits included
    await fake.settle(quiet=quiet, max_wait=30)
    for _ in range(rounds):
        asks = await ask_moves(fake, seats)
        over = [
            (channel, users)
            for channel, users in seats
            if not any(choices_of(rec) for _u, c, rec in asks if c is channel)
        ]
        if over and reopen is not None:
            for channel, users in over:
                await reopen(channel, users)
            await fake.settle(quiet=quiet, max_wait=30)
            asks = [a for a in asks if a[1] not in {c for c, _u in over}] + await ask_moves(fake, over)
        chosen = [(user, channel, moves[0]) for user, channel, rec in asks if (moves := choices_of(rec))]
        if not chosen:
            return
        if pause_gc:
            gc.collect()
            gc.disable()
        timed(True)
        first_call = len(fake.requests)
        batch = [
            fire_command(fake, user, channel, "move", [{"name": "move", "type": 3, "value": move}])
            for user, channel, move in chosen
        ]
        await acknowledged(fake, batch, 60)
        await fake.settle(quiet=quiet, max_wait=30)  # the pictures, the tables, the AI seats
        timed(False)
        if pause_gc:
            gc.enable()
        run.calls.update(f"{r.method} {r.route}" for r in fake.requests[first_call:])
        originals = {rec.original_message_id: rec for rec in batch if rec.original_message_id is not None}
        seen: set[int] = set()
        for event in fake._events[batch[0].event_start :]:
            rec = originals.get(event.message_id)
            if event.kind == "edit" and rec is not None and event.message_id not in seen:
                seen.add(event.message_id)
                run.pictures.append((event.at - rec.dispatched_at) * 1000)
        for rec in batch:
            assert rec.elapsed is not None and not rec.late, rec.description
            run.answers.append(rec.elapsed * 1000)
            run.refused += "You chose" not in answer_text(rec)
            if "🏆" in answer_text(rec):  # the match is over: its results and standings were written too
                run.last_moves.append(rec.elapsed * 1000)


async def open_tables(
    fake: FakeDiscord, players: int, tmp: Path, processes: int = 1
) -> tuple[Seats, Callable[[Any, list[FakeUser]], Awaitable[None]]]:
    """A two-player King and Crown tourney match a channel (one player alone: against an
    AI seat), the channels dealt in turn to one server a process; the tables and how to open
    a channel's match again once it is over."""
    guilds = servers(fake, "Bench", processes)
    users = [fake.add_user(f"p{i}") for i in range(max(players, 2))]
    pairs = [[users[0]]] if players == 1 else [[users[i], users[i + 1]] for i in range(0, players, 2)]

    async def reopen(channel: Any, pair: list[FakeUser]) -> None:
        guild = next(g for g in guilds if g.id == channel.guild_id)
        world = World(fake, guild, channel, users, "", tmp)
        await open_match(
            world,
            pair[0],
            pair[1:],
            game="crown",
            options={"variant": "tourney"},
            ais=2 - len(pair),
            channel=channel,
        )

    seats: Seats = [
        (fake.add_channel(guilds[n % len(guilds)], f"t{n}"), pair) for n, pair in enumerate(pairs)
    ]
    for channel, pair in seats:
        await reopen(channel, pair)
    return seats, reopen


def bot_env(tmp: Path, answers_first: float, database_url: str | None = None) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url or f"sqlite:///{tmp / 'bot.db'}",
        "AI_DELAY": str(AI_DELAY),
        "TABLE_EDIT_SECONDS": str(TABLE_EDIT_SECONDS),
        "ANSWERS_FIRST_SECONDS": str(answers_first),
        "LOG_LEVEL": "INFO",
        "SYNC_COMMANDS": "1",
    }


async def through_discord(
    players: int,
    rounds: int,
    answers_first: float = ANSWERS_FIRST,
    profile_to: Path | None = None,
    phases_to: Path | None = None,
    processes: int = 1,
    database_url: str | None = None,
    profile_waiting: bool = False,
    extra_env: dict[str, str] | None = None,
) -> Run:
    """The bot in its own process (``python -m tests.fakediscord.run_bot``, running this file's
    ``--bot`` mode); SIGUSR1/SIGUSR2 start and stop its profiler around the rounds; with
    ``phases_to``, it writes each ``/move``'s phases there (:func:`mark_phases`). With
    ``processes`` over 1, that many bot processes on one database, each running one shard
    of as many (the channels dealt among their servers; profile and phases: the first's)."""
    tmp = Path(tempfile.mkdtemp())
    run = Run()
    async with FakeDiscord() as fake:
        env = bot_env(tmp, answers_first, database_url) | (
            {"BENCH_PROFILE": str(profile_to)} if profile_to else {}
        )
        env |= {"BENCH_PROFILE_WAITING": "1"} if profile_waiting else {}
        env |= {"BENCH_PHASES": str(phases_to)} if phases_to else {}
        env |= extra_env or {}
        async with bot_processes(fake, "--bot", processes, env) as pids:
            pid = pids[0]
            fake.external_quiet = 0.05  # setting up: each step waits for its own answer anyway
            seats, reopen = await open_tables(fake, players, tmp, processes)
            meter = cpu_meter(run, pids)

            def profiling(on: bool) -> None:
                meter(on)
                if profile_to is not None:
                    profile_to.unlink(missing_ok=True)
                    os.kill(pid, signal.SIGUSR1 if on else signal.SIGUSR2)

            await play_rounds(fake, seats, rounds, run, profiling, reopen, pause_gc=True)
            if profile_to is not None:
                await fake.wait_for(profile_to.exists, 30, "the bot's profile")
            fake.assert_clean()
    return run


async def through_discord_in_process(players: int, rounds: int, answers_first: float = ANSWERS_FIRST) -> Run:
    """The bot and the fake Discord in this process, one event loop."""
    tmp = Path(tempfile.mkdtemp())
    run = Run()
    async with FakeDiscord() as fake:
        settings = Settings(
            token=fake.token,
            database_url=f"sqlite:///{tmp / 'bot.db'}",
            ai_delay=AI_DELAY,
            table_edit_seconds=TABLE_EDIT_SECONDS,
            answers_first_seconds=answers_first,
        )
        async with fake.bot_running(KingBot(settings)):
            fake.quiet, fake.busy_quiet = 0.01, 0.02
            seats, reopen = await open_tables(fake, players, tmp)
            await play_rounds(fake, seats, rounds, run, reopen=reopen)
            fake.assert_clean()
    return run


async def through_service(players: int, rounds: int) -> list[float]:
    tmp = Path(tempfile.mkdtemp())
    repo = Repository(f"sqlite:///{tmp / 'svc.db'}")
    await repo.migrate()
    svc = MatchService(repo, ai_delay=0, default_turn_seconds=0)

    async def opened(n: int) -> Any:
        m = await svc.open_lobby(
            guild_id=1,
            channel_id=100 + n,
            host_id=2 * n + 1,
            host_name="a",
            game_id="crown",
            options={"variant": "tourney"},
        )
        if players == 1:
            await svc.add_ai(m.id, 2 * n + 1)
        else:
            await svc.join(m.id, 2 * n + 2, "b")
        return await svc.start(m.id, 2 * n + 1)

    matches = [await opened(n) for n in range(max(1, players // 2))]
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
        for n, m in enumerate(matches):
            if (await svc.get(m.id)).status.over:  # played out: a new match in its channel
                matches[n] = await opened(n)
        await asyncio.gather(
            *(one(m.id, u) for m in matches for u in (m.seats[0].user_id, m.seats[1].user_id) if u)
        )
    await svc.close()
    await repo.close()
    return latencies


IDLE = "idle: the loop waiting for sockets or worker threads"
LAYERS = (  # (name, fragments of a function's file or name); the first that matches wins
    (IDLE, ("select.epoll",)),
    (
        "handing work to threads (database, pictures)",
        ("_queue.SimpleQueue", "concurrent/futures", "threading.py"),
    ),
    ("discord.py: gateway, parsing, models", ("site-packages/discord/",)),
    (
        "HTTP and websockets (aiohttp, sockets)",
        ("aiohttp", "yarl", "multidict", "frozenlist", "_socket.socket", "ssl"),
    ),
    ("bot UI: text, components, tables", ("bot/ui/", "cogs/")),
    ("service: locks, caches, timers", ("bot/service/",)),
    ("game engines", ("bot/games/",)),
    ("pictures (Pillow)", ("bot/images/", "PIL")),
    ("database (SQLAlchemy, aiosqlite)", ("sqlalchemy", "aiosqlite", "db/", "sqlite3")),
    ("JSON", ("json", "orjson")),
    ("logging", ("logging/",)),
    ("asyncio event loop", ("asyncio",)),
)


def breakdown(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Self time per layer, in seconds, largest first."""
    totals: dict[str, float] = {}
    for (filename, _line, function), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{filename} {function}"
        layer = next(
            (name for name, parts in LAYERS if any(p in where for p in parts)), "other (Python, built-ins)"
        )
        totals[layer] = totals.get(layer, 0.0) + tottime
    return sorted(totals.items(), key=lambda kv: -kv[1])


def figures(
    players: int, processes: int, answers_first: float, run: Run, base: list[float], bare: Run
) -> str:
    ratio = pct(run.answers, 0.99) / max(pct(base, 0.99), 1e-9)
    over_floor = pct(run.answers, 0.99) / max(pct(bare.answers, 0.99), 1e-9)
    refused = f", {run.refused} refused" if run.refused else ""
    return (
        f"| {players} | {processes} | {f'{answers_first:g} s' if answers_first > 0 else 'off'} | {len(run.answers)}{refused} | {statistics.median(run.answers):.1f} | {pct(run.answers, 0.99):.1f} | "
        f"{max(run.answers):.1f} | {statistics.median(run.pictures or [0]):.0f} / {pct(run.pictures, 0.99):.0f} | "
        f"{'-' if run.cpu is None else f'{1000 * run.cpu / len(run.answers):.1f}'} | {1000 * run.fake_cpu / len(run.answers):.1f} | "
        f"{statistics.median(bare.answers):.1f} / {pct(bare.answers, 0.99):.1f}"
        f"{'' if bare.cpu is None else f', CPU {1000 * bare.cpu / len(bare.answers):.1f}'} | {over_floor:.1f}x | "
        f"{statistics.median(base):.1f} / {pct(base, 0.99):.1f} | {ratio:.1f}x |"
    )


async def main(
    rounds: int,
    alone_rounds: int,
    in_process: bool,
    counts: list[int],
    variants: list[float],
    repeat: int,
    process_counts: list[int],
    postgres: bool,
) -> None:
    where = "one process with the fake Discord" if in_process else "processes of its own"
    database = "PostgreSQL" if postgres else "SQLite"
    print(f"bot in {where}, on {database}; load average {os.getloadavg()[0]:.2f} at the start")
    print(
        "| players at once | bot processes | answers first | moves | p50 ms | p99 ms | max ms | picture p50 / p99 ms | bot CPU a move ms | fake Discord CPU a move ms "
        "| floor p50 / p99 ms, CPU a move | p99 over the floor | service alone p50 / p99 ms | p99 over the service |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    ends: list[tuple[int, Run]] = []
    server = None
    if postgres:
        from tests.postgres import PostgresServer

        server = PostgresServer()
    try:
        for players in counts:
            for _ in range(repeat):
                for processes in process_counts:  # alternating, so that all see the same load
                    for answers_first in variants:
                        these = alone_rounds if players == 1 else rounds
                        url = server.database() if server is not None else None
                        if in_process:
                            run = await through_discord_in_process(players, these, answers_first)
                        else:
                            run = await through_discord(
                                players, these, answers_first, processes=processes, database_url=url
                            )
                        bare = await floor(players, these, processes)
                        base = await through_service(players, these)
                        print(figures(players, processes, answers_first, run, base, bare), flush=True)
                        ends.append((players, run))
    finally:
        if server is not None:
            server.stop()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for players, run in ends:
        others = list(run.answers)
        for ms in run.last_moves:
            others.remove(ms)
        if run.last_moves and others:
            print(
                f"{players} at once: the {len(run.last_moves)} moves that ended a match (results, standings and ratings "
                f"written in the move's transaction) p50 {statistics.median(run.last_moves):.1f} ms, max {max(run.last_moves):.1f} ms; "
                f"the other {len(others)} p50 {statistics.median(others):.1f} ms, p99 {pct(others, 0.99):.1f} ms"
            )


async def profiled(rounds: int, alone_rounds: int, counts: list[int], waiting: bool = False) -> None:
    for players in counts:
        out = Path(tempfile.mkdtemp()) / "bot.prof"
        these = alone_rounds if players == 1 else rounds
        run = await through_discord(
            players, these, profile_to=out, profile_waiting=waiting
        )  # answers first as in production
        rows = breakdown(pstats.Stats(str(out)))
        idle = dict(rows).get(IDLE, 0.0)
        busy = sum(t for name, t in rows if name != IDLE)
        when = (
            "while players waited for their answers"
            if waiting
            else "from each batch of moves until it was quiet"
        )
        print(
            f"\nThe bot's process, {players} at once ({len(run.answers)} moves, p50 {statistics.median(run.answers):.1f} ms, "
            f"p99 {pct(run.answers, 0.99):.1f} ms under the profiler), {when}: its event loop was busy {busy:.2f} s "
            f"({1000 * busy / len(run.answers):.1f} ms a move, profiler included) and idle {idle:.2f} s"
        )
        print("\n| where the loop's busy time goes | seconds | share |")
        print("|---|---|---|")
        for name, t in rows:
            if name != IDLE:
                print(f"| {name} | {t:.2f} | {100 * t / busy:.0f}% |")
        print("\n| REST calls the moves caused | a move |")
        print("|---|---|")
        for call, n in run.calls.most_common():
            print(f"| {call} | {n / len(run.answers):.2f} |")
        print("\nbusiest functions (own time):")
        pstats.Stats(str(out)).sort_stats("tottime").print_stats(15)


PHASES = (  # (mark, what happened by then), in the order of a move's answer
    ("command", "discord.py has parsed the event and called the /move command"),
    ("play", "the command has found the move; the service's move starts"),
    (
        "write",
        "the service has the engine's new state; its write begins (at once on the event loop when the writer is idle, else queued for the writer thread)",
    ),
    ("job", "the write starts (on the thread: after the writes queued before it)"),
    ("committed", "the write is committed"),
    ("written", "the event loop has the write's result back"),
    ("played", "the service's move returns (listeners told, timers armed)"),
    ("hand", "the hand's text and buttons are built"),
    ("send", "the answer is handed to discord.py to send"),
    ("sent", "the answer's request is written to the socket, its body included (aiohttp's body writer done)"),
)


def mark_phases(path: str) -> None:
    """Benchmark-only instrumentation of the bot's process: for each ``/move``, the wall-clock
    milliseconds from discord.py's parsing of its ``INTERACTION_CREATE`` to each of
    :data:`PHASES` (the first time each is reached), one JSON line per move in ``path``. A
    move's marks follow its command's task (a context variable), so moves at once are told
    apart. Each garbage collection's pause is a line too (every player waits for it)."""
    import contextvars
    import gc
    import json

    import discord
    from aiohttp import ClientRequest
    from discord.state import ConnectionState

    from bot.service import MatchService
    from bot.ui import commands, hand
    from db.writer import WriterThread

    out = open(path, "a", buffering=1)  # noqa: SIM115 - open for the process's life
    parsed: dict[int, float] = {}  # interaction id -> when its parsing began
    current: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar("move", default=None)

    def mark(name: str, move: dict[str, float] | None = None) -> None:
        move = move if move is not None else current.get()
        if move is not None and name not in move:
            move[name] = (time.perf_counter() - move["start"]) * 1000

    parse = ConnectionState.parse_interaction_create

    def parsing(self: Any, data: Any) -> Any:
        if data.get("type") == 2 and data.get("data", {}).get("name") == "move":
            parsed[int(data["id"])] = time.perf_counter()
        return parse(self, data)

    def marking(owner: Any, attr: str, name: str, after: str | None = None) -> None:
        function = getattr(owner, attr)

        async def marked(*args: Any, **kwargs: Any) -> Any:
            mark(name)
            try:
                return await function(*args, **kwargs)
            finally:
                if after:
                    mark(after)

        setattr(owner, attr, marked)

    command = commands.play_command

    async def play_command(interaction: Any, game_id: str | None, kinds: Any, text: str) -> None:
        start = parsed.pop(interaction.id, None)
        move = None if start is None else {"start": start}
        current.set(move)
        mark("command")
        try:
            await command(interaction, game_id, kinds, text)
        finally:
            if move is not None:
                del move["start"]
                out.write(json.dumps(move) + "\n")

    write = WriterThread.run

    async def run(self: WriterThread, job: Any, *, inline: bool = False) -> Any:
        move = current.get()  # the job may run on the writer thread, outside the move's context

        def timed(connection: Any) -> Any:
            mark("job", move)
            cpu = time.thread_time()
            try:
                return job(connection)
            finally:
                mark("committed", move)
                if move is not None:
                    move["job_cpu"] = (time.thread_time() - cpu) * 1000

        mark("write")
        try:
            return await write(self, timed, inline=inline)
        finally:
            mark("written")

    building = hand.hand_message

    def hand_message(*args: Any, **kwargs: Any) -> Any:
        built = building(*args, **kwargs)
        mark("hand")
        return built

    collecting: dict[str, float] = {}

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting["since"] = time.perf_counter()
        elif "since" in collecting:
            out.write(
                json.dumps(
                    {
                        "gc": (time.perf_counter() - collecting.pop("since")) * 1000,
                        "generation": info["generation"],
                    }
                )
                + "\n"
            )

    writing = ClientRequest.write_bytes

    async def write_bytes(self: ClientRequest, *args: Any, **kwargs: Any) -> None:
        try:
            await writing(self, *args, **kwargs)
        finally:
            mark("sent")  # the move's first request is its answer

    gc.callbacks.append(collector)
    ClientRequest.write_bytes = write_bytes  # type: ignore[method-assign]
    ConnectionState.parse_interaction_create = parsing  # type: ignore[method-assign]
    commands.play_command = play_command
    marking(MatchService, "play", "play", "played")
    WriterThread.run = run  # type: ignore[method-assign]
    marking(discord.InteractionResponse, "send_message", "send")
    hand.hand_message = hand_message


async def phases(rounds: int, alone_rounds: int, counts: list[int]) -> None:
    """The runs of :func:`main` once more with :func:`mark_phases` in the bot's process:
    when each step of the answers happens, p50 and p99 over the moves."""
    import json

    for players in counts:
        out = Path(tempfile.mkdtemp()) / "phases.jsonl"
        run = await through_discord(players, alone_rounds if players == 1 else rounds, phases_to=out)
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        moves = [m for m in lines if "gc" not in m]
        pauses = sorted((m["gc"], m["generation"]) for m in lines if "gc" in m)
        print(
            f"\n{players} at once, {len(run.answers)} moves (answers at the fake Discord p50 {statistics.median(run.answers):.1f} ms, "
            f"p99 {pct(run.answers, 0.99):.1f} ms): when each step of an answer happens in the bot's process, "
            "ms after discord.py begins parsing its event"
        )
        print("\n| step | p50 ms | p99 ms |\n|---|---|---|")
        for name, what in PHASES:
            at = [m[name] for m in moves if name in m]
            print(
                f"| {what} | {statistics.median(at):.2f} | {pct(at, 0.99):.2f} |"
                if at
                else f"| {what} | - | - |"
            )
        slow = [m for m in moves if "committed" in m and m["committed"] - m["job"] > 2]
        if slow:
            print(
                f"\nWrites over 2 ms (on the loop or the writer thread): {len(slow)}; their time there / its CPU time in them (ms): "
                + ", ".join(f"{m['committed'] - m['job']:.1f} / {m['job_cpu']:.1f}" for m in slow)
            )
        if pauses:
            longest = ", ".join(f"{ms:.1f} ms (generation {g})" for ms, g in pauses[:-4:-1])
            print(
                f"\nGarbage collections in the bot's process since it started: {len(pauses)}, {sum(ms for ms, _g in pauses):.0f} ms "
                f"in all; the longest {longest} (the full collection of the start, before the restore, is among them)"
            )


def bot_process() -> None:
    """Run the bot as ``python -m bot`` does (inside ``tests.fakediscord.run_bot``); with
    ``BENCH_PROFILE`` set, SIGUSR1 starts cProfile on the event loop's thread and SIGUSR2
    stops it and writes the profile there; with ``BENCH_PHASES``, :func:`mark_phases`;
    ``BENCH_EAGER_BODIES=0`` leaves aiohttp's body writer as Python 3.11 has it (an A/B of
    ``bot/sending.py``)."""
    from bot.run import run

    if os.environ.get("BENCH_PHASES"):
        mark_phases(os.environ["BENCH_PHASES"])
    if os.environ.get("BENCH_EAGER_BODIES") == "0":  # an A/B of bot/sending.py: aiohttp's own way on 3.11
        import bot.app

        bot.app.write_bodies_at_once = lambda _loop: False
    if os.environ.get("BENCH_THINKING"):
        keep_thinking(int(os.environ["BENCH_THINKING"]))
    path = os.environ.get("BENCH_PROFILE")
    if path:
        profile = cProfile.Profile()

        def stop(*_: object) -> None:
            window["open"] = False
            profile.disable()
            profile.dump_stats(f"{path}.part")
            os.replace(f"{path}.part", path)

        window = {"open": False}  # between SIGUSR1 and SIGUSR2
        waiting = bool(os.environ.get("BENCH_PROFILE_WAITING"))
        if waiting:
            profile_while_players_wait(profile, window)

        def start(*_: object) -> None:
            window["open"] = True
            if not waiting:
                profile.enable()

        signal.signal(signal.SIGUSR1, start)
        signal.signal(signal.SIGUSR2, stop)
    raise SystemExit(run())


def keep_thinking(searches: int) -> None:
    """``BENCH_THINKING`` (``benchmarks/bench_thinking.py``): once the bot is set up, that many
    hard AI searches think without pause, each one after another for ``AI_THINK`` seconds,
    through the service's own search (``AISeats.search`` of ``bot/service/ai_seats.py``: worker processes, or a thread
    with ``AI_PROCESSES=0``), on a four-player King's Dynasty deal: the hard AI seats of other
    matches thinking while the players move. ``BENCH_THINKING_TIMES``: a file each search's
    time and rollouts are added to."""
    from bot.app import KingBot
    from bot.games import GAMES

    setup = KingBot.setup_hook
    path = os.environ.get("BENCH_THINKING_TIMES")
    record = open(path, "a") if path else None  # noqa: SIM115  (written until the process ends)

    async def setup_and_think(self: KingBot) -> None:
        await setup(self)
        game = GAMES["dynasty"]
        state = game.setup(4, 5, {})
        seat = min(game.to_act(state))

        async def think(seed: int) -> None:
            while True:
                started = time.monotonic()
                result = await self.service.ai_seats.search(
                    game, state, seat, seed, started + self.settings.ai_think
                )
                if record is not None:  # each search: its time from asked to answered (ms), its rollouts
                    record.write(f"{(time.monotonic() - started) * 1000:.1f} {result.rollouts}\n")
                    record.flush()

        self._bench_thinking = [asyncio.create_task(think(n)) for n in range(searches)]  # type: ignore[attr-defined]

    KingBot.setup_hook = setup_and_think  # type: ignore[method-assign]


def profile_while_players_wait(profile: cProfile.Profile, window: dict[str, bool]) -> None:
    """``--breakdown waiting``: while ``window`` is open, ``profile`` runs only while some
    interaction is unanswered, from a burst's first arrival to its last answer (the bot's own
    count, ``AnswersFirst``)."""
    from bot.ui.answers import AnswersFirst

    arrived, answered = AnswersFirst.arrived, AnswersFirst.answered

    def arriving(self: AnswersFirst, interaction_id: int) -> None:
        arrived(self, interaction_id)
        if window["open"]:
            profile.enable()

    def answering(self: AnswersFirst, interaction_id: int) -> None:
        answered(self, interaction_id)
        if not self._unanswered:
            profile.disable()

    AnswersFirst.arrived = arriving  # type: ignore[method-assign]
    AnswersFirst.answered = answering  # type: ignore[method-assign]


def floor_bot_process() -> None:
    """The floor: a bot that only answers. discord.py's client and command tree, ``/move``
    with an autocomplete, and an answer shaped like the real one (an ephemeral embed and a
    row of buttons), with no game, no service, no database, no table, no picture. What is
    left of a move's latency is discord.py, the sockets, the fake Discord and the machine."""
    import discord
    from discord import app_commands

    count = os.environ.get("SHARD_COUNT")
    if count:  # one shard of several, as the bot's processes run then
        shard = {"shard_count": int(count), "shard_ids": [int(os.environ["SHARD_IDS"])]}
        client: discord.Client = discord.AutoShardedClient(intents=discord.Intents.default(), **shard)
    else:
        client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    async def choices(_interaction: discord.Interaction, _current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name="Play the Knight", value="k")]

    @tree.command(name="move", description="Make a move")
    @app_commands.autocomplete(move=choices)
    async def move(interaction: discord.Interaction, move: str) -> None:
        view = discord.ui.View(timeout=None)
        for n, label in enumerate(("Knight", "Jester", "King")):
            view.add_item(discord.ui.Button(label=label, custom_id=f"floor:{interaction.id}:{n}"))
        embed = discord.Embed(title="Your hand", description=f"You chose: {move}.\nKnight, Jester, King")
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def setup_hook() -> None:
        await tree.sync()

    async def on_ready() -> (
        None
    ):  # as the bot does once ready (bot/app.py): no full collection walks the start-up heap
        gc.freeze()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    client.event(on_ready)
    client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
    raise SystemExit(0)


async def floor(players: int, rounds: int, processes: int = 1) -> Run:
    """The same rounds of ``/move`` against :func:`floor_bot_process` (in its own process; in
    ``processes`` of them, one shard each, as :func:`through_discord`)."""
    run = Run()
    async with FakeDiscord() as fake, bot_processes(fake, "--floor-bot", processes) as pids:
        guilds = servers(fake, "Floor", processes)
        users = [fake.add_user(f"p{i}") for i in range(max(players, 2))]
        seats = [
            (
                fake.add_channel(guilds[n % len(guilds)], f"t{n}"),
                users[n * 2 : n * 2 + 2] if players > 1 else users[:1],
            )
            for n in range(max(1, players // 2))
        ]
        await play_rounds(fake, seats, rounds, run, cpu_meter(run, pids), pause_gc=True)
        fake.assert_clean()
    return run


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument(
        "--alone-rounds", type=int, default=40, help="rounds of the one-player case (a move each)"
    )
    parser.add_argument(
        "--in-process", action="store_true", help="run the bot in this process, beside the fake Discord"
    )
    parser.add_argument(
        "--breakdown",
        nargs="*",
        choices=("all", "waiting"),
        help="profile the bot's process for 1 and 64 players: all its work (the default), or while players wait for answers",
    )
    parser.add_argument(
        "--phases", action="store_true", help="time the steps of the answers inside the bot's process"
    )
    parser.add_argument(
        "--players", type=int, nargs="+", default=[1, 16, 64], help="players moving at once (1 or even)"
    )
    parser.add_argument(
        "--answers-first",
        type=float,
        nargs="+",
        default=[ANSWERS_FIRST],
        metavar="SECONDS",
        help="ANSWERS_FIRST_SECONDS values to compare, run in turn for each count (0: off)",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="run each count's variants this many times, alternating"
    )
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[1],
        help="bot processes on one database, one Discord shard each (and the floor's as many); several: compared in turn",
    )
    parser.add_argument(
        "--postgres", action="store_true", help="the bot on a real PostgreSQL server (tests/postgres.py)"
    )
    parser.add_argument("--bot", action="store_true", help=argparse.SUPPRESS)  # the bot's own process
    parser.add_argument("--floor-bot", action="store_true", help=argparse.SUPPRESS)  # the floor's bot process
    args = parser.parse_args()
    if args.bot:
        bot_process()
    if args.floor_bot:
        floor_bot_process()
    if args.in_process and args.processes != [1]:
        parser.error("--in-process runs one bot, in this process")
    asyncio.run(
        main(
            args.rounds,
            args.alone_rounds,
            args.in_process,
            args.players,
            args.answers_first,
            args.repeat,
            args.processes,
            args.postgres,
        )
    )
    for mode in [] if args.breakdown is None else args.breakdown or ["all"]:
        asyncio.run(
            profiled(
                args.rounds,
                args.alone_rounds,
                [n for n in args.players if n in (1, 64)] or args.players,
                mode == "waiting",
            )
        )
    if args.phases:
        asyncio.run(phases(args.rounds, args.alone_rounds, args.players))
