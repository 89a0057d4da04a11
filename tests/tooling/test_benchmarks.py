"""The benchmarks (benchmarks/bench_*.py) still run end to end against the current code.

Nothing else runs them, so a change elsewhere can break one unnoticed (bench_bot.py was
broken for a while by a signature change in tests/e2e_support.py). Each script runs here as a
person runs it, in a subprocess from the repository's root, with the smallest arguments that
still take its real code paths, and must exit 0 and print its figures: a label with a number
beside it. The figures themselves are not checked (these are not timed tests). A new
``bench_*.py`` needs an entry in ``SCRIPTS``: without one its test fails.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.postgres import postgres_server

__all__ = ["postgres_server"]
ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
TIMEOUT_SECONDS = 240  # the slowest takes about 20 s; generous for a loaded machine

NUMBER = r"-?\d+(?:\.\d+)?"
SEARCH_GAMES = ("crown 2p", "dynasty 2p", "four 4p", "dreams 2p", "court 4p")
ROLLOUT_GAMES = ("four", "four3", "dreams", "dreams4", "court")


@dataclass(frozen=True)
class Smoke:
    args: tuple[str, ...]
    figures: tuple[str, ...]  # regular expressions (``{n}``: a number), each found in the output


SCRIPTS: dict[str, Smoke] = {
    # One round of two players; the bot beside the fake Discord for the table, in its own
    # process for --breakdown and --phases (with the floor bot's process and the service alone).
    "bench_bot.py": Smoke(
        ("--players", "2", "--rounds", "1", "--in-process", "--breakdown", "all", "waiting", "--phases"),
        (
            r"^\| 2 \| 1 \| 0\.3 s \| 2 \| {n} \| {n} \| {n} \| {n} / {n} \| - \| {n} \| {n} / {n}, CPU {n} \| {n}x \|",
            r"until it was quiet: its event loop was busy {n} s \({n} ms a move",
            r"while players waited for their answers: its event loop was busy {n} s \({n} ms a move",
            r"^\| POST /interactions/\{{interaction_id\}}/\{{token\}}/callback \| 1\.00 \|$",
            r"^\| the write is committed \| {n} \| {n} \|$",
            r"^\| the answer is handed to discord\.py to send \| {n} \| {n} \|$",
        ),
    ),
    # RLCard (the bench extra) may be missing: the script then says so and goes on.
    "bench_dynasty.py": Smoke(
        ("--seconds", "0.2", "--rounds", "1", "--matches", "2"),
        (
            r"^  rlcard-like +{n} hands/s +\({n} moves a hand, {n} us a move\)$",
            r"^  uniform +{n} hands/s",
            r"^RLCard (?:uno: not measured \(rlcard not installed\)|\S+ uno, random agents: +{n} games/s)",
            r"^AI vs random legal play, 2 players, dynasty deck: {n}/2 matches won \({n}%\)",
        ),
    ),
    "bench_replay.py": Smoke(
        ("--runs", "1"),
        tuple(
            rf"^{case} +{{n}} +{{n}} +{{n}} +{{n}} +{{n}} +{{n}}$"
            for case in ("2 players, hands 5", "4 players, hands 8", "6 players, hands limit")
        ),
    ),
    "bench_dynasty_length.py": Smoke(
        ("--games", "1", "--hands", "1", "--decks", "classic", "--players", "2"),
        (r"^\| classic \| 2 \| {n} \| {n} \| {n} \| {n}/1 \({n}%\) \|$",),
    ),
    "bench_images.py": Smoke(
        ("--hands", "2"),
        (r"^fresh: +p50 {n} ms +p99 {n} ms", r"^cached: +p50 {n} ms +p99 {n} ms"),
    ),
    # 200 players at least: /stats is timed for 200 of them.
    "bench_leaderboard.py": Smoke(
        ("--players", "200", "--results", "400", "--pages", "5"),
        (
            r"^database: 400 results, {n} players, 6 boards in 3 servers",
            r"^season rollover \(archive top 3 per game, open the next\): {n} ms$",
            r"^leaderboard page \(service, current\) +n=5 +p50 +{n} ms +p99 +{n} ms",
            r"^/stats \(ranks \+ recent results\) +n=200 +p50 +{n} ms",
            r"^finishing move with standings +n=200 +p50 +{n} ms",
            r"^leaderboard page p99 {n} ms: {n} x the 50 ms target",
        ),
    ),
    # The same database, smaller: 200 players, the web page and /leaderboard side by side.
    "bench_web.py": Smoke(
        ("--players", "200", "--results", "400", "--pages", "5"),
        (
            r"^database: 400 results, {n} players on the largest board",
            r"^/leaderboard \(service call, 10 rows\) +n=5 +p50 +{n} ms +p99 +{n} ms",
            r"^web leaderboard page \(HTTP, 25 rows\) +n=5 +p50 +{n} ms +p99 +{n} ms .* {n}x /leaderboard$",
            r"^web player page \(with chart\) +n=2 +p50 +{n} ms",
            r"^web leaderboard page p99 {n} ms: {n} x the 50 ms target \(\w+\); {n}x the p99 of /leaderboard",
        ),
    ),
    # Two matches, two marks, a short warm-up.
    "bench_memory.py": Smoke(
        ("--matches", "2", "--moves", "2", "4", "--warm", "100"),
        (
            r"^\| 2 \| {n} \| 1\.00x \|$",
            r"^\| 4 \| {n} \| {n}x \|$",
        ),
    ),
    # Not --postgres: it needs a PostgreSQL server.
    "bench_moves.py": Smoke(
        ("--players", "2", "--rounds", "1", "--thread"),
        (
            r"^moves: 2 by 2 concurrent players$",
            r"^one writer, plain sqlite3 \(bot\) +{n} +{n} +{n}$",
            r"^8 writers through aiosqlite \(baseline\) +{n} +{n} +{n}$",
            r"^ratio at p99: before/bot {n}x, baseline/bot {n}x$",
            r"^every move through the thread \(before\) +{n} +{n} +{n}$",
            r"^ratio thread/bot: p50 {n}x, p99 {n}x$",
        ),
    ),
    "bench_restart.py": Smoke(
        ("--matches", "2", "--repeat", "1"),
        (
            r"^2 running matches restored and armed in {n} s, median of 1",
            (
                r"^baseline: reading and parsing the same rows with sqlite3 alone: {n} s, median of 1; "
                r"ratio {n}x$"
            ),
        ),
    ),
    # Six matches, two behind, three seconds a restart.
    "bench_restart_storm.py": Smoke(
        ("--matches", "6", "--behind", "2", "--seconds", "3"),
        (
            r"^\| the bot, 2 behind \| {n} \| {n} \| {n} \| {n} ms \| {n}x \|$",
            r"^\| \*\*the baseline\*\*: .* \| {n} \| {n} \| {n} \| {n} ms \| 1\.00x \|$",
        ),
    ),
    # Not --baseline (a git revision). One match a game; a position every 10 decisions finds a
    # few in each game, and 12 rollouts cover most positions' candidates (the search plays no
    # rollout in a position with more candidates than its budget; a game with none fails).
    "bench_rollout.py": Smoke(
        ("--repeat", "1", "--matches", "1", "--every", "10", "--rollouts", "12"),
        tuple(
            rf"^{name}: {{n}} ms a rollout \({{n}} in 0\.8 s\) "
            r"\({n} rollouts from {n} positions\), check {n}$"
            for name in ROLLOUT_GAMES
        ),
    ),
    # Every game, both parts: a short deadline for the move times, one match a pairing in one
    # worker process with a small rollout budget for the strength.
    "bench_search.py": Smoke(
        ("--time-matches", "1", "--think", "0.01", "--matches", "1", "--workers", "1", "--rollouts", "4"),
        tuple(
            pattern
            for name in SEARCH_GAMES
            for pattern in (
                rf"^{name}: hard move time over {{n}} moves \(deadline {{n}} s\): p50 {{n}} ms, p99 {{n}} ms",
                rf"^{name} hard vs normal: {{n}}% of first places \(fair {{n}}%, {{n}}x; .* over 1 matches",
                rf"^{name} normal vs easy: {{n}}% of first places \(fair {{n}}%, {{n}}x; .* over 1 matches",
            )
        ),
    ),
    "bench_table_lag.py": Smoke(
        ("--seconds", "0.5"),
        (
            r"^\| at most one a second \(bot\) \| {n} \| {n} \| {n} \| {n} \| {n} \|$",
            r"^\| one per change \(baseline\) \| {n} \| {n} \| {n} \| {n} \| {n} \|$",
        ),
    ),
    # 10 moves: one a round.
    # One round of two players, once with no search thinking, once with one in a thread and
    # once in a worker process.
    "bench_thinking.py": Smoke(
        ("--players", "2", "--rounds", "1", "--thinking", "1"),
        (
            r"^\| none \(\*\*the baseline\*\*\) \| 2 \| {n} \| {n} \| {n} \| {n} \| - \| 1\.0x \|$",
            r"^\| 1, in a worker thread of the bot's process \| 2 \| {n} \| {n} \| {n} \| {n} \| {n}: p50 {n} ms, p99 {n} ms, {n} rollouts, {n} with none \| {n}x \|$",
            r"^\| 1, in 1 worker process \| 2 \| {n} \| {n} \| {n} \| {n} \| {n}: p50 {n} ms, p99 {n} ms, {n} rollouts, {n} with none \| {n}x \|$",
        ),
    ),
    "bench_write.py": Smoke(
        ("--moves", "10", "--breakdown"),
        (
            r"^\| Repository\.apply_move \(bot\) \| {n} \| {n} \| {n} \|$",
            r"^\| raw sqlite3, same rows and mode \(baseline\) \| {n} \| {n} \| {n} \|$",
            r"^\| hop: event loop -> writer thread -> back, an empty job \| {n} \| {n} \| {n} \|$",
            r"^\| the bot's write on the writer thread, no hop \(.*\) \| {n} \| {n} \| {n} \|$",
            r"^ratio bot/raw: mean {n}x, p50 {n}x",
        ),
    ),
}


def run_script(name: str, args: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """Run ``benchmarks/name`` as a person does; on a timeout, its whole process group is
    killed (bench_bot starts bot processes of its own)."""
    cmd = [sys.executable, str(BENCHMARKS / name), *args]
    with subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as proc:
        try:
            out, err = proc.communicate(timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            pytest.fail(f"{name} did not finish in {TIMEOUT_SECONDS} s\n{out}\n{err[-5000:]}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


@pytest.mark.parametrize("name", sorted({p.name for p in BENCHMARKS.glob("bench_*.py")} | set(SCRIPTS)))
def test_the_benchmark_runs_and_prints_its_figures(name: str) -> None:
    if not (BENCHMARKS / name).exists():
        pytest.fail(f"SCRIPTS has an entry for benchmarks/{name}, which is gone")
    if name not in SCRIPTS:
        pytest.fail(
            f"benchmarks/{name} has no entry in SCRIPTS (tests/tooling/test_benchmarks.py): give it one"
        )
    smoke = SCRIPTS[name]
    done = run_script(name, smoke.args)
    shown = f"$ {' '.join(done.args[1:])}\n{done.stdout}\n{done.stderr[-5000:]}"
    assert done.returncode == 0, shown
    missing = [p for p in smoke.figures if not re.search(p.format(n=NUMBER), done.stdout, re.MULTILINE)]
    assert not missing, f"figures not printed: {missing}\n{shown}"


def test_bench_search_oracle_searches_the_real_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--oracle`` (an upper bound: what the search does seeing every card) hands the search
    the real state in place of its determinizations, and its run says so."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_search
    finally:
        sys.path.remove(str(BENCHMARKS))
    from bot.games import GAMES, search
    from bot.games.base import Rng

    game = GAMES["dynasty"]
    state = game.setup(3, 5, bench_search.options_of("dynasty"))
    assert search._determinize(game, state, 0, Rng.from_seed(1)) != state  # the others' hands are dealt again
    monkeypatch.setattr(search, "_determinize", search._determinize)  # undone after the test
    monkeypatch.setattr(bench_search, "OPTIONS", {})
    bench_search._init_worker({}, {}, oracle=True)
    assert search._determinize(game, state, 0, Rng.from_seed(1)) is state

    args = (
        "--games",
        "dynasty",
        "--skip-times",
        "--pairings",
        "hard-normal",
        "--matches",
        "1",
        "--workers",
        "1",
        "--rollouts",
        "4",
        "--oracle",
    )
    done = run_script("bench_search.py", args)
    assert done.returncode == 0, done.stderr[-5000:]
    assert re.search(
        rf"^dynasty 2p hard vs normal: {NUMBER}% of first places .* over 1 matches, .* oracle$",
        done.stdout,
        re.MULTILINE,
    ), done.stdout


def test_bench_search_as_the_bot_gives_each_hard_move_the_deadline() -> None:
    """``--as-the-bot``: a hard move gets the bot's deadline (``--think``) and the service's
    rollout cap, not ``--rollouts``; the line says so. A budget of a million rollouts a move
    would not end a match within the test's time without the deadline."""
    args = (
        "--games",
        "crown",
        "--skip-times",
        "--pairings",
        "hard-normal",
        "--matches",
        "1",
        "--workers",
        "1",
        "--as-the-bot",
        "--think",
        "0.02",
    )
    done = run_script("bench_search.py", args)
    assert done.returncode == 0, done.stderr[-5000:]
    assert re.search(
        rf"^crown 2p hard vs normal: {NUMBER}% .* over 1 matches, 0.02 s a move \(at most 4000 rollouts\)",
        done.stdout,
        re.MULTILINE,
    ), done.stdout


