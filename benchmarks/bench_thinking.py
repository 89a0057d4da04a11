"""Players' answers while hard AI seats think elsewhere in the bot's process.

A hard AI seat searches for up to ``AI_THINK`` (0.8 s) a move. The bot runs in a process of
its own as ``python -m bot`` runs it (``bench_bot.py``'s ``--bot`` mode), and ``--thinking``
searches think there without pause the whole time, through the service's own search
(``AISeats.search``) on a four-player King's Dynasty deal: the hard seats of other
matches. Meanwhile 16 players (``--players``) press ``/move`` at once, round after round, as
in ``bench_bot.py``, and the answers are timed from the fake Discord sending the interaction
to it receiving the answer.

Each search's time (from the service asking to it answering) and rollouts are printed too,
and how many searches had none (no worker came free in time: the normal level's move).
Each ``AI_PROCESSES`` value of ``--ai-processes`` is run in turn (``--repeat`` times): 0
searches in a worker thread of the bot's process (the design before), 1 or more in that many
worker processes (``bot/service/thinkers.py``). **The baseline**, in the same run: the same
rounds with no search thinking. Not a timed test.

    .venv/bin/python benchmarks/bench_thinking.py [--players 16] [--rounds 6] [--thinking 2]
        [--ai-processes 0 1] [--repeat 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_bot import Run, pct, through_discord


def line(label: str, run: Run, baseline: Run | None, searches: list[tuple[float, int]]) -> str:
    p50, p99 = pct(run.answers, 0.5), pct(run.answers, 0.99)
    ratio = f"{p99 / pct(baseline.answers, 0.99):.1f}x" if baseline is not None else "1.0x"
    cpu = f"{run.cpu / len(run.answers) * 1000:.1f}" if run.cpu is not None and run.answers else "-"
    if searches:
        times = [ms for ms, _rollouts in searches]
        rollouts = sum(r for _ms, r in searches) / len(searches)
        unsearched = sum(1 for _ms, r in searches if r == 0)  # no worker in time: the normal level's move
        thought = (
            f"{len(searches)}: p50 {pct(times, 0.5):.0f} ms, p99 {pct(times, 0.99):.0f} ms, {rollouts:.0f} rollouts, "
            f"{unsearched} with none"
        )
    else:
        thought = "-"
    return f"| {label} | {len(run.answers)} | {p50:.1f} | {p99:.1f} | {max(run.answers):.1f} | {cpu} | {thought} | {ratio} |"


def searched(path: Path) -> list[tuple[float, int]]:
    if not path.exists():
        return []
    rows = [row.split() for row in path.read_text().splitlines() if row.strip()]
    return [(float(ms), int(rollouts)) for ms, rollouts in rows]


async def main(players: int, rounds: int, thinking: int, processes: list[int], repeat: int) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{players} players moving at once, {rounds} rounds a run; the bot in a process of its own; load average {load:.2f} at the start"
    )
    print(
        "| hard AI searches thinking meanwhile | moves | p50 ms | p99 ms | max ms | bot process CPU a move ms (worker processes not counted) "
        "| searches: time from asked to answered, rollouts a search (mean) | p99 over the baseline |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for _ in range(repeat):
        baseline = await through_discord(players, rounds)
        print(line("none (**the baseline**)", baseline, None, []), flush=True)
        for workers in processes:
            times = Path(tempfile.mkdtemp()) / "searches"
            env = {
                "BENCH_THINKING": str(thinking),
                "AI_PROCESSES": str(workers),
                "BENCH_THINKING_TIMES": str(times),
            }
            run = await through_discord(players, rounds, extra_env=env)
            where = (
                "in a worker thread of the bot's process"
                if workers == 0
                else f"in {workers} worker process{'es' if workers > 1 else ''}"
            )
            print(line(f"{thinking}, {where}", run, baseline, searched(times)), flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end" if hasattr(os, "getloadavg") else "")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=16, help="players moving at once (even)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument(
        "--thinking", type=int, default=2, help="hard AI searches thinking without pause meanwhile"
    )
    parser.add_argument(
        "--ai-processes",
        type=int,
        nargs="+",
        default=[0, 1],
        help="AI_PROCESSES values to compare (0: a thread)",
    )
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.players, args.rounds, args.thinking, args.ai_processes, args.repeat))
