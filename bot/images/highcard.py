"""High Card's pictures, the example of a game's own card faces (docs/ADDING_A_GAME.md):
suns gold with a star, moons silver with a circle, the number large; the hand marks the
cards it can play now, the table shows the cards of the last reveal."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Move, View, playable_cards
from bot.games.examples.highcard import GAME
from bot.games.examples.highcard.cards import DECK, SUITS, by_number, number
from bot.images import Rows
from bot.images.draw import Face

LOOKS = {"s": ("gold", "star"), "m": ("silver", "circle")}


def face(card: str, *, marked: bool = False) -> Face:
    colour, symbol = LOOKS[card[-1]]
    return Face(str(number(card)), SUITS[card[-1]], colour, symbol, marked)


class HighCardArt:
    def hand(self, view: View, moves: Sequence[Move]) -> Rows:
        playable = playable_cards(moves, GAME.card_kinds)
        cards = by_number(list(view.data.get("hand", ())))
        return [(group.label, [face(c, marked=c in playable) for c in cards]) for group in view.hand]

    def table(self, view: View) -> Rows:
        shown = view.data.get("last", ())
        return [("Last shown", [face(c) for c in shown])] if shown else []

    def gallery(self) -> Rows:
        return [(name, [face(c) for c in DECK if c[-1] == letter]) for letter, name in SUITS.items()]


ART = HighCardArt()
