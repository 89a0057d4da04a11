"""The Kingdom Four AI: takes what builds its sets, and leaves in the field what others
are least likely to take.

Each move is valued by what it adds to the AI's captured cards: the exact score of the
sets (``scoring``) plus credit for sets half built (pairs of a Kingdom set, items adding up
towards a Joker set, neighbours of a straight) and a little for every card taken away from
the others. A card that takes nothing costs what it may give the next players: the more of
its matches the AI has not seen, the more it costs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from bot.games.base import Move
from bot.games.four.cards import captures, colour, deck, is_wild, item, matching, number
from bot.games.four.scoring import score
from bot.games.four.state import FourState

CARD_CREDIT = 0.4  # each card taken is one the others cannot score
LEFT_RISK = 1.2  # cost of a card left in the field, per unseen card that matches it


@lru_cache(maxsize=1 << 15)
def potential(cards: tuple[str, ...]) -> float:
    """The score of ``cards`` plus credit for sets on their way. Cached: the search's
    rollouts weigh the same collections again and again."""
    total: float = score(cards).total
    numbered = [c for c in cards if not is_wild(c)]
    buckets = Counter((colour(c), number(c)) for c in numbered)
    total += sum(2.5 for n in buckets.values() if n == 2)
    sums = Counter[str]()
    for c in numbered:
        sums[item(c) or ""] += number(c)
    total += sum(0.4 * (s - 6) for s in sums.values() if 6 < s < 12)
    seen = {(colour(c), number(c)) for c in numbered}
    total += sum(0.8 for col, n in seen if (col, n + 1) in seen)
    total += 3.0 * sum(1 for c in cards if is_wild(c))
    return total + CARD_CREDIT * len(cards)


def choose(state: FourState, seat: int, moves: Sequence[Move]) -> Move:
    mine = state.captured[seat]
    base = potential(mine)
    seen = set(state.hands[seat]) | set(state.field) | {c for took in state.captured for c in took}
    if state.pending:
        seen.add(state.pending)
    unseen = frozenset(deck(state.wild)) - seen

    def value(move: Move) -> float:
        parts = move.code.split(":")
        if parts[0] == "take":
            return potential(mine + (state.pending, parts[1])) - base
        card = parts[1]
        if len(parts) == 3:
            return potential(mine + (card, parts[2])) - base
        options = captures(state.field, card)
        if options:
            return potential(mine + (card, *options[0])) - base
        return -LEFT_RISK * len(matching(card) & unseen)

    return max(moves, key=value)
