"""A guided match's explanations and a hint's reasons for High Card, from the seat's own hand."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.examples.highcard.cards import number
from bot.games.examples.highcard.state import PASS, PLAY, HighCardState


def situations(state: HighCardState, seat: int, moves: list[Move]) -> tuple[tuple[str, str], ...]:
    kinds = {move.kind for move in moves}
    found = []
    if PASS in kinds:
        found.append(
            ("pass", "Before the first round everyone passes two cards to the left: give away your lowest.")
        )
    if PLAY in kinds:
        found.append(
            ("play", "Play a card face down; when everyone has played, the highest number takes the round.")
        )
    if PLAY in kinds and state.last:
        found.append(
            ("reveal", "The table shows the cards of the last round: count which high cards are gone.")
        )
    return tuple(found)


def hint_reason(state: HighCardState, seat: int, move: Move) -> str | None:
    if move.kind != PLAY or not move.args:
        return None
    hand = state.hands[seat]
    card = number(move.args[0])
    if card == max(number(c) for c in hand):
        return "your highest card is the likeliest to take the round"
    if card == min(number(c) for c in hand):
        return "your lowest card: save the high ones for rounds you can win"
    return None
