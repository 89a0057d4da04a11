"""Whole matches without a table, for the README's figures and the tests: the AI's win rate
against random legal play, and how long AI-only matches last.

    python -m bot.games.dreams.evaluate 1000

No timing here (engines never read the clock).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping

from bot.games.base import Rng
from bot.games.dreams.game import GAME
from bot.games.dreams.state import DreamsState

HUMAN_SECONDS_PER_MOVE = 6


def play_match(
    players: int, seed: int, options: Mapping[str, str], ai_seats: frozenset[int]
) -> tuple[DreamsState, int]:
    """One whole match: seats in ``ai_seats`` play ``ai_move``, the others a uniformly random
    legal move. Returns the final state and the number of moves."""
    state = GAME.setup(players, seed, options)
    rng = Rng.from_seed(seed ^ 0xD8EA)
    moves = 0
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_moves(state, seat)
        if seat in ai_seats:
            draw, rng = rng.next64()
            move = GAME.ai_move(state, seat, Rng(draw))
        else:
            move, rng = rng.choice(legal)
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    return state, moves


def ai_vs_random(matches: int, seed: int = 0) -> tuple[int, int]:
    """(AI wins, matches) over 2-player matches, the AI alternating seats. A win is a first
    place the random player does not share."""
    wins = 0
    for i in range(matches):
        ai_seat = i % 2
        final, _ = play_match(2, seed + i, {}, frozenset({ai_seat}))
        outcome = GAME.outcome(final)
        assert outcome is not None
        places = {r.seat: r.place for r in outcome.results}
        wins += places[ai_seat] == 1 and places[1 - ai_seat] != 1
    return wins, matches


def match_lengths(players: int, matches: int, turns: str = "0", seed: int = 0) -> tuple[float, Counter[str]]:
    """The median number of moves of AI-only matches, and how they ended (king / cap / valve)."""
    lengths = []
    endings: Counter[str] = Counter()
    for i in range(matches):
        final, moves = play_match(players, seed + i, {"turns": turns}, frozenset(range(players)))
        lengths.append(moves)
        endings[final.ended] += 1
    return statistics.median(lengths), endings


def main() -> None:
    import sys

    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    wins, total = ai_vs_random(matches)
    print(f"AI vs random legal play, 2 players: {wins}/{total} won ({100 * wins / total:.1f}%)")
    for turns in ("0", "15", "25", "40"):
        for players in (2, 3, 4):
            median, endings = match_lengths(players, matches, turns)
            minutes = median * HUMAN_SECONDS_PER_MOVE / 60
            print(
                f"turn cap {turns}, {players} players: median {median:g} moves (~{minutes:.1f} min at "
                f"{HUMAN_SECONDS_PER_MOVE} s a move); endings {dict(endings)}"
            )


if __name__ == "__main__":
    main()

__all__ = ["ai_vs_random", "main", "match_lengths", "play_match"]
