"""King's Court (trick-and-meld) cards: the French deck, each card its rank, suit symbol and
colour (hearts and diamonds red, clubs and spades black)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Move, View, playable_cards
from bot.games.court.cards import KINGS, RANK_LABEL, RANKS, SUIT_NAME, SUIT_SYMBOL, SUITS
from bot.games.court.game import GAME
from bot.images import Rows
from bot.images.draw import Face

SYMBOL = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
BY_SYMBOL = {symbol: s for s, symbol in SUIT_SYMBOL.items()}


def face(code: str, *, marked: bool = False) -> Face:
    """The card ``code`` ("Th", "Kd")."""
    rank, suit = code[0], code[1]
    colour = "red" if suit in ("h", "d") else "black"
    label = RANK_LABEL[rank]
    pips = 1 if rank == "A" else int(label) if label.isdigit() else 0
    return Face(label, "", colour, SYMBOL[suit], marked, index=label, pips=pips)


def code_of(label: str) -> str | None:
    """The code of a shown label ("10♥" -> "Th"); None for anything else."""
    suit = BY_SYMBOL.get(label[-1:])
    rank = {v: k for k, v in RANK_LABEL.items()}.get(label[:-1])
    return f"{rank}{suit}" if suit and rank else None


class CourtArt:
    def hand(self, view: View, moves: Sequence[Move]) -> Rows:
        playable = playable_cards(moves, GAME.card_kinds)
        rows: Rows = []
        for group in view.hand:
            faces = []
            for card in group.cards:
                code = code_of(card)
                faces.append(face(code, marked=code in playable) if code else Face(card))
            rows.append((group.label.split(" ", 1)[-1], faces))
        return rows

    def table(self, view: View) -> Rows:
        data = view.data
        rows: Rows = []
        trick = data.get("trick") or {}
        played = [code for _seat, cards in sorted(trick.items()) for code in cards]
        if played:
            rows.append(("The trick", [face(c) for c in played]))
        if data.get("pool"):
            rows.append(("The pool", [face(c) for c in data["pool"]]))
        last = data.get("last_trick")
        if last and not rows:  # only on an empty table: no taller picture, the text names who played what
            cards = [
                *(c for cs in last["cards"].values() for c in cs),
                *(c for cs in last["duel"].values() for c in cs),
            ]
            rows.append(("Last trick", [face(c) for c in cards]))
        return rows

    def gallery(self) -> Rows:
        rows: Rows = [(SUIT_NAME[s], [face(f"{r}{s}") for r in RANKS]) for s in SUITS]
        rows.append(("The four Kings", [face(k) for k in KINGS]))
        return rows


ART = CourtArt()
