"""The hard AI's rollout cost per game: one rollout is a match played out to its end with
the game's own ``ai_move`` for every seat (``bot/games/search.py``, ``_rollout``).

    python benchmarks/bench_rollout.py                          # four, dreams, court
    python benchmarks/bench_rollout.py --games dynasty          # King's Dynasty (one hand)
    python benchmarks/bench_rollout.py --baseline 57d85e3       # and the same at a commit

The positions are those of a few matches played by the game's AI (one every ``--every``
decisions where the seat has a choice); the hard AI searches each with ``--rollouts``
rollouts (``search_move``, as the bot does but with a fixed budget), and the CPU time per
rollout is printed (CPU time: less swayed by the other work of a shared machine). With
``--baseline REV`` the engines of commit ``REV`` (``git archive`` of ``bot/``) search the
same positions in a subprocess, alternating with the work tree's, and the ratio is printed.
The check is the sum of the searches' candidate values: equal on both sides when every
rollout plays the same moves.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name -> (game id, players, options)
SETUPS: dict[str, tuple[str, int, dict[str, str]]] = {
    "four": ("four", 4, {}),
    "four3": ("four", 3, {}),
    "four-wild": ("four", 4, {"wild": "on"}),
    "dreams": ("dreams", 2, {}),
    "dreams4": ("dreams", 4, {}),
    "court": ("court", 4, {}),
    "dynasty": ("dynasty", 4, {"hands": "1"}),
}
BUDGET = 0.8  # the service's thinking time per hard move, in seconds


def worker(name: str, matches: int, every: int, rollouts: int) -> dict[str, float]:
    """Search the sampled positions (run inside the tree to measure)."""
    from bot.games import GAMES
    from bot.games.base import Rng
    from bot.games.search import search_move

    game_id, players, options = SETUPS[name]
    game = GAMES[game_id]
    opts = {o.key: o.default_value for o in game.options}
    opts.update(options)
    positions = []
    for m in range(matches):
        state = game.setup(players, 100 + m, opts)
        rng = Rng.from_seed(m)
        decision = 0
        while game.outcome(state) is None:
            seat, rng = rng.choice(sorted(game.to_act(state)))
            if decision % every == 0 and len(game.legal_moves(state, seat)) > 1:
                positions.append((state, seat))
            _, rng = rng.next64()
            state, _ = game.apply(state, seat, game.ai_move(state, seat, rng))
            decision += 1
    start = time.process_time()  # CPU time: less swayed by the other processes of a shared machine
    results = [search_move(game, state, seat, i, rollouts) for i, (state, seat) in enumerate(positions)]
    seconds = time.process_time() - start
    played = sum(r.rollouts for r in results)
    check = sum(sum(r.values.values()) for r in results)  # equal when every rollout plays the same moves
    ms = (
        1000 * seconds / played if played else math.inf
    )  # none: every position pruned to one move, or too few rollouts
    return {"positions": len(positions), "rollouts": played, "ms": ms, "check": round(check, 6)}


def run_worker(tree: Path, name: str, matches: int, every: int, rollouts: int) -> dict[str, float]:
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            name,
            "--tree",
            str(tree),
            "--matches",
            str(matches),
            "--every",
            str(every),
            "--rollouts",
            str(rollouts),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def export(rev: str, into: Path) -> Path:
    """The ``bot`` package of commit ``rev``, unpacked into ``into``."""
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "bot"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="four,four3,dreams,dreams4,court")
    parser.add_argument("--baseline", help="a git revision to compare with")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the fastest counts")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--every", type=int, default=10, help="one position every this many decisions")
    parser.add_argument("--rollouts", type=int, default=32, help="rollouts per searched position")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, args.tree)
        print(json.dumps(worker(args.worker, args.matches, args.every, args.rollouts)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        base = export(args.baseline, Path(tmp)) if args.baseline else None
        for name in args.games.split(","):
            now: list[dict[str, float]] = []
            then: list[dict[str, float]] = []
            for _ in range(args.repeat):
                now.append(run_worker(ROOT, name, args.matches, args.every, args.rollouts))
                if base is not None:
                    then.append(run_worker(base, name, args.matches, args.every, args.rollouts))
            best = min(now, key=lambda r: r["ms"])
            if not best["rollouts"]:
                print(
                    f"{name}: no rollout played from {best['positions']:.0f} positions (raise --rollouts or --matches)"
                )
                continue
            line = (
                f"{name}: {best['ms']:.2f} ms a rollout ({BUDGET / best['ms'] * 1000:.0f} in {BUDGET} s) "
                f"({best['rollouts']:.0f} rollouts from {best['positions']:.0f} positions), check {best['check']}"
            )
            if then:
                old = min(then, key=lambda r: r["ms"])
                same = "same" if old["check"] == best["check"] else "DIFFERENT"
                line += f"; {args.baseline}: {old['ms']:.2f} ms, check {old['check']} ({same}); {old['ms'] / best['ms']:.2f}x faster"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
