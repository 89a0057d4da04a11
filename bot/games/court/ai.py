"""The King's Court AI: builds toward its suit, courts when it can, knocks when ahead.

It reads only what its seat may see: its hand, its King (not when it bid blind), its run,
and the public table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.games.base import Move, Rng, move_kind
from bot.games.court.cards import natural, rank, runs, suit, trick_rank
from bot.games.court.state import AFTER, BID, DUEL, FOLLOW, LEAD, PICK, CourtState
from bot.games.court.tricks import TrickHand, classify

KNOCK_AT = 25  # knock once the round score so far reaches this
LATE_TRICK = 14  # ... or once positive this late in a round
ROB_AT = 6  # rob another suit only with a run this long (it turns -5s into 0s)


def my_suit(state: CourtState, seat: int) -> str:
    """The King's suit, or for a blind bidder a guess: its run's suit, else its longest suit."""
    if not state.blind(seat):
        return state.king_suit(seat)
    if state.courted[seat]:
        return suit(state.courted[seat][0])
    counts = Counter(suit(c) for c in state.hands[seat])
    return max(sorted(counts), key=lambda s: counts[s]) if counts else "c"


def keep_value(card: str, hand: Sequence[str], own: str) -> float:
    """How much the AI wants to hold ``card``: its suit above all (more so beside its
    neighbours), then cards that make sets and win tricks."""
    if suit(card) == own:
        at = natural(card)
        near = sum(1 for c in hand if suit(c) == own and c != card and abs(natural(c) - at) <= 2)
        return 100 + 10 * near
    same_rank = rank(card)
    same = sum(1 for c in hand if rank(c) == same_rank and c != card)
    return trick_rank(card) + 4 * same


def _choose_cards(move: Move, cards: Sequence[str]) -> Move:
    return move.choose(list(cards))


def choose(state: CourtState, seat: int, moves: Sequence[Move], rng: Rng) -> Move:
    del rng  # the AI is deterministic
    own = my_suit(state, seat)
    hand = state.hands[seat]
    by_kind = {move_kind(m.code): m for m in moves}
    if state.phase == BID:
        return moves[0]
    wary = _wary(state, seat)
    if state.phase == LEAD:
        return _lead(by_kind["lead"], hand, own, wary)
    if state.phase == FOLLOW:
        return _follow(state, by_kind["play"], hand, own, wary)
    if state.phase == DUEL:
        return max(moves, key=lambda m: (trick_rank(m.code[-2:]), suit(m.code[-2:]) != own))
    if state.phase == PICK:
        move = by_kind["take"]
        assert move.pick is not None
        pool = [c for c, _label in move.pick.items]
        ranked = sorted(pool, key=lambda c: -keep_value(c, (*hand, *pool), own))
        return _choose_cards(move, ranked[: move.pick.least])
    assert state.phase == AFTER
    return _after(state, seat, moves, by_kind, own)


def _wary(state: CourtState, seat: int) -> bool:
    """Two tricks won in a row: a third forces a knock or a flop; avoid it unless knocking pays."""
    if state.streak != (seat, 2):
        return False
    return state.blind(seat) or state.score_so_far(seat) < max(state.going_board, 0)


def _lead(move: Move, hand: Sequence[str], own: str, wary: bool) -> Move:
    assert move.pick is not None
    if wary:
        return _choose_cards(move, [min(hand, key=lambda c: (trick_rank(c), suit(c) == own))])
    most = move.pick.most
    spare = [c for c in hand if suit(c) != own]
    best: tuple[float, tuple[str, ...]] | None = None
    for size in range(1, most + 1):
        for cards in _hands_of(spare or list(hand), size):
            found = classify(cards)
            if found is None:
                continue
            score = size * 12 + found.strength
            if best is None or score > best[0]:
                best = (score, cards)
    assert best is not None
    return _choose_cards(move, best[1])


def _hands_of(cards: Sequence[str], size: int) -> list[tuple[str, ...]]:
    """Candidate legal hands of ``size`` cards (sets by rank; straight flushes by suit)."""
    if size < 5:
        by_rank: dict[str, list[str]] = {}
        for c in cards:
            by_rank.setdefault(rank(c), []).append(c)
        return [tuple(group[:size]) for group in by_rank.values() if len(group) >= size]
    out: list[tuple[str, ...]] = []
    for run in runs(cards, 5):
        out.extend(tuple(run[i : i + 5]) for i in range(len(run) - 4))
    return out


def _follow(state: CourtState, move: Move, hand: Sequence[str], own: str, wary: bool) -> Move:
    assert move.pick is not None
    need = move.pick.least
    lead = classify(state.trick[state.leader])
    assert lead is not None
    best = _top_played(state, lead)
    winners = [
        h
        for h in _hands_of(hand, need)
        if (found := classify(h)) is not None and found.kind == lead.kind and found.strength > best
    ]
    if winners and not wary:
        pick = min(winners, key=lambda h: sum(keep_value(c, hand, own) for c in h))
        if sum(1 for c in pick if suit(c) == own) <= 1:
            return _choose_cards(move, pick)
    cheapest = sorted(hand, key=lambda c: keep_value(c, hand, own))[:need]
    return _choose_cards(move, cheapest)


def _top_played(state: CourtState, lead: TrickHand) -> int:
    top = lead.strength
    for cards in state.trick:
        found = classify(cards) if cards else None
        if found is not None and found.kind == lead.kind:
            top = max(top, found.strength)
    return top


def _after(state: CourtState, seat: int, moves: Sequence[Move], by_kind: dict[str, Move], own: str) -> Move:
    so_far = None if state.blind(seat) else state.score_so_far(seat)
    ahead = state.scores[seat] + (so_far or 0) >= max(state.scores)
    if state.forced:
        if "knock" in by_kind and (so_far is None or so_far >= -15):
            return by_kind["knock"]
        return by_kind["flop"]
    if "bag" in by_kind:
        return by_kind["bag"]
    court = by_kind.get("court")
    if court is not None and court.pick is not None:
        candidates = [c for c, _label in court.pick.items]
        if state.courted[seat]:
            return court.choose(candidates)
        segments = [seg for seg in runs(candidates, 3) if {"A", "Q", "7"} & {rank(c) for c in seg}]
        mine = [seg for seg in segments if suit(seg[0]) == own]
        robbing = [seg for seg in segments if suit(seg[0]) != own and len(seg) >= ROB_AT]
        if mine or robbing:
            return court.choose(max(mine or robbing, key=len))
    if "knock" in by_kind and so_far is not None and ahead:
        late = state.tricks >= LATE_TRICK and so_far > 0
        if so_far >= KNOCK_AT or late or state.scores[seat] + so_far >= state.target:
            return by_kind["knock"]
    return moves[0]
