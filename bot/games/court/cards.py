"""The French deck of King's Court: card codes, names, trick rank and natural order.

A card is a two-character code, rank then suit: ``"7h"`` is the 7 of hearts, ``"Ts"`` the
10 of spades, ``"Kd"`` the King of diamonds. Kings are the secret suit cards and never
reach a hand; the 48 others are played.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

SUITS = ("c", "d", "h", "s")
SUIT_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_NAME = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q")  # natural order, Kings apart
KING = "K"
RANK_LABEL = {r: ("10" if r == "T" else r) for r in (*RANKS, KING)}

# Trick rank: 7 > A = Q > J > 10 > 9 > 8 > 6 > 5 > 4 > 3 > 2.
TRICK_ORDER = ("2", "3", "4", "5", "6", "8", "9", "T", "J", "Q", "7")
TRICK_RANK = {r: i for i, r in enumerate(TRICK_ORDER)}
TRICK_RANK["A"] = TRICK_RANK["Q"]
INITIATORS = frozenset({"A", "Q", "7"})  # the cards a courted run starts from; worth 15

KINGS = tuple(f"{KING}{s}" for s in SUITS)
DECK = tuple(f"{r}{s}" for s in SUITS for r in RANKS)  # the 48 cards dealt


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


NATURAL = {r: n for n, r in enumerate((*RANKS, KING), start=1)}
SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


def natural(card: str) -> int:
    """Position in natural order: A = 1 ... Q = 12 (K = 13)."""
    return NATURAL[card[0]]


def trick_rank(card: str) -> int:
    return TRICK_RANK[card[0]]


@lru_cache(maxsize=64)  # every card of the deck fits: the legal moves label each card in hand
def label(card: str) -> str:
    """``"10♥"``: the short label shown in hands, the table and selects."""
    return f"{RANK_LABEL[card[0]]}{SUIT_SYMBOL[card[1]]}"


def labels(cards: Iterable[str]) -> str:
    return " ".join(label(c) for c in cards) or "none"


def suit_label(s: str) -> str:
    return f"{SUIT_SYMBOL[s]} {SUIT_NAME[s]}"


def sort_key(card: str) -> tuple[int, int]:
    """Suit, then natural order: the hand's arrangement."""
    return SUIT_ORDER[card[1]], NATURAL[card[0]]


def sorted_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def parse(text: str) -> str | None:
    """A card code from what a player typed: ``7h``, ``10h``, ``7♥``, ``q♠`` (None if not a card)."""
    t = text.strip().upper().replace("10", "T")
    if len(t) != 2:
        return None
    r, s = t[0], t[1]
    symbols = {v: k for k, v in SUIT_SYMBOL.items()}
    s = symbols.get(s, s.lower())
    if r not in RANKS or s not in SUITS:
        return None
    return f"{r}{s}"
