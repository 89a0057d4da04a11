"""How long King's Dynasty matches last at the default length (5 hands, or the limit).

For every deck and 2, 4, 6 and 8 players, plays AI-only matches and prints the median moves
per match, the estimated minutes at six seconds a move (as if every move were a person's),
and the share of matches ended by a safety valve (the match-level turn or hand cap) rather
than by the rules. Not a timed test.

    .venv/bin/python benchmarks/bench_dynasty_length.py [--games 200] [--hands 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.base import Rng
from bot.games.dynasty import GAME

VALVE = "gone on far too long"


def play(options: dict[str, str], players: int, seed: int) -> tuple[int, bool]:
    state = GAME.setup(players, seed, options)
    rng = Rng.from_seed(seed ^ 0xA5A5)
    moves = 0
    valve = False
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        draw, rng = rng.next64()
        state, events = GAME.apply(state, seat, GAME.ai_move(state, seat, Rng(draw)))
        moves += 1
        valve = valve or any(VALVE in e.text for e in events)
    return moves, valve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--hands", default="5")
    args = parser.parse_args()
    print("| deck | players | median moves | minutes at 6 s a move | ended by a safety valve |")
    print("|---|---|---|---|---|")
    for deck in ("classic", "dynasty", "bonus"):
        for players in (2, 4, 6, 8):
            results = [play({"deck": deck, "hands": args.hands}, players, seed) for seed in range(args.games)]
            median = statistics.median(m for m, _v in results)
            valves = sum(v for _m, v in results)
            print(f"| {deck} | {players} | {median:.0f} | {median * 6 / 60:.0f} | {valves}/{args.games} ({valves / args.games:.1%}) |", flush=True)


if __name__ == "__main__":
    main()
