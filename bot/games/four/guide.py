"""A guided match's explanations and a hint's reasons for Kingdom Four, from what the seat
sees: its hand, the field and everyone's captures (all public)."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.four.cards import captures
from bot.games.four.scoring import score
from bot.games.four.state import PLAY, TAKE, FourState

PLAY_TEXT = (
    "Your turn: play a card to the field, then the top card of the pile is flipped and played for "
    "you. A card of the same colour and item captures a card it matches; one that matches nothing "
    "stays in the field."
)
SCORING = (
    "Your captures score at the end of the hand: the King (one number's four items in one colour), "
    "the Queen (straights of one colour) and the Joker (an item's numbers adding up to 12 or more)."
)
BY_CAPTURE = (
    ("capture", "Some of your cards capture now: the button says what each one takes."),
    ("group", "Three cards of one group lie in the field: the fourth card of that group takes all three."),
    ("choose", "A card that matches several cards in the field takes one of them: you choose which."),
    (
        "nothing",
        (
            "None of your cards captures now. The card you play stays in the field, where a player "
            "holding its match may take it: give away the least."
        ),
    ),
)


def situations(state: FourState, seat: int) -> tuple[tuple[str, str], ...]:
    if state.turn != seat:
        return ()
    if state.phase == PLAY:
        found = [("play", PLAY_TEXT)]
        if state.captured[seat]:
            found.append(("scoring", SCORING))
        options = [captures(state.field, card) for card in state.hands[seat]]
        seen = {
            "capture": any(options),
            "group": any(len(o) == 1 and len(o[0]) == 3 for o in options),
            "choose": any(len(o) > 1 for o in options),
            "nothing": not any(options),
        }
        found += [(key, text) for key, text in BY_CAPTURE if seen[key]]
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
