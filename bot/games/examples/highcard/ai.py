"""High Card's AI: pass the two lowest cards; play the highest card in the first rounds
that can still be won, else the lowest."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.examples.highcard.state import HighCardState


def choose(state: HighCardState, seat: int, moves: list[Move]) -> Move:
    if state.passing:
        return moves[0]  # the Pick's own choice: the two lowest cards
    left = state.rounds - state.round + 1
    return moves[-1] if left > len(moves) // 2 else moves[0]
