"""King and Crown cards: the five characters, each with its colour, symbol and value."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Move, View, playable_cards
from bot.games.crown import GAME
from bot.images import Rows
from bot.images.draw import Face

CHARACTERS = {
    "K": ("King", "5 · Wise", "gold", "crown"),
    "D": ("Dragon", "4 · Wicked", "red", "star"),
    "N": ("Knight", "3 · Wise", "blue", "sword"),
    "W": ("Witch", "2 · Wicked", "purple", "star"),
    "B": ("Beggar", "1 · Wise", "silver", "circle"),
}
BY_NAME = {name: code for code, (name, *_rest) in CHARACTERS.items()}


def face(code: str, *, marked: bool = False, down: bool = False) -> Face:
    name, caption, colour, symbol = CHARACTERS[code]
    value, team = caption.split(" · ")
    return Face(name, team, colour, symbol, marked, down=down, points=value)


def _code_of(label: str) -> str | None:
    return BY_NAME.get(label.split(" ", 1)[0])


class CrownArt:
    def hand(self, view: View, moves: Sequence[Move]) -> Rows:
        playable = playable_cards(moves, GAME.card_kinds)
        rows: Rows = []
        for group in view.hand:
            faces = []
            for card in group.cards:
                code = _code_of(card)
                faces.append(face(code, marked=code in playable) if code else Face(card))
            rows.append((group.label, faces))
        return rows

    def table(self, view: View) -> Rows:
        data = view.data
        variant = data.get("variant")
        if variant == "find":
            revealed = {int(k): v for k, v in data.get("revealed", {}).items()}
            faces = [face(revealed[i]) if i in revealed else face("K", down=True) for i in range(1, 6)]
            return [("The five places", faces)]
        if variant == "tourney" and "hands" in data:
            return [
                (f"Seat {i + 1}: cards left", [face(c) for c in hand]) for i, hand in enumerate(data["hands"])
            ]
        if variant == "atcourt":
            cards = data.get("cards")
            if cards:
                return [("The cards", [face(c) for c in cards])]
            return []
        return []

    def gallery(self) -> Rows:
        return [("The five characters", [face(code) for code in CHARACTERS])]


ART = CrownArt()
