"""King's Dynasty cards: suit colours, numbers large, named cards by name, and a corner
symbol for the kinds players must tell apart at a glance (wild crown, battle sword, risk
star, shield)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Move, View, playable_cards
from bot.games.dynasty.cards import (
    BATTLE_KINDS,
    DEF,
    FACE_OF_CODE,
    KIND,
    KIND_NAME,
    NFACES,
    NUM,
    RANK,
    RISK_KINDS,
    SHIELD_KINDS,
    SUIT,
    SUIT_NAMES,
    WILDS,
    suits_of,
)
from bot.games.dynasty.game import GAME
from bot.images import Rows, strip_emoji
from bot.images.draw import Face


def face(code: str, *, marked: bool = False) -> Face:
    index = FACE_OF_CODE[code]
    kind, suit = KIND[index], SUIT[index]
    suits = suits_of(index)
    colour = SUIT_NAMES[suit] if suit >= 0 else "kingdom"
    if kind == NUM:
        return Face(str(RANK[index]), SUIT_NAMES[suit], colour, "", marked)
    if kind in BATTLE_KINDS:
        symbol = "sword"
    elif kind in RISK_KINDS:
        symbol = "star"
    elif kind in SHIELD_KINDS or kind == DEF:
        symbol = "shield"
    elif kind in WILDS:
        symbol = "crown"
    else:
        symbol = ""
    if len(suits) > 1:
        caption = " / ".join(SUIT_NAMES[s] for s in suits)
    elif suit >= 0:
        caption = SUIT_NAMES[suit]
    else:
        caption = {"sword": "Battle", "star": "Risk", "shield": "Shield"}.get(symbol, "Kingdom")
    return Face(KIND_NAME[kind], caption, colour, symbol, marked)


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
        top = view.data.get("top")
        if top is None or view.data.get("phase") in ("over", "cut"):
            return []
        suit = view.data.get("suit")
        caption = "Top card"
        if suit:
            name = next((n for n in SUIT_NAMES if n.startswith(_suit_word(suit))), suit)
            caption += f" · suit {name}"
        caption += " · play passes " + ("→" if view.data.get("direction", 1) > 0 else "←")
        faces = [face(top)]
        if view.data.get("top_as"):
            faces.append(face(view.data["top_as"]))
        return [(caption, faces)]

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
