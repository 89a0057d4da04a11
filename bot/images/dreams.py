"""Kingdom of Dreams cards: standard French cards drawn plainly, with a corner symbol for
what each does (coin circle, attack sword, Jack shield, Queen star, King crown); the table
shows the face-down piles as card backs and the face-up Jacks, Queens and King."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Move, View, playable_cards
from bot.games.dreams.cards import (
    ATTACK,
    ATTACKS,
    COIN,
    COINS,
    JACK,
    JACKS,
    JOKER,
    KING,
    KINGS,
    QUEEN,
    QUEENS,
    TRUMP,
    TRUMPS,
    kind,
    rank,
    suit,
)
from bot.games.dreams.game import GAME
from bot.images import Rows, strip_emoji
from bot.images.draw import Face

PIP = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
# What the card does in this game, written at its foot.
ROLE = {COIN: "coins", ATTACK: "attack", JACK: "Jack", QUEEN: "Queen", KING: "King", TRUMP: "trump"}


def face(code: str, *, marked: bool = False) -> Face:
    if code == JOKER:
        return Face("Joker", "trump pile", "purple", "star", marked, marks=("wild",))
    k = kind(code)
    colour = "red" if suit(code) in ("h", "d") else "black"
    label = rank(code)
    pips = 1 if label == "A" else int(label) if label.isdigit() else 0
    return Face(label, ROLE[k], colour, PIP[suit(code)], marked, index=label, pips=pips)


def _back(caption: str) -> Face:
    return Face(caption, down=True)


class DreamsArt:
    def hand(self, view: View, moves: Sequence[Move]) -> Rows:
        usable = playable_cards(moves, GAME.card_kinds)
        codes = list(view.data.get("hand", ()))
        rows: Rows = []
        for group in view.hand:
            # The view's groups follow the kinds in order, each card once: take as many codes.
            taken, codes = codes[: len(group.cards)], codes[len(group.cards) :]
            rows.append((strip_emoji(group.label), [face(c, marked=c in usable) for c in taken]))
        return rows

    def table(self, view: View) -> Rows:
        piles = view.data.get("piles")
        if not piles:
            return []
        rows: Rows = [
            (f"Coins {piles['coins']}", [_back("coins")] if piles["coins"] else []),
            (f"Trump {piles['trump']}", [_back("trump")]),
            (f"Attack {piles['attack']}", [_back("attack")] if piles["attack"] else []),
        ]
        attack = view.data.get("attack")
        if attack:
            rows.append(("Attacking", [face(attack[2])]))
        for caption, cards in (
            ("Jacks 10", piles["jacks"]),
            ("Queens 20", piles["queens"]),
            ("King 40", piles["king"]),
        ):
            if cards:
                rows.append((caption, [face(c) for c in cards]))
        return [(caption, faces) for caption, faces in rows if faces]

    def gallery(self) -> Rows:
        return [
            ("Coins", [face(c) for c in COINS]),
            ("Trump pile", [face(c) for c in TRUMPS]),
            ("Attack cards", [face(c) for c in ATTACKS]),
            ("Jacks, Queens and a King", [face(c) for c in JACKS + QUEENS + KINGS]),
        ]


ART = DreamsArt()
