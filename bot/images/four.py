"""Kingdom Four cards: the colour fills the card, the number is large, the item is named
and drawn in the corners (key, axe, shield, coin); Kingdom cards carry a crown, Jokers
their item on grey."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Move, View, playable_cards
from bot.games.four.cards import COLOUR_NAME, ITEM_NAME, JOKERS, KINGDOMS, NUMBER_CARDS, by_colour, is_wild
from bot.games.four.game import GAME
from bot.images import Rows, strip_emoji
from bot.images.draw import Face

SYMBOL = {"k": "key", "a": "axe", "s": "shield", "c": "circle"}


def face(card: str, *, marked: bool = False) -> Face:
    if card in KINGDOMS:
        return Face("Kingdom", COLOUR_NAME[card[1]], COLOUR_NAME[card[1]], "crown", marked, marks=("wild",))
    if card in JOKERS:
        return Face("Joker", f"{ITEM_NAME[card[1]]}s", "neutral", SYMBOL[card[1]], marked, marks=("wild",))
    n = int(card[0])
    return Face(
        card[0], f"{ITEM_NAME[card[2]]}{'' if n == 1 else 's'}", COLOUR_NAME[card[1]], SYMBOL[card[2]], marked
    )


class FourArt:
    def hand(self, view: View, moves: Sequence[Move]) -> Rows:
        playable = playable_cards(moves, GAME.card_kinds)
        return [
            (strip_emoji(label), [face(c, marked=c in playable) for c in cards])
            for label, cards in by_colour(view.data.get("hand", ()))
        ]

    def table(self, view: View) -> Rows:
        data = view.data
        if data.get("phase") == "over":
            return []
        rows: Rows = [
            (f"Field · {strip_emoji(label)}", [face(c) for c in cards])
            for label, cards in by_colour(data.get("field", ()))
        ]
        if data.get("pending"):
            rows.append(("Flipped, taking one of the field", [face(data["pending"], marked=True)]))
        return rows

    def gallery(self) -> Rows:
        rows: Rows = [
            (COLOUR_NAME[c[1]], [face(x) for x in NUMBER_CARDS if x[1] == c[1]]) for c in NUMBER_CARDS[::16]
        ]
        rows.append(("Wild cards", [face(c) for c in KINGDOMS + JOKERS if is_wild(c)]))
        return rows


ART = FourArt()
