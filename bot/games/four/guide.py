"""A guided match's explanations and a hint's reasons for Kingdom Four, from what the seat
sees: its hand, the field and everyone's captures (all public)."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.four.cards import captures
from bot.games.four.moves import legal_moves
from bot.games.four.scoring import score
from bot.games.four.state import PLAY, TAKE, FourState


def situations(state: FourState, seat: int) -> tuple[tuple[str, str], ...]:
    if state.turn != seat:
        return ()
    if state.phase == PLAY:
        found = [
            (
                "play",
                (
                    "Your turn: play a card to the field, then the top card of the pile is flipped and "
                    "played for you. A card of the same colour and item captures: all three of its group "
                    "if they lie in the field, else one match (your choice). Captures score at the end of "
                    "the hand: the King (one number's four items in one colour), the Queen (straights) "
                    "and the Joker (an item's numbers adding up to 12 or more)."
                ),
            )
        ]
        if any("takes" in move.label for move in legal_moves(state, seat)):
            found.append(("capture", "Some of your cards capture now: the button says what each one takes."))
        return tuple(found)
    if state.phase == TAKE:
        return (
            ("take", "The flipped card matches more than one card in the field: choose which one it takes."),
        )
    return ()


def hint_reason(state: FourState, seat: int, move: Move) -> str | None:
    if move.kind == TAKE:
        taken: tuple[str, ...] = (state.pending, move.args[0])
    elif move.kind == PLAY and len(move.args) > 1:
        taken = (move.args[0], move.args[1])
    elif move.kind == PLAY:
        options = captures(state.field, move.args[0])
        if not options:
            return "it captures nothing, but leaves the field nothing you would rather keep"
        taken = (move.args[0], *options[0])
    else:
        return None
    mine = state.captured[seat]
    before, after = score(mine).total, score((*mine, *taken)).total
    if after > before:
        return f"your captures would score {after} instead of {before}"
    return "it captures, and every capture is a step toward a set"
