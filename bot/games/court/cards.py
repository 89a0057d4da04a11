"""The French deck of King's Court: card codes, names, trick rank and natural order.

A card is a two-character code, rank then suit: ``"7h"`` is the 7 of hearts, ``"Ts"`` the
10 of spades, ``"Kd"`` the King of diamonds. Kings are the secret suit cards and never
reach a hand; the 48 others are played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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

MIN_RUN = 3  # the shortest run that courts or scores in hand

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


def runs(cards: Iterable[str], least: int) -> list[tuple[str, ...]]:
    """Maximal runs of ``least``+ cards of one suit in natural order."""
    by_suit: dict[str, dict[int, str]] = {}
    for c in cards:
        by_suit.setdefault(suit(c), {})[natural(c)] = c
    out = []
    for s in sorted(by_suit):
        numbers = by_suit[s]
        n = 1
        while n <= len(RANKS):
            if n in numbers:
                segment = []
                while n in numbers:
                    segment.append(numbers[n])
                    n += 1
                if len(segment) >= least:
                    out.append(tuple(segment))
            n += 1
    return out


def code_cards(code: str) -> list[str]:
    """The cards a move code names after its kind: ``"lead:7h.7s"`` -> ``["7h", "7s"]``."""
    return [part for part in code.partition(":")[2].split(".") if part]


def cards_problem(code: str, within: Sequence[str], where: str) -> str | None:
    """Why the cards a code names are not each once and all in ``within`` (None: they are)."""
    cards = code_cards(code)
    if not cards or ":" not in code:
        return "Choose the cards."
    if len(set(cards)) != len(cards):
        return "Each card once, please."
    missing = [c for c in cards if c not in set(within)]
    return not_there(missing, where) if missing else None


def not_there(cards: Sequence[str], where: str) -> str:
    """The refusal of cards not where a move takes them from, naming them: "You don't hold
    A♥ 3♥." (``where`` is "your hand"), "2♣ is not in the pool."."""
    named = " ".join(label(c) if c[:1] in RANK_LABEL and c[1:] in SUIT_SYMBOL else c for c in cards)
    if where == "your hand":
        return f"You don't hold {named}."
    return f"{named} {'is' if len(cards) == 1 else 'are'} not in {where}."
