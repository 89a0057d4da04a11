"""The hard AI (bot/games/search.py): its move time per game, and its strength.

    python benchmarks/bench_search.py                       # every game, the default budgets
    python benchmarks/bench_search.py --games dreams --matches 200 --seconds 900
    python benchmarks/bench_search.py --games four --players 3 --rollouts 128 --skip-times

Two parts:

* **move time**: the hard AI as the bot runs it (a deadline of ``--think`` seconds checked
  before each rollout, at most ``SERVICE_ROLLOUTS`` rollouts), over the decisions of a few
  matches per game where a seat has more than one move; p50 and p99 in ms.
* **strength**: whole matches, hard against normal and normal against easy (random legal),
  at each game's usual player count (``--players`` for another), with a fixed rollout budget per hard move (a fixed
  budget keeps the figures reproducible and affordable on a small shared machine). One seat
  plays the first level and the others the second, the first level's seat turned round the
  table match by match. A pairing stops after ``--matches`` matches or ``--seconds``,
  whichever comes first. Printed: the first level's share of first places per seat against
  the fair share, with a 95% interval. ``--as-the-bot`` gives each hard move the bot's
  deadline instead (``--think`` seconds, at most ``SERVICE_ROLLOUTS``): the strength the bot
  plays at on this machine, each worker process on a core of its own (no longer
  reproducible: the rollouts a move gets depend on the machine's speed and load).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import GAMES, search
from bot.games.base import Rng
from bot.games.search import search_move
from bot.simulate import _percentile, play_levels, seat_levels

# game id -> (players, options, rollouts per hard move in the strength runs)
SETUPS: dict[str, tuple[int, dict[str, str], int]] = {
    "crown": (2, {"variant": "tourney"}, 256),
    "dynasty": (2, {"hands": "1", "deck": "classic"}, 256),
    "four": (4, {"deals": "1"}, 48),
    "dreams": (2, {}, 48),
    "court": (4, {"target": "120"}, 128),
}
SERVICE_ROLLOUTS = 4_000  # the service's cap; its deadline is what binds
OPTIONS: dict[str, str] = {}  # --option: lobby options over the game's setup (both parts)


def options_of(game_id: str) -> dict[str, str]:
    game = GAMES[game_id]
    opts = {o.key: o.default_value for o in game.options}
    opts.update(SETUPS[game_id][1])
    opts.update((k, v) for k, v in OPTIONS.items() if k in opts)
    return opts


def move_times(game_id: str, players: int, think: float, matches: int) -> tuple[list[float], list[int]]:
    """Seconds and rollouts per hard move under the service's deadline, over ``matches``
    matches of ``players`` played by the game's AI (every decision with a choice is
    searched, the AI's move is played)."""
    game = GAMES[game_id]
    opts = options_of(game_id)
    times: list[float] = []
    rollouts: list[int] = []
    for m in range(matches):
        state = game.setup(players, 1000 + m, opts)
        rng = Rng.from_seed(m)
        while game.outcome(state) is None and len(times) < 40 * (m + 1):
            seat, rng = rng.choice(sorted(game.to_act(state)))
            if len(game.legal_moves(state, seat)) > 1:
                start = time.perf_counter()
                deadline = start + think
                result = search_move(
                    game, state, seat, m, SERVICE_ROLLOUTS, lambda d=deadline: time.perf_counter() >= d
                )
                times.append(time.perf_counter() - start)
                rollouts.append(result.rollouts)
            _, rng = rng.next64()
            state, _ = game.apply(state, seat, game.ai_move(state, seat, rng))
    return times, rollouts


def _sees_everything(game: object, state: object, seat: int, rng: Rng) -> object:
    """``--oracle``: the determinization is the real state, every hand and the generator
    that will shuffle and deal what is to come included."""
    return state


def _init_worker(overrides: dict[str, float], options: dict[str, str], oracle: bool = False) -> None:
    """A worker process: the ``--option`` lobby options, ``--set`` overrides
    (experiments): a search constant (``CONFIDENCE=2``) or a game's attribute
    (``four.search.margin=0``), and ``--oracle`` (the hard level searches the real state)."""
    OPTIONS.update(options)
    if oracle:
        search._determinize = _sees_everything  # type: ignore[assignment]
    for name, value in overrides.items():
        owner: object = search
        if "." in name:
            game_id, name = name.split(".", 1)
            game = GAMES[game_id]
            if name.startswith("search."):  # four.search.margin=0: a field of the game's search hints
                key = name.split(".", 1)[1]
                current = getattr(game.search, key)
                kind = int if key == "horizon" else type(current)
                game.info = replace(game.info, search=replace(game.search, **{key: kind(value)}))
                continue
            owner = game
        setattr(owner, name, type(getattr(owner, name))(value))


