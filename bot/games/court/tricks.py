"""Tricks: what a set of played cards is (single, pair, three or four of a kind, straight
flush), which hands tie or beat the lead, and duels."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.court.cards import natural, rank, suit, trick_rank

SINGLE, PAIR, TRIPS, QUADS, FLUSH = "single", "pair", "three of a kind", "four of a kind", "straight flush"
KIND_BY_SIZE = {1: SINGLE, 2: PAIR, 3: TRIPS, 4: QUADS, 5: FLUSH}
MAX_LEAD = 5


@dataclass(frozen=True, slots=True, order=True)
class TrickHand:
    """A legal hand: its type and its trick rank (a straight flush: its highest card's)."""

    kind: str
    strength: int


def classify(cards: Sequence[str]) -> TrickHand | None:
    """The legal hand these cards form, or None (a follower's mixed cards)."""
    size = len(cards)
    if size == 0 or size > MAX_LEAD:
        return None
    if size < 5:
        if len({rank(c) for c in cards}) != 1:
            return None
        return TrickHand(KIND_BY_SIZE[size], trick_rank(cards[0]))
    if len({suit(c) for c in cards}) != 1:
        return None
    order = sorted(natural(c) for c in cards)
    if order != list(range(order[0], order[0] + 5)):
        return None
    return TrickHand(FLUSH, max(trick_rank(c) for c in cards))


def best_seats(lead: TrickHand, played: Sequence[tuple[int, Sequence[str]]]) -> list[int]:
    """The seats holding the best hand of the trick, in play order (the leader first).

    ``played`` is (seat, cards) in play order, the lead first. Only hands of the lead's type
    count; a follower beats the lead only with a higher rank; equal best hands all stay
    (they duel)."""
    hands = [(seat, classify(cards)) for seat, cards in played]
    same = [(seat, h) for seat, h in hands if h is not None and h.kind == lead.kind]
    top = max(h.strength for _seat, h in same)
    return [seat for seat, h in same if h.strength == top]


def duel_round(laid: Sequence[tuple[int, str | None]]) -> list[int]:
    """One round of a duel: each duelist's single card (None: could not lay and loses).

    Returns the seats still tied for the highest card (one seat: the duel's winner). If
    nobody could lay, the first duelist wins (the one who played first in the trick)."""
    cards = [(seat, card) for seat, card in laid if card is not None]
    if not cards:
        return [laid[0][0]]
    top = max(trick_rank(card) for _seat, card in cards)
    return [seat for seat, card in cards if trick_rank(card) == top]
