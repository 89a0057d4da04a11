"""King's Dynasty cards: suit colours, numbers large, named cards by name with their effect
marks, a glyph for each card of a group that shares its marks (which battle card, which
risk card, which royal), and the points in a corner."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Move, View, playable_cards
from bot.games.dynasty.cards import (
    ARR,
    BATTLE_KINDS,
    CAN,
    CAT,
    CJ,
    DB,
    DEC,
    DEF,
    DKN,
    DRA,
    DUCHESS,
    DUKE,
    DUN,
    FACE_OF_CODE,
    FIR,
    FM,
    GOB,
    KEY,
    KIND,
    KIND_NAME,
    KIND_POINTS,
    KING,
    KN,
    MAG,
    NFACES,
    NUM,
    POI,
    POT,
    PRO,
    QO,
    QUEEN,
    RANK,
    RISK_KINDS,
    SHIELD_KINDS,
    SIE,
    SUIT,
    SUIT_NAMES,
    TAX,
    TRE,
    WAR,
    WILDS,
    WIZ,
    suits_of,
)
from bot.games.dynasty.game import GAME
from bot.images import Rows, strip_emoji
from bot.images.draw import Face

# What each kind of card does, as effect marks (bot.images.symbols.MARK_MEANING), and the
# draw count written on the first mark.
MARKS: dict[int, tuple[tuple[str, ...], str]] = {
    FM: (("escort",), ""),
    DB: (("draw",), "+2"),
    QO: (("choice",), ""),
    KN: (("reverse",), ""),
    CJ: (("skip",), ""),
    WIZ: (("draw", "wild", "choice"), "+5"),
    DRA: (("draw", "wild"), "+3"),
    KING: (("wild", "extra"), ""),
    QUEEN: (("wild", "extra"), ""),
    DUKE: (("wild",), ""),
    DUCHESS: (("wild",), ""),
    DEC: (("answer", "reverse"), ""),
    MAG: (("magic",), ""),
    POT: (("last",), ""),
    PRO: (("answer", "shield"), ""),
    DUN: (("dungeon",), ""),
    DKN: (("risk",), ""),
    POI: (("risk",), ""),
    FIR: (("risk",), ""),
    GOB: (("risk",), ""),
    CAN: (("battle",), ""),
    CAT: (("battle",), ""),
    ARR: (("battle",), ""),
    SIE: (("battle",), ""),
    TAX: (("battle",), ""),
    DEF: (("shield",), ""),
    TRE: (("last",), ""),
    WAR: (("turn",), ""),
    KEY: (("key",), ""),
}


# Which card of a group it is, for the cards whose marks alone would not tell
# (bot.images.glyphs).
GLYPH: dict[int, str] = {
    CAN: "cannonball",
    CAT: "catapult",
    ARR: "flaming arrow",
    SIE: "siege tower",
    TAX: "imperial tax",
    DKN: "dark knight",
    POI: "poison garden",
    FIR: "castle fire",
    GOB: "goblet",
    KING: "king",
    QUEEN: "queen",
    DUKE: "duke",
    DUCHESS: "duchess",
    POT: "potion",
    TRE: "treasure",
}


def points(kind: int) -> str:
    """What the card costs in a hand at the end (the Dark Knight's 100 is a bet either way)."""
    value = KIND_POINTS[kind]
    return "±100" if kind == DKN else str(value)


def face(code: str, *, marked: bool = False) -> Face:
    index = FACE_OF_CODE[code]
    kind, suit = KIND[index], SUIT[index]
    suits = suits_of(index)
    colour = SUIT_NAMES[suit] if suit >= 0 else "kingdom"
    if kind == NUM:
        return Face(str(RANK[index]), SUIT_NAMES[suit], colour, "", marked)
    if len(suits) > 1:
        caption = " / ".join(SUIT_NAMES[s] for s in suits)
    elif suit >= 0:
        caption = SUIT_NAMES[suit]
    elif kind in RISK_KINDS:
        caption = "risk"
    elif kind in BATTLE_KINDS:
        caption = "battle"
    elif kind in SHIELD_KINDS:
        caption = "shield"
    else:
        caption = "wild" if kind in WILDS else "Kingdom"
    marks, badge = MARKS.get(kind, ((), ""))
    glyph = GLYPH.get(kind, "")
    return Face(
        KIND_NAME[kind],
        caption,
        colour,
        "",
        marked,
        marks=marks,
        badge=badge,
        points=points(kind),
        glyph=glyph,
    )


class DynastyArt:
    def hand(self, view: View, moves: Sequence[Move]) -> Rows:
        playable = playable_cards(moves, GAME.card_kinds)
        # The view groups the hand by suit, Kingdom cards last, keeping the hand's order.
        by_suit: dict[int, list[str]] = {}
        for code in view.data.get("hand", ()):
            by_suit.setdefault(SUIT[FACE_OF_CODE[code]], []).append(code)
        groups = [by_suit[s] for s in sorted(by_suit, key=lambda s: (s < 0, s))]
        rows: Rows = []
        for group, codes in zip(view.hand, groups):
            rows.append((strip_emoji(group.label), [face(code, marked=code in playable) for code in codes]))
        return rows

    def table(self, view: View) -> Rows:
        """The top card (and what it acts as), the suit to follow and the direction of
        play, each its own card-sized tile so that all three read at a glance."""
        top = view.data.get("top")
        if top is None or view.data.get("phase") in ("over", "cut"):
            return []
        rows: Rows = [("Top card", [face(top)])]
        if view.data.get("top_as"):  # a Magician played as another card
            rows.append(("played as", [face(view.data["top_as"])]))
        suit = view.data.get("suit")
        if suit:
            name = next((n for n in SUIT_NAMES if n.startswith(_suit_word(suit))), suit)
            rows.append(("Suit", [Face(name, "follow", name, "", marks=("disc",), large=True)]))
        # Seat after seat is to the left, clockwise (the rulebook's "player left of the dealer").
        forward = view.data.get("direction", 1) > 0
        mark, word, caption = (
            ("clockwise", "clockwise", "usual way")
            if forward
            else ("anticlockwise", "anti- clockwise", "reversed")
        )
        rows.append(("Play passes", [Face(word, caption, "neutral", "", marks=(mark,), large=True)]))
        return rows

    def gallery(self) -> Rows:
        from bot.games.dynasty.cards import CODE

        seen: dict[str, list[Face]] = {}
        for index in range(NFACES):
            kind = KIND[index]
            group = (
                "Numbers"
                if kind == NUM
                else "Kingdom and wild cards"
                if SUIT[index] < 0 or kind in WILDS
                else "Suited cards"
            )
            if kind in BATTLE_KINDS or kind in RISK_KINDS or kind in SHIELD_KINDS:
                group = "Battle, risk and shield cards"
            seen.setdefault(group, []).append(face(CODE[index]))
        return list(seen.items())


def _suit_word(code: str) -> str:
    """The suit name's start from its two-letter code ("bl" -> "bl": blue)."""
    return {
        "gd": "gold",
        "gn": "green",
        "bl": "blue",
        "bu": "burgundy",
        "pu": "purple",
        "si": "silver",
        "or": "orange",
    }.get(code, code)


ART = DynastyArt()
