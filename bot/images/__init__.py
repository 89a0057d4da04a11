"""Card pictures: hands and tables drawn with Pillow (``bot/images/draw.py``, laid
out by ``bot/images/layout.py``).

A game's art is found by name: ``bot/images/<game id>.py`` exposing ``ART``; a game without
one gets :class:`GenericArt`, which draws its hand from the view's card groups. The layer
imports Pillow and the games, never Discord or the database; the UI renders off the event
loop and caches by content (:func:`hand_png`, :func:`table_png`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from importlib import import_module
from importlib.util import find_spec
from typing import Protocol

from bot.games.base import Move, View
from bot.images.draw import Face, colour_of_label
from bot.images.layout import picture

Rows = list[tuple[str, list[Face]]]


class CardArt(Protocol):
    """What a game's art provides: the faces of a hand, of a table, and of every card.

    ``hand`` returns one row per card group of ``view.hand`` and one face per card, in the
    same order (so that the cards new since the player's last look can be flagged)."""

    def hand(self, view: View, moves: Sequence[Move]) -> Rows: ...

    def table(self, view: View) -> Rows: ...

    def gallery(self) -> Rows: ...


class GenericArt:
    """Any game: one row per card group of the hand, in the group's colour; a card is marked
    when a legal move's label names it. No table picture (the text table says it all)."""

    def hand(self, view: View, moves: Sequence[Move]) -> Rows:
        labels = [m.label.casefold() for m in moves]
        rows: Rows = []
        for group in view.hand:
            colour = colour_of_label(group.label)
            faces = [
                Face(card, colour=colour, marked=any(card.casefold() in label for label in labels))
                for card in group.cards
            ]
            rows.append((strip_emoji(group.label), faces))
        return rows

    def table(self, view: View) -> Rows:
        return []

    def gallery(self) -> Rows:
        return []


def strip_emoji(label: str) -> str:
    """A group label without its leading colour emoji ("🟦 blue" -> "blue")."""
    first, _, rest = label.partition(" ")
    return rest if rest and not first.isascii() else label


@lru_cache(maxsize=32)
def art_for(game_id: str) -> CardArt:
    name = f"bot.images.{game_id}"
    if find_spec(name) is not None:
        art: CardArt = import_module(name).ART
        return art
    return GenericArt()


def mark_new(rows: Rows, view: View, new_cards: Sequence[tuple[str, str]]) -> Rows:
    """The hand's rows with the cards new since the player's last look, ``(group label,
    card)``, flagged (once each)."""
    fresh = list(new_cards)
    out: Rows = []
    for (caption, faces), group in zip(rows, view.hand):
        flagged = []
        for face, card in zip(faces, group.cards):
            if (group.label, card) in fresh:
                fresh.remove((group.label, card))
                face = replace(face, new=True)
            flagged.append(face)
        out.append((caption, flagged + faces[len(group.cards) :]))
    return out + rows[len(view.hand) :]


@lru_cache(maxsize=512)
def _png(rows: tuple[tuple[str, tuple[Face, ...]], ...], title: str, per_row: int | None) -> bytes:
    return picture([(c, list(f)) for c, f in rows], title=title, per_row=per_row)


def render(rows: Rows, title: str = "", per_row: int | None = None) -> bytes | None:
    """The PNG of these rows (cached by content); None when there is nothing to draw. Lines
    are ``per_row`` cards wide, or as wide as reads best in Discord's preview."""
    if not any(faces for _c, faces in rows):
        return None
    return _png(tuple((c, tuple(f)) for c, f in rows), title, per_row)


def hand_png(
    game_id: str, view: View, moves: Sequence[Move], new_cards: Sequence[tuple[str, str]] = ()
) -> bytes | None:
    return render(mark_new(art_for(game_id).hand(view, moves), view, new_cards))


def table_png(game_id: str, view: View) -> bytes | None:
    return render(art_for(game_id).table(view))
