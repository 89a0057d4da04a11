"""The five characters of King and Crown, their values, who thwarts whom, and the teams."""

from __future__ import annotations

KING, DRAGON, KNIGHT, WITCH, BEGGAR = "K", "D", "N", "W", "B"
DECK: tuple[str, ...] = (KING, DRAGON, KNIGHT, WITCH, BEGGAR)
NAME = {KING: "King", DRAGON: "Dragon", KNIGHT: "Knight", WITCH: "Witch", BEGGAR: "Beggar"}
VALUE = {KING: 5, DRAGON: 4, KNIGHT: 3, WITCH: 2, BEGGAR: 1}
THWARTS: dict[str, frozenset[str]] = {
    KING: frozenset({BEGGAR, KNIGHT}),
    DRAGON: frozenset({KING, WITCH}),
    KNIGHT: frozenset({DRAGON, BEGGAR}),
    WITCH: frozenset({KNIGHT, KING}),
    BEGGAR: frozenset({WITCH, DRAGON}),
}
WISE, WICKED = "wise", "wicked"
TEAM = {KING: WISE, KNIGHT: WISE, BEGGAR: WISE, DRAGON: WICKED, WITCH: WICKED}


def card_label(card: str) -> str:
    """``"King (5)"``: a card's name and value, as hands and reveals show it."""
    return f"{NAME[card]} ({VALUE[card]})"


def known(card: str | None) -> str:
    """A secret pick that has been made (the caller knows it is there)."""
    assert card is not None
    return card
