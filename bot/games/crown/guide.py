"""A guided match's explanations and a hint's reasons for King and Crown, from what the seat
sees: its own cards and picks, the public reveals, its legal moves."""

from __future__ import annotations

from typing import Any

from bot.games.base import Move
from bot.games.crown.cards import NAME, THWARTS, VALUE

BY_KIND = (
    (
        "pick",
        "pick",
        (
            "Pick a card in secret; every pick is revealed at once. Each card thwarts two others: the "
            "King beats the Knight and the Beggar, the Dragon the King and the Witch, the Knight the "
            "Dragon and the Beggar, the Witch the Knight and the King, the Beggar the Witch and the Dragon."
        ),
    ),
    (
        "reveal",
        "reveal",
        (
            "Five face-down places hide the lord's cards: reveal one. The King wins, the Knight lets you "
            "reveal one more, anything else loses."
        ),
    ),
    (
        "ready",
        "question",
        (
            "Questioning: ask and answer in the channel (lying is allowed). Press ready when you are done; "
            "the King may end it early and then accuses someone of being the Dragon."
        ),
    ),
    (
        "witch",
        "witch",
        "As the Witch you may once reveal every card, then the non-King cards are dealt again.",
    ),
    ("peek", "peek", "You held the Knight when the Witch struck: look at one other player's card."),
    ("accuse", "accuse", "As the King, accuse the player you think holds the Dragon: then the Wise win."),
    ("join", "beggar", "As the Beggar not accused, you may join the Wicked, or stay hidden with the Wise."),
)


def situations(state: Any, seat: int, moves: list[Move]) -> tuple[tuple[str, str], ...]:
    kinds = {move.kind for move in moves}
    found = [(key, text) for kind, key, text in BY_KIND if kind in kinds]
    if "pick" in kinds and getattr(state, "variant", "") == "defend":
        found.append(
            (
                "defend",
                (
                    "Defend: a card thwarted by another revealed card loses; two players play best of "
                    "three, more play until one is left standing."
                ),
            )
        )
    if "pick" in kinds and getattr(state, "variant", "") == "tourney":
        found.append(
            (
                "tourney",
                "Tourney: each card is played once; the higher card takes the round, most rounds win.",
            )
        )
    if "pick" in kinds and getattr(state, "variant", "") == "support":
        found.append(
            ("support", "Support: an even sum of the two picks is the lord's round, an odd sum the vassal's.")
        )
    return tuple(found)


def hint_reason(state: Any, seat: int, move: Move) -> str | None:
    if move.kind != "pick" or not move.args:
        return None
    card = move.args[0]
    variant = getattr(state, "variant", "")
    if variant == "defend":
        beaten = sorted(THWARTS.get(card, ()), key=lambda c: -VALUE[c])
        return f"the {NAME[card]} thwarts the {' and the '.join(NAME[c] for c in beaten)}"
    if variant == "tourney":
        hand = state.hands[seat]
        if VALUE[card] == max(VALUE[c] for c in hand):
            return "your highest card left"
        if VALUE[card] == min(VALUE[c] for c in hand):
            return "your lowest card left, kept for a round you expect to lose"
    if variant == "support":
        return f"its value ({VALUE[card]}) sets the sum you want"
    return None
