"""The King's Keys deck of Kingdom Four: numbers 1-4 in four colours and four items.

A number card is written ``"3Rk"``: number, colour letter (upper case), item letter (lower
case); the 3 of red keys shows three keys. The optional wild cards are written with a star:
a Kingdom card ``"*R"`` (one per colour, no item or number) and a Joker ``"*k"`` (one per
item, no colour or number).

Matching: two number cards match when they share colour and item (a *group*: the four
numbers of one colour and item). A Kingdom card matches every number card of its colour, a
Joker every number card of its item; a wild never matches another wild.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache

COLOURS = ("Y", "R", "G", "B")
ITEMS = ("k", "a", "s", "c")
NUMBERS = (1, 2, 3, 4)
COLOUR_NAME = {"Y": "yellow", "R": "red", "G": "green", "B": "blue"}
COLOUR_EMOJI = {"Y": "🟨", "R": "🟥", "G": "🟩", "B": "🟦"}
ITEM_NAME = {"k": "key", "a": "axe", "s": "shield", "c": "coin"}
ITEM_EMOJI = {"k": "🗝️", "a": "🪓", "s": "🛡️", "c": "🪙"}

NUMBER_CARDS: tuple[str, ...] = tuple(f"{n}{c}{i}" for c in COLOURS for i in ITEMS for n in NUMBERS)
KINGDOMS: tuple[str, ...] = tuple(f"*{c}" for c in COLOURS)
JOKERS: tuple[str, ...] = tuple(f"*{i}" for i in ITEMS)
WILDS: tuple[str, ...] = KINGDOMS + JOKERS


def deck(wild: bool) -> tuple[str, ...]:
    return NUMBER_CARDS + (WILDS if wild else ())


def is_wild(card: str) -> bool:
    return card[0] == "*"


def number(card: str) -> int:
    return int(card[0])


def colour(card: str) -> str | None:
    """The colour letter of a number card or a Kingdom card (None for a Joker)."""
    if is_wild(card):
        return card[1] if card[1] in COLOURS else None
    return card[1]


def item(card: str) -> str | None:
    """The item letter of a number card or a Joker (None for a Kingdom card)."""
    if is_wild(card):
        return card[1] if card[1] in ITEMS else None
    return card[2]


def group(card: str) -> str:
    """The colour-and-item group of a number card (``"Rk"``)."""
    return card[1:]


def matches(a: str, b: str) -> bool:
    """Whether ``a`` played to the field matches ``b`` lying there (a symmetric relation)."""
    return b in matching(a)


@cache
def matching(card: str) -> frozenset[str]:
    """Every card of the deck (wild cards included) that ``card`` matches: the AI and
    :func:`captures` ask this for each card in the field, so it is worked out once a card."""
    return frozenset(other for other in deck(True) if _matches(card, other))


def _matches(a: str, b: str) -> bool:
    if is_wild(a) and is_wild(b):
        return False
    if is_wild(a):
        a, b = b, a
    if is_wild(b):
        return colour(b) == colour(a) if colour(b) else item(b) == item(a)
    return group(a) == group(b)


@lru_cache(maxsize=128)  # every card of the deck fits: the legal moves name each card again and again
def name(card: str) -> str:
    """The card in words: ``"red 3 keys"``, ``"red Kingdom card"``, ``"Joker of keys"``."""
    if is_wild(card):
        if card in KINGDOMS:
            return f"{COLOUR_NAME[card[1]]} Kingdom card"
        return f"Joker of {ITEM_NAME[card[1]]}s"
    n = number(card)
    return f"{COLOUR_NAME[card[1]]} {n} {ITEM_NAME[card[2]]}{'' if n == 1 else 's'}"


@lru_cache(maxsize=128)  # as for name: every event shows cards
def short(card: str) -> str:
    """A compact label for lists: ``"🟥3🗝️"``, ``"👑🟥"`` (Kingdom), ``"🃏🗝️"`` (Joker)."""
    if is_wild(card):
        if card in KINGDOMS:
            return f"👑{COLOUR_EMOJI[card[1]]}"
        return f"🃏{ITEM_EMOJI[card[1]]}"
    return f"{COLOUR_EMOJI[card[1]]}{card[0]}{ITEM_EMOJI[card[2]]}"


def spelled(card: str) -> str:
    """The short label, then the card in words, for buttons: ``"🟥3🗝️ (red 3 keys)"``."""
    return f"{short(card)} ({name(card)})"


def order(card: str) -> tuple[int, int, int]:
    """Sort key: colour, item, number; wild cards last."""
    return _ORDER[card]


def _order(card: str) -> tuple[int, int, int]:
    if is_wild(card):
        return (len(COLOURS), WILDS.index(card), 0)
    return (COLOURS.index(card[1]), ITEMS.index(card[2]), number(card))


_ORDER = {card: _order(card) for card in deck(True)}


def sort(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_ORDER.__getitem__))


def by_colour(cards: Iterable[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The cards grouped for reading: one ``(label, cards)`` per colour present, in deck
    order, then the wild cards (label ``"✨ wild"``)."""
    rows: list[tuple[str, tuple[str, ...]]] = []
    cards = sort(cards)
    for c in COLOURS:
        mine = tuple(x for x in cards if not is_wild(x) and x[1] == c)
        if mine:
            rows.append((f"{COLOUR_EMOJI[c]} {COLOUR_NAME[c]}", mine))
    wild = tuple(x for x in cards if is_wild(x))
    if wild:
        rows.append(("✨ wild", wild))
    return rows


@lru_cache(maxsize=1024)
def captures(field: tuple[str, ...], card: str) -> tuple[tuple[str, ...], ...]:
    """What ``card`` played to ``field`` may capture: one tuple per choice the player has.

    A number card whose group lies three strong in the field takes the three; otherwise a
    card takes one card it matches (the player's choice when several match). An empty
    result: the card stays in the field. Cached: a turn asks it of the same field for the
    legal moves, the AI's choice and the move itself."""
    hits = matching(card)
    found = [f for f in field if f in hits]
    if not is_wild(card):
        grouped = tuple(f for f in found if not is_wild(f))  # a number card matches only its group
        if len(grouped) == 3:
            return (grouped,)
    return tuple((f,) for f in sort(dict.fromkeys(found)))
