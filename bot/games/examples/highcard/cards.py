"""High Card's deck: numbers 1 to 10 in two suits; ``"7s"`` is the 7 of suns."""

from __future__ import annotations

SUITS = {"s": "suns", "m": "moons"}
DECK = tuple(f"{n}{s}" for s in SUITS for n in range(1, 11))
HAND_SIZE = 5


def number(card: str) -> int:
    return int(card[:-1])


def suit(card: str) -> str:
    return SUITS[card[-1]]


def card_name(card: str) -> str:
    return f"{number(card)} of {suit(card)}"


def by_number(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A hand in the order it is shown: lowest first."""
    return tuple(sorted(cards, key=number))
