"""The normal AI's out-of-turn gambles in ``dynasty``: the Risk cards (Poison Garden,
Castle Fire, King's Goblet, the Dark Knight's bet) and the Warlord, played only when they
pay, except that a hand that drags (100 rounds) is ended with a Poison Garden. It reads only
what its seat may see (its own hand and the public table)."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.dynasty.actions import PlayWarlord, Risk, action_of
from bot.games.dynasty.cards import DKN, FIR, GOB, KIND, POI
from bot.games.dynasty.catalogue import Tables
from bot.games.dynasty.scoring import hand_points
from bot.games.dynasty.state import DynastyState

AVG_CARD = 13  # rough points of an unseen card
# A hand this many rounds long drags (about 7% of two-player expansion hands, 1 in 100 of
# them reaches the 150-round valve otherwise): the AI ends it with a Poison Garden it holds.
DRAG_ROUNDS = 100


def friend(tables: Tables, a: int, b: int) -> bool:
    """Whether seats ``a`` and ``b`` play for the same team (a seat is its own friend)."""
    return a == b or tables.team[a] == tables.team[b]


def expected_points(s: DynastyState, x: int) -> int:
    return len(s.hands[x]) * AVG_CARD


def dragging(s: DynastyState, tables: Tables) -> bool:
    """Whether this hand has lasted so long that it is unlikely to end by a player going out."""
    return s.hand_turns >= DRAG_ROUNDS * tables.n


def risk_choice(s: DynastyState, tables: Tables, seat: int, moves: list[Move]) -> Move | None:
    """A Risk card or the Warlord among ``moves`` worth playing now, if any."""
    if not s.in_front[seat]:
        return None  # Risk cards and the Warlord are played from in front of the seat
    n = tables.n
    mine = hand_points(s.hands[seat], s.dungeon[seat])
    opps = [x for x in range(n) if not friend(tables, seat, x)]
    if not opps:
        return None
    for m in moves:
        a = action_of(m.code)
        if isinstance(a, Risk):
            kind = KIND[a.face]
            if kind == POI:
                if dragging(s, tables):
                    return m  # the hand will not end by itself: end it on the cards in hand
                # Ending the hand gives the others 75 each: worth it only when they hold far
                # more than we do and we are not about to go out ourselves.
                gain = sum(expected_points(s, x) - 75 for x in opps) / len(opps) - mine
                if gain > 40 and len(s.hands[seat]) >= 5 and min(len(s.hands[x]) for x in opps) > 2:
                    return m
            elif kind == FIR:
                avg = sum(expected_points(s, x) for x in opps) / len(opps)
                if mine - avg > 120:
                    return m
            elif kind == GOB:
                if any(len(s.hands[x]) == 1 for x in opps) and mine > 60:
                    return m
            elif kind == DKN:
                target = a.bet_against
                if not friend(tables, seat, target) and len(s.hands[seat]) <= 2:
                    return m
        elif isinstance(a, PlayWarlord):
            t = s.turn
            if not friend(tables, seat, t) and len(s.hands[t]) <= 2 and mine >= 30:
                return m
    return None
