"""Scoring a hand's captured cards: the King's, the Queen's and the Joker's categories.

Each category is scored on its own, with the cards arranged for the player's best score
there (a card counts once per category). A wild card stands for one card of the deck in
each category: a Kingdom card for any card of its colour, a Joker for any card of its item.
Within a category no two cards (real or stood-for) may be the same card of the deck, so a
wild never stands for a card its owner captured.

- King: a Kingdom Four (the four items of one number in one colour) scores 15, a Kingdom
  Three 10.
- Queen: a straight of 1-2-3-4 in one colour with four different items scores 10; of 1-2-3
  or 2-3-4 (three different items), 5.
- Joker: for each item, the numbers of its cards added up; a sum S of 12 or more scores S-11.

Arranging wild cards is an optimisation; each category is solved exactly by a small dynamic
programme over its groups (tests compare it with an exhaustive search).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations

from bot.games.four.cards import (
    COLOUR_EMOJI,
    COLOURS,
    ITEM_EMOJI,
    ITEMS,
    JOKERS,
    KINGDOMS,
    NUMBERS,
    is_wild,
)

KINGDOM_FOUR, KINGDOM_THREE = 15, 10
STRAIGHT_FOUR, STRAIGHT_THREE = 10, 5
JOKER_THRESHOLD = 12

Card = tuple[str, int, str]  # (colour, number, item): one card of the deck


@dataclass(frozen=True, slots=True)
class Score:
    king: int
    queen: int
    joker: int
    sets: tuple[str, ...]  # the scoring sets, in words, for the hand's summary

    @property
    def total(self) -> int:
        return self.king + self.queen + self.joker


def score(cards: Iterable[str]) -> Score:
    """The best score of a collection of captured cards (number and wild cards)."""
    return _score(tuple(sorted(cards)))


@lru_cache(maxsize=8192)
def _score(cards: tuple[str, ...]) -> Score:
    held = frozenset((c[1], int(c[0]), c[2]) for c in cards if not is_wild(c))
    kingdoms = frozenset(c[1] for c in cards if c in KINGDOMS)
    jokers = frozenset(c[1] for c in cards if c in JOKERS)
    king, king_sets = _king(held, kingdoms, jokers)
    queen, queen_sets = _queen(held, kingdoms, jokers)
    joker, joker_sets = _joker(held, kingdoms, jokers)
    return Score(king, queen, joker, king_sets + queen_sets + joker_sets)


def _subsets(items: frozenset[str]) -> list[frozenset[str]]:
    out: list[frozenset[str]] = [frozenset()]
    for x in sorted(items):
        out += [s | {x} for s in out]
    return out


# --- the King: Kingdom Fours and Threes ---------------------------------------------------


def _king(
    held: frozenset[Card], kingdoms: frozenset[str], jokers: frozenset[str]
) -> tuple[int, tuple[str, ...]]:
    """Over the 16 colour-number groups, with the wild cards still free as the state."""
    if not kingdoms and not jokers:
        return _king_without_wilds(held)
    best: dict[tuple[frozenset[str], frozenset[str]], tuple[int, tuple[str, ...]]] = {
        (kingdoms, jokers): (0, ())
    }
    for col in COLOURS:
        for n in NUMBERS:
            missing = frozenset(i for i in ITEMS if (col, n, i) not in held)
            have = 4 - len(missing)
            nxt: dict[tuple[frozenset[str], frozenset[str]], tuple[int, tuple[str, ...]]] = {}
            for (ks, js), (value, sets) in best.items():
                kingdom_choices = (False, True) if col in ks else (False,)
                for sub in _subsets(js & missing):
                    for use_kingdom in kingdom_choices:
                        size = have + len(sub) + use_kingdom
                        if size > 4 or (sub or use_kingdom) and size < 3:
                            continue  # a wild only helps to complete a set
                        points = KINGDOM_FOUR if size == 4 else KINGDOM_THREE if size == 3 else 0
                        key = (ks - {col} if use_kingdom else ks, js - sub)
                        label = (
                            (
                                f"Kingdom {'Four' if size == 4 else 'Three'} {COLOUR_EMOJI[col]}{n}s ({points})",
                            )
                            if points
                            else ()
                        )
                        candidate = (value + points, sets + label)
                        if key not in nxt or candidate[0] > nxt[key][0]:
                            nxt[key] = candidate
            best = nxt
    return max(best.values(), key=lambda v: v[0])


def _king_without_wilds(held: frozenset[Card]) -> tuple[int, tuple[str, ...]]:
    """With no wild card each group scores alone: the programme above, its one state."""
    sizes = Counter((col, n) for col, n, _ in held)
    value, sets = 0, []
    for col in COLOURS:
        for n in NUMBERS:
            size = sizes[col, n]
            if size >= 3:
                points = KINGDOM_FOUR if size == 4 else KINGDOM_THREE
                value += points
                sets.append(f"Kingdom {'Four' if size == 4 else 'Three'} {COLOUR_EMOJI[col]}{n}s ({points})")
    return value, tuple(sets)


# --- the Queen: straights in one colour with different items ---------------------------------

_SHAPES = ((1, 4), (1, 3), (2, 3))  # (first number, length)
Straight = tuple[Card, ...]


@lru_cache(maxsize=1)
def _all_straights() -> tuple[Straight, ...]:
    """Every straight of the deck, as its cards, longest first."""
    return tuple(
        tuple((col, start + t, items[t]) for t in range(length))
        for col in COLOURS
        for start, length in _SHAPES
        for items in permutations(ITEMS, length)
    )


@cache
def _straights_with(card: Card) -> tuple[Straight, ...]:
    return tuple(s for s in _all_straights() if card in s)


def _straight_points(straight: Straight) -> int:
    return STRAIGHT_FOUR if len(straight) == 4 else STRAIGHT_THREE


def _straight_label(straight: Straight) -> str:
    items = "".join(ITEM_EMOJI[c[2]] for c in straight)
    col = straight[0][0]
    return f"Queen's Straight {COLOUR_EMOJI[col]}{straight[0][1]}-{straight[-1][1]} {items} ({_straight_points(straight)})"


def _queen(
    held: frozenset[Card], kingdoms: frozenset[str], jokers: frozenset[str]
) -> tuple[int, tuple[str, ...]]:
    """Colour by colour (a Kingdom card serves its own colour), sharing out the Jokers."""
    best: dict[frozenset[str], tuple[int, tuple[Straight, ...]]] = {jokers: (0, ())}
    for col in COLOURS:
        pack = _packer(col, frozenset(c for c in held if c[0] == col), col in kingdoms)
        nxt: dict[frozenset[str], tuple[int, tuple[Straight, ...]]] = {}
        for js, (value, found) in best.items():
            for sub in _subsets(js):
                points, straights = pack.best(sub)
                key = js - sub
                if key not in nxt or value + points > nxt[key][0]:
                    nxt[key] = (value + points, found + straights)
        best = nxt
    points, found = max(best.values(), key=lambda v: v[0])
    return points, tuple(_straight_label(s) for s in found)


@lru_cache(maxsize=4096)
def _packer(col: str, held: frozenset[Card], kingdom: bool) -> _Packer:
    """The packer of one colour's cards, kept with its memo: captures change a colour or two
    at a time, so most colours of a collection were packed before."""
    return _Packer(col, held, kingdom)


class _Packer:
    """The best disjoint straights of one colour, from its held cards, a set of Jokers and
    perhaps its Kingdom card: a search deciding the held cards in order (left out, or in one
    straight whose other cards are held or stood for by wilds), then the wilds alone."""

    def __init__(self, col: str, held: frozenset[Card], kingdom: bool) -> None:
        self.col = col
        self.held = held
        self.kingdom = kingdom
        self.order = sorted(held, key=lambda c: (c[1], c[2]))
        self.memo: dict[tuple[frozenset[Card], frozenset[str], bool], tuple[int, tuple[Straight, ...]]] = {}
        self.missing: dict[Straight, tuple[str, ...]] = {}  # a straight's items not held

    def _missing(self, straight: Straight) -> tuple[str, ...]:
        found = self.missing.get(straight)
        if found is None:
            found = self.missing[straight] = tuple(c[2] for c in straight if c not in self.held)
        return found

    def best(self, jokers: frozenset[str]) -> tuple[int, tuple[Straight, ...]]:
        if not self.held and len(jokers) + self.kingdom < 3:
            return 0, ()
        return self._search(frozenset(), jokers, self.kingdom)

    def _fillings(
        self, straight: Straight, used: frozenset[Card], js: frozenset[str], k: bool
    ) -> list[tuple[frozenset[str], bool]]:
        """The ways to stand wilds for the straight's cards not held: (jokers, kingdom) left."""
        missing = self._missing(straight)
        if len(missing) > len(js) + k or any(c in used for c in straight):
            return []
        ways = []
        if all(i in js for i in missing):
            ways.append((js.difference(missing), k))
        if k:
            for t in range(len(missing)):
                rest = missing[:t] + missing[t + 1 :]
                if all(i in js for i in rest):
                    ways.append((js.difference(rest), False))
        return ways

    def _search(self, used: frozenset[Card], js: frozenset[str], k: bool) -> tuple[int, tuple[Straight, ...]]:
        key = (used, js, k)
        if key in self.memo:
            return self.memo[key]
        first = next((c for c in self.order if c not in used), None)
        result: tuple[int, tuple[Straight, ...]] = (0, ())
        if first is not None:
            result = self._search(used | {first}, js, k)  # the first undecided card stays out
            candidates = _straights_with(first)
        elif len(js) + k >= 3:
            candidates = tuple(
                s for s in _all_straights() if s[0][0] == self.col and len(self._missing(s)) == len(s)
            )
        else:
            candidates = ()
        for straight in candidates:
            for js2, k2 in self._fillings(straight, used, js, k):
                points, found = self._search(used | set(straight), js2, k2)
                points += _straight_points(straight)
                if points > result[0]:
                    result = (points, (straight, *found))
        self.memo[key] = result
        return result


