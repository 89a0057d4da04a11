"""Round scoring: courted cards, in-hand runs, off-suit cards, prisoners, sandbags, flops."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.court.cards import INITIATORS, RANKS, rank, suit
from bot.games.court.melds import MIN_RUN, runs

COURTED, COURTED_INITIATOR, KING_BONUS = 10, 15, 15
IN_HAND_RUN, OFF_SUIT = 5, -5
SANDBAG, FLOP = 60, -15


def kings_court(courted: Sequence[str], king_suit: str) -> bool:
    """All twelve cards of the King's suit courted."""
    return len(courted) == len(RANKS) and all(suit(c) == king_suit for c in courted)


def courted_points(courted: Sequence[str], king_suit: str) -> int:
    """10 a courted card of the King's suit, 15 an A, Q or 7; robbed cards (prisoners) 0;
    a King's Court adds the King's 15 (150 in all)."""
    if not courted or suit(courted[0]) != king_suit:
        return 0
    points = sum(COURTED_INITIATOR if rank(c) in INITIATORS else COURTED for c in courted)
    return points + (KING_BONUS if kings_court(courted, king_suit) else 0)


def hand_points(hand: Sequence[str], king_suit: str) -> int:
    """+5 a card in a run of 3+ of the King's suit; 0 other cards of that suit; -5 off-suit."""
    own = [c for c in hand if suit(c) == king_suit]
    in_runs = sum(len(r) for r in runs(own, MIN_RUN))
    return IN_HAND_RUN * in_runs + OFF_SUIT * (len(hand) - len(own))


def round_points(hand: Sequence[str], king_suit: str, courted: Sequence[str], bags: int, flops: int) -> int:
    """A player's round score before any bid: what knocking is measured by."""
    return courted_points(courted, king_suit) + hand_points(hand, king_suit) + SANDBAG * bags + FLOP * flops
