"""Bids declared before a round by players behind the leader."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.court.cards import suit
from bot.games.court.scoring import kings_court

LEADER_MARGIN = 150  # a bid is legal when score + its value <= leader's score + 150
BLIND_HIT, BLIND_MISS = 30, -10


@dataclass(frozen=True, slots=True)
class Bid:
    key: str
    name: str
    value: int  # what success earns (the blind: its most, 12 courted cards at 30)
    miss: int  # what failure costs (0 for the blind, scored card by card)
    blind: bool  # the King stays hidden from its owner for the round
    kings: bool  # needs a King's Court
    nil: bool  # needs a hand of the King's suit only
    means: str  # what it asks of the bidder, in a few words (the bid menu says it)


BIDS = (
    Bid("blind", "Blind", 12 * BLIND_HIT, 0, True, False, False, "your King hidden from you"),
    Bid("nil", "Nil", 150, -30, False, False, True, "end with only your King's suit in hand"),
    Bid("kingsnil", "King's nil", 300, -150, False, True, True, "a King's Court, only your suit in hand"),
    Bid("blindnil", "Blind nil", 500, -150, True, False, True, "nil with your King hidden from you"),
    Bid("kingsblindnil", "King's blind nil", 800, -150, True, True, True, "King's nil, your King hidden"),
)
BY_KEY = {b.key: b for b in BIDS}


def legal_bids(scores: Sequence[int], seat: int) -> tuple[Bid, ...]:
    """The bids ``seat`` may make: behind the leader, and score + value <= leader + 150."""
    leader = max(scores)
    mine = scores[seat]
    if mine >= leader:
        return ()
    return tuple(b for b in BIDS if mine + b.value <= leader + LEADER_MARGIN)


def bid_points(key: str, hand: Sequence[str], king_suit: str, courted: Sequence[str]) -> int:
    """What a bid adds to the round score at the end of the round."""
    if not key:
        return 0
    bid = BY_KEY[key]
    if bid.key == "blind":
        return sum(BLIND_HIT if suit(c) == king_suit else BLIND_MISS for c in courted)
    made = all(suit(c) == king_suit for c in hand)
    if bid.kings:
        made = made and kings_court(courted, king_suit)
    return bid.value if made else bid.miss