# --- the Joker: sums of each item's numbers ---------------------------------------------------


def _joker(
    held: frozenset[Card], kingdoms: frozenset[str], jokers: frozenset[str]
) -> tuple[int, tuple[str, ...]]:
    """Item by item, sharing out the Kingdom cards; each Joker serves its own item."""
    if not kingdoms and not jokers:
        return _joker_without_wilds(held)
    best: dict[frozenset[str], tuple[int, tuple[str, ...]]] = {kingdoms: (0, ())}
    for it in ITEMS:
        base = sum(n for _c, n, i in held if i == it)
        nxt: dict[frozenset[str], tuple[int, tuple[str, ...]]] = {}
        for ks, (value, sets) in best.items():
            for sub in _subsets(ks):
                total = base + _extra(held, it, sub, it in jokers)
                points = total - (JOKER_THRESHOLD - 1) if total >= JOKER_THRESHOLD else 0
                label = (f"Joker set {ITEM_EMOJI[it]} {total} ({points})",) if points else ()
                key = ks - sub
                candidate = (value + points, sets + label)
                if key not in nxt or candidate[0] > nxt[key][0]:
                    nxt[key] = candidate
        best = nxt
    return max(best.values(), key=lambda v: v[0])


def _joker_without_wilds(held: frozenset[Card]) -> tuple[int, tuple[str, ...]]:
    """With no wild card each item's sum is what it is."""
    sums = Counter[str]()
    for _col, n, it in held:
        sums[it] += n
    value, sets = 0, []
    for it in ITEMS:
        if sums[it] >= JOKER_THRESHOLD:
            points = sums[it] - (JOKER_THRESHOLD - 1)
            value += points
            sets.append(f"Joker set {ITEM_EMOJI[it]} {sums[it]} ({points})")
    return value, tuple(sets)


def _extra(held: frozenset[Card], it: str, kingdoms: frozenset[str], joker: bool) -> int:
    """The most the wild cards can add to an item's sum, each standing for a different card
    of that item that nobody in the arrangement already is."""

    def best_in(col: str, taken: Card | None) -> int:
        return max((n for n in NUMBERS if (col, n, it) not in held and (col, n, it) != taken), default=0)

    if not joker:
        return sum(best_in(col, None) for col in kingdoms)
    options = [(col, n, it) for col in COLOURS for n in NUMBERS if (col, n, it) not in held]
    return max(
        (card[1] + sum(best_in(col, card) for col in kingdoms) for card in options),
        default=sum(best_in(col, None) for col in kingdoms),
    )