def _one_match(job: tuple[str, int, list[str], int, int, float | None]) -> list[float]:
    """One match of a pairing: each seat's share of first places (worker process)."""
    game_id, players, levels, number, rollouts, think = job
    these = seat_levels(levels, players, number)
    _done, _moves, shares = play_levels(
        GAMES[game_id], players, 7_000_000 + number, options_of(game_id), these, rollouts, think=think
    )
    return [s for level, s in zip(these, shares) if level == levels[0]]


def strength(
    game_id: str,
    players: int,
    first: str,
    second: str,
    matches: int,
    seconds: float,
    rollouts: int,
    workers: int = 2,
    overrides: dict[str, float] | None = None,
    progress: int = 0,
    first_match: int = 0,
    oracle: bool = False,
    think: float | None = None,
) -> tuple[float, int, float]:
    """(first level's share of first places, matches played, seconds). Matches run in
    ``workers`` processes; match ``k`` always has the same seed and seating, and the
    matches counted are the first ones (in order) finished within ``seconds``."""
    levels = [first] + [second] * (players - 1)
    jobs = [(game_id, players, levels, k, rollouts, think) for k in range(first_match, first_match + matches)]
    share = 0.0
    played = 0
    start = time.perf_counter()
    with multiprocessing.Pool(workers, _init_worker, (overrides or {}, OPTIONS, oracle)) as pool:
        for shares in pool.imap(_one_match, jobs):
            if time.perf_counter() - start > seconds:
                break
            share += sum(shares)
            played += 1
            if progress and played % progress == 0:
                print(
                    f"  ... {game_id} {first} vs {second}: {share / played:.1%} after {played} matches",
                    flush=True,
                )
        pool.terminate()
    return share / max(1, played), played, time.perf_counter() - start


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share measured over ``n`` matches."""
    if n == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(SETUPS))
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=600.0, help="time cap per pairing")
    parser.add_argument("--think", type=float, default=0.8, help="the service's thinking budget per move")
    parser.add_argument("--time-matches", type=int, default=2)
    parser.add_argument("--players", type=int, help="players at the table (default: per game)")
    parser.add_argument("--rollouts", type=int, help="rollouts per hard move (default: per game)")
    parser.add_argument("--skip-times", action="store_true")
    parser.add_argument("--skip-strength", action="store_true")
    parser.add_argument("--pairings", default="hard-normal,normal-easy", help="first-second level pairs")
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the strength matches")
    parser.add_argument(
        "--first", type=int, default=0, help="number of the first match (to go on from an earlier run)"
    )
    parser.add_argument("--progress", type=int, default=0, help="print the running share every N matches")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a search constant or a game's attribute (GAME.NAME=VALUE), for experiments",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a lobby option over the game's setup (say --option hands=5 for dynasty's default length)",
    )
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="the hard level searches the real state: every hand and the cards to come (how much of a game is luck the search cannot beat even seeing everything)",
    )
    parser.add_argument(
        "--as-the-bot",
        action="store_true",
        help="strength with the bot's deadline for each hard move (--think seconds, at most SERVICE_ROLLOUTS rollouts) instead of a fixed --rollouts",
    )
    args = parser.parse_args()
    OPTIONS.update(item.split("=", 1) for item in args.option)
    overrides = {k: float(v) for k, v in (item.split("=", 1) for item in args.set)}
    for game_id in args.games.split(","):
        players = args.players or SETUPS[game_id][0]
        rollouts = args.rollouts or SETUPS[game_id][2]
        think = args.think if args.as_the_bot else None
        if not args.skip_times:
            times, played = move_times(game_id, players, args.think, args.time_matches)
            print(
                f"{game_id} {players}p: hard move time over {len(times)} moves (deadline {args.think:.1f} s): "
                f"p50 {_percentile(times, 0.5) * 1000:.0f} ms, p99 {_percentile(times, 0.99) * 1000:.0f} ms; "
                f"rollouts per move: mean {sum(played) / max(1, len(played)):.0f}, "
                f"p10 {_percentile([float(r) for r in played], 0.1):.0f}",
                flush=True,
            )
        if args.skip_strength:
            continue
        fair = 1 / players
        for first, second in (pair.split("-") for pair in args.pairings.split(",")):
            if "hard" not in (first, second):
                budget = "-"
            elif think is None:
                budget = f"{rollouts} rollouts/move"
            else:
                budget = f"{think:g} s a move (at most {SERVICE_ROLLOUTS} rollouts)"
            share, played, took = strength(
                game_id,
                players,
                first,
                second,
                args.matches,
                args.seconds,
                rollouts if think is None else SERVICE_ROLLOUTS,
                args.workers,
                overrides,
                args.progress,
                args.first,
                args.oracle,
                think,
            )
            low, high = wilson(share, played)
            print(
                f"{game_id} {players}p {first} vs {second}: {share:.1%} of first places "
                f"(fair {fair:.1%}, {share / fair:.2f}x; 95% interval {low:.1%}-{high:.1%}, "
                f"{low / fair:.2f}x-{high / fair:.2f}x) over {played} matches, "
                f"{budget}, {took:.0f} s{''.join(' ' + x for x in args.option + args.set)}{' oracle' if args.oracle else ''}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
