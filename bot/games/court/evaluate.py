"""Measure the King's Court AI: ``python -m bot.games.court.evaluate 1000``.

Prints, for each match length of the lobby: the AI's wins against three random legal players
(the AI takes each seat in turn), and the median moves of an AI-only match with the minutes
it would take at six seconds a move.
"""

from __future__ import annotations

import random
import statistics
import sys

from bot.games.base import Rng
from bot.games.court.game import GAME

SECONDS_PER_MOVE = 6


def against_random(matches: int, options: dict[str, str]) -> tuple[int, int]:
    """(AI wins, matches): a win is first place (shared or not)."""
    wins = 0
    for seed in range(matches):
        chooser = random.Random(seed)
        state = GAME.setup(4, seed, options)
        ai_seat = seed % 4
        rng = Rng.from_seed(seed ^ 0xA15EED)
        while (outcome := GAME.outcome(state)) is None:
            seat = state.turn
            if seat == ai_seat:
                move = GAME.ai_move(state, seat, rng)
            else:
                move = chooser.choice(GAME.legal_moves(state, seat))
            state, _events = GAME.apply(state, seat, move)
        wins += any(r.seat == ai_seat and r.place == 1 for r in outcome.results)
    return wins, matches


def ai_only_moves(matches: int, options: dict[str, str]) -> list[int]:
    counts = []
    for seed in range(matches):
        state = GAME.setup(4, seed, options)
        rng = Rng.from_seed(seed ^ 0xA15EED)
        moves = 0
        while GAME.outcome(state) is None:
            state, _events = GAME.apply(state, state.turn, GAME.ai_move(state, state.turn, rng))
            moves += 1
        counts.append(moves)
    return counts


def main(argv: list[str]) -> int:
    matches = int(argv[0]) if argv else 200
    for target, _label in GAME.options[0].choices:
        options = {"target": target}
        wins, total = against_random(matches, options)
        median = statistics.median(ai_only_moves(matches, options))
        minutes = median * SECONDS_PER_MOVE / 60
        print(
            f"target {target}: AI won {wins} of {total} ({100 * wins / total:.1f}%) against random; "
            f"AI-only median {median:.0f} moves, {minutes:.0f} minutes at {SECONDS_PER_MOVE} s a move"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
