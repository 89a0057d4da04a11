"""Kingdom of Dreams' cards: one 52-card deck and a joker, split into five piles by rank.

A card is a short code: its rank and its suit letter (``"As"``, ``"10h"``, ``"Jd"``,
``"Qc"``, ``"Kh"``), and ``"X"`` for the joker. Ranks A-6 are coins (value = rank, ace 1),
the 7s and the joker are the trump pile, 8-10 are attack cards, then Jacks, Queens and one
King.
"""

from __future__ import annotations

from functools import lru_cache

SUITS = ("s", "h", "d", "c")
SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAME = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
JOKER = "X"

COIN, TRUMP, ATTACK, JACK, QUEEN, KING = "coin", "trump", "attack", "jack", "queen", "king"
KINDS = (COIN, ATTACK, JACK, QUEEN, KING)  # the kinds a player can hold, in hand order

COIN_RANKS = ("A", "2", "3", "4", "5", "6")
ATTACK_RANKS = ("8", "9", "10")

COINS: tuple[str, ...] = tuple(r + s for r in COIN_RANKS for s in SUITS)
TRUMPS: tuple[str, ...] = tuple("7" + s for s in SUITS) + (JOKER,)
ATTACKS: tuple[str, ...] = tuple(r + s for r in ATTACK_RANKS for s in SUITS)
JACKS: tuple[str, ...] = tuple("J" + s for s in SUITS)
QUEENS: tuple[str, ...] = tuple("Q" + s for s in SUITS)
KINGS: tuple[str, ...] = tuple("K" + s for s in SUITS)  # one of them is in play

PRICE = {ATTACK: 5, JACK: 10, QUEEN: 20, KING: 40}
SALE = {ATTACK: 5, JACK: 10}  # Queens and the King cannot be sold or traded in


def rank(card: str) -> str:
    return card if card == JOKER else card[:-1]


def suit(card: str) -> str:
    return "" if card == JOKER else card[-1]


@lru_cache(maxsize=256)  # every card of the deck fits: the AI asks this of each card it weighs
def kind(card: str) -> str:
    r = rank(card)
    if r in COIN_RANKS:
        return COIN
    if r == "7" or card == JOKER:
        return TRUMP
    if r in ATTACK_RANKS:
        return ATTACK
    return {"J": JACK, "Q": QUEEN, "K": KING}[r]


@lru_cache(maxsize=256)
def number(card: str) -> int:
    """A coin's value or an attack card's number (ace 1); 0 for other cards."""
    r = rank(card)
    if r == "A":
        return 1
    return int(r) if r.isdigit() else 0


def value(card: str) -> int:
    """What a card is worth to its holder: coins their number, other cards their price."""
    k = kind(card)
    return number(card) if k == COIN else PRICE.get(k, 0)


def name(card: str) -> str:
    """The short label players read: ``"10♥"``, ``"J♠"``, ``"Joker"``."""
    if card == JOKER:
        return "Joker"
    return rank(card) + SUIT_SYMBOL[suit(card)]


_SORT_RANK = {r: i for i, r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))}


def sort_key(card: str) -> tuple[int, int]:
    if card == JOKER:
        return (99, 0)
    return (_SORT_RANK[rank(card)], SUITS.index(suit(card)))


def sorted_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def of_kind(cards: tuple[str, ...], wanted: str) -> tuple[str, ...]:
    return tuple(c for c in cards if kind(c) == wanted)


def coin_total(cards: tuple[str, ...]) -> int:
    return sum(number(c) for c in cards if kind(c) == COIN)


def total_value(cards: tuple[str, ...]) -> int:
    return sum(value(c) for c in cards)