def test_a_hard_move_with_a_deadline_stops_at_it() -> None:
    """``play_levels(think=...)`` stops each hard move's search at its deadline, as the bot
    does, so the rollout budget is only a cap."""
    from bot.games import GAMES
    from bot.simulate import play_levels

    game = GAMES["dynasty"]
    options = {o.key: o.default_value for o in game.options} | {"hands": "1", "deck": "classic"}
    times: list[float] = []
    done, _moves, shares = play_levels(game, 2, 11, options, ["hard", "normal"], 1_000_000, times, think=0.01)
    assert done and sum(shares) == 1.0 and times
    assert max(times) < 5.0  # a million rollouts would take far longer: the deadline ended every search


def test_bench_bot_runs_the_bot_in_several_processes_on_postgres(
    postgres_server: object,
) -> None:  # skipped or failed as the other PostgreSQL tests
    """``--processes 2 --postgres``: two bot processes (and two floor bots), one Discord shard
    each, on one PostgreSQL database. Four players make two tables, one on each shard's
    server; the fake Discord sends each server's moves only to its shard's process, so a
    process that did not play its tables would leave its players unanswered and fail the run."""
    done = run_script("bench_bot.py", ("--players", "4", "--rounds", "1", "--processes", "2", "--postgres"))
    assert done.returncode == 0, done.stderr[-5000:]
    assert "on PostgreSQL" in done.stdout
    row = r"^\| 4 \| 2 \| 0\.3 s \| 4 \| {n} \| {n} \|"
    assert re.search(row.format(n=NUMBER), done.stdout, re.MULTILINE), done.stdout
