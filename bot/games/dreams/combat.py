"""Who wins an attack: same-suit attack cards compare numbers; otherwise the trump pile.

The trump pile (the four 7s and the joker) is flipped: the joker on top sends both cards
back to their piles; otherwise the suit whose 7 lies nearer the top wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.dreams.cards import ATTACK, JOKER, SUIT_SYMBOL, kind, name, number, suit

ATTACKER, DEFENDER, NOBODY = "attacker", "defender", "nobody"


@dataclass(frozen=True, slots=True)
class Verdict:
    winner: str  # ATTACKER, DEFENDER or NOBODY (the joker came up)
    flipped: bool  # the trump pile was turned over (and must be reshuffled)
    reason: str  # one public sentence


def suit_order(trump_pile: tuple[str, ...]) -> tuple[str, ...]:
    """The suits from strongest to weakest: the order of the 7s from the top."""
    return tuple(suit(c) for c in trump_pile if c != JOKER)


def trump_text(trump_pile: tuple[str, ...]) -> str:
    return " ".join(name(c) for c in trump_pile)


def resolve(attacking: str, countering: str, trump_pile: tuple[str, ...]) -> Verdict:
    if kind(attacking) == ATTACK and suit(attacking) == suit(countering):
        higher = ATTACKER if number(attacking) > number(countering) else DEFENDER
        best = max(number(attacking), number(countering))
        return Verdict(higher, False, f"Same suit: the {best} is higher.")
    shown = f"The trump pile is flipped: {trump_text(trump_pile)}."
    if trump_pile[0] == JOKER:
        return Verdict(NOBODY, True, f"{shown} The joker is on top: both cards go back to their piles.")
    order = suit_order(trump_pile)
    strong = ATTACKER if order.index(suit(attacking)) < order.index(suit(countering)) else DEFENDER
    ranking = " > ".join(SUIT_SYMBOL[s] for s in order)
    return Verdict(strong, True, f"{shown} Suits rank {ranking}.")


def beats(mine: str, theirs: str, trump_pile: tuple[str, ...]) -> bool | None:
    """Whether ``mine`` (attacking) would beat ``theirs`` with this trump pile; None when
    both would go back (the joker on top)."""
    verdict = resolve(mine, theirs, trump_pile)
    return None if verdict.winner == NOBODY else verdict.winner == ATTACKER
