"""A guided match's explanations and a hint's reasons for King and Crown, from what the seat
sees: its own cards and picks, the public reveals, its legal moves."""

from __future__ import annotations

from typing import Any

from bot.games.base import Move
from bot.games.crown.cards import DECK, NAME, THWARTS, VALUE
from bot.games.crown.state import PickState

BY_KIND = (
    ("pick", "pick", "Pick a card in secret: every pick is shown at once, when all have picked."),
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


WHEEL = (
    "Each card thwarts two others: the King beats the Knight and the Beggar, the Dragon the King and "
    "the Witch, the Knight the Dragon and the Beggar, the Witch the Knight and the King, the Beggar "
    "the Witch and the Dragon."
)
VARIANT_RULE = {
    "defend": (
        "Defend: a card thwarted by another shown card loses; two players play best of three, more "
        "play until one is left standing. " + WHEEL
    ),
    "tourney": "Tourney: each card is played once; the higher card takes the round, most rounds win.",
    "support": "Support: an even sum of the two picks is the lord's round, an odd sum the vassal's.",
}


def situations(state: Any, seat: int, moves: list[Move]) -> tuple[tuple[str, str], ...]:
    kinds = {move.kind for move in moves}
    found = [(key, text) for kind, key, text in BY_KIND if kind in kinds]
    variant = getattr(state, "variant", "")
    if "pick" in kinds and variant in VARIANT_RULE:
        found.append((variant, VARIANT_RULE[variant]))
    if "pick" in kinds and variant == "defend":
        found.extend(_defend_rounds(state, seat))
    return tuple(found)


def _defend_rounds(state: PickState, seat: int) -> list[tuple[str, str]]:
    """What the last reveal of Defend the King means for ``seat`` (all of it public)."""
    if not state.last_round:
        return []
    if state.last_round == state.round:  # the round is picked again
        return [
            (
                "again",
                (
                    "That reveal decided nothing, so the round is picked again. With two players it "
                    "happens when neither card thwarts the other, as when both pick the same card."
                ),
            )
        ]
    if state.players != 2:
        return [("standing", "You are still standing: every thwarted player went out. Pick again.")]
    mine, theirs = state.last_picks[seat], state.last_picks[1 - seat]
    if mine is None or theirs is None:
        return []
    found = []
    if theirs in THWARTS[mine]:
        found.append(
            (
                "won",
                f"Your {NAME[mine]} thwarted the {NAME[theirs]}: a round to you. Two rounds win the match.",
            )
        )
    elif mine in THWARTS[theirs]:
        beats = " or the ".join(NAME[c] for c in DECK if theirs in THWARTS[c])
        found.append(
            (
                "lost",
                (
                    f"The {NAME[theirs]} thwarted your {NAME[mine]}: a round to them. The {NAME[theirs]} "
                    f"falls to the {beats}; guess what they will pick next."
                ),
            )
        )
    if state.wins == (1, 1):
        found.append(("decider", "One round each: the next round decides the match."))
    return found


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
