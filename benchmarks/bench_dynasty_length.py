"""How long King's Dynasty matches last at the default length (5 hands, or the limit).

For every deck and 2, 4, 6 and 8 players, plays AI-only matches and prints the median moves
per match, the estimated minutes at six seconds a move (as if every move were a person's),
the median moves a hand, and the share of matches in which a safety valve ended a hand (the
150-round cap, or the match-level turn cap) rather than the rules. ``--random`` seats random
legal players everywhere instead, for comparison: ``plays`` plays a random card when it has a
play and otherwise draws or passes (RLCard's UNO rule, the random agent of the issue's
figures); ``uniform`` picks among all legal moves, voluntary draws too, so its hands rarely
end. Not a timed test.

    .venv/bin/python benchmarks/bench_dynasty_length.py [--games 200] [--hands 5]
        [--decks classic,dynasty,bonus] [--players 2,4,6,8] [--random plays|uniform]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.base import Move, Rng
from bot.games.dynasty import GAME

VALVE = "gone on far too long"
HAND_OVER = " over: "  # "Hand 3 over: ..."


def random_move(moves: list[Move], rng: Rng, kind: str) -> Move:
    """A random legal move: ``uniform`` over all of them, or (``plays``) over the card plays
    when there is one."""
    if kind == "plays":
        plays = [m for m in moves if m.code[:2] in ("p:", "t:")]
        moves = plays or moves
    return moves[rng.below(len(moves))[0]]


def play(
    options: dict[str, str], players: int, seed: int, random_seats: str = ""
) -> tuple[int, list[int], bool]:
    """(moves in the match, moves of each hand, whether a valve ended a hand)."""
    state = GAME.setup(players, seed, options)
    rng = Rng.from_seed(seed ^ 0xA5A5)
    moves = 0
    hands: list[int] = []
    start = 0
    valve = False
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        draw, rng = rng.next64()
        if random_seats:
            move = random_move(GAME.legal_moves(state, seat), Rng(draw), random_seats)
        else:
            move = GAME.ai_move(state, seat, Rng(draw))
        state, events = GAME.apply(state, seat, move)
        moves += 1
        valve = valve or any(VALVE in e.text for e in events)
        if any(HAND_OVER in e.text for e in events):
            hands.append(moves - start)
            start = moves
    return moves, hands, valve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--hands", default="5")
    parser.add_argument("--decks", default="classic,dynasty,bonus")
    parser.add_argument("--players", default="2,4,6,8")
    parser.add_argument(
        "--random", choices=("plays", "uniform"), default="", help="random legal players at every seat"
    )
    args = parser.parse_args()
    print(
        "| deck | players | median moves | minutes at 6 s a move | median moves a hand | ended by a safety valve |"
    )
    print("|---|---|---|---|---|---|")
    for deck in args.decks.split(","):
        for players in (int(x) for x in args.players.split(",")):
            options = {"deck": deck, "hands": args.hands}
            results = [play(options, players, i, args.random) for i in range(args.games)]
            median = statistics.median(m for m, _h, _v in results)
            per_hand = statistics.median(h for _m, hs, _v in results for h in hs)
            valves = sum(v for _m, _h, v in results)
            print(
                f"| {deck} | {players} | {median:.0f} | {median * 6 / 60:.0f} | {per_hand:.0f} "
                f"| {valves}/{args.games} ({valves / args.games:.1%}) |",
                flush=True,
            )


if __name__ == "__main__":
    main()
