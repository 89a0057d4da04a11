"""Who takes a round of secret picks, by variant, and the line that says so. The variants'
modules judge each reveal with these; the view says again who took the last one."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import join_names, p
from bot.games.crown.cards import THWARTS, VALUE, known
from bot.games.crown.state import PickState


def thwarted(seats: Sequence[int], picks: Sequence[str | None]) -> list[int]:
    """Defend: the seats among ``seats`` whose pick another revealed pick thwarts."""
    shown = {known(picks[s]) for s in seats}
    return [s for s in seats if any(known(picks[s]) in THWARTS[c] for c in shown if c != picks[s])]


def parity_winner(lord: int, picks: Sequence[str | None]) -> int:
    """Support: the lord on an even sum, the vassal on an odd one."""
    total = sum(VALUE[known(c)] for c in picks[:2])
    return lord if total % 2 == 0 else 1 - lord


def tourney_taker(picks: Sequence[str | None], hands: Sequence[Sequence[str]]) -> int | None:
    """Tourney: the higher card; on a tie, the higher sum of the cards left in ``hands``
    (after the round); None if those are equal too (a drawn round)."""
    a, b = VALUE[known(picks[0])], VALUE[known(picks[1])]
    if a != b:
        return 0 if a > b else 1
    rest = [sum(VALUE[c] for c in h) for h in hands[:2]]
    return None if rest[0] == rest[1] else (0 if rest[0] > rest[1] else 1)


def last_result(state: PickState) -> str:
    """Who took the last reveal's round (``state`` is the one after it): "{p1} wins round 2"."""
    picks, n = state.last_picks, state.last_round
    seats = [s for s, c in enumerate(picks) if c is not None]
    if state.variant == "defend":
        losers = thwarted(seats, picks)
        if state.players == 2:
            return f"{p(1 - losers[0])} wins round {n}" if losers else "no card thwarts the other, pick again"
        if not losers or len(losers) == len(seats):
            return "nobody goes out, pick again"
        return f"{join_names([p(s) for s in losers])} {'is' if len(losers) == 1 else 'are'} out"
    if state.variant == "support":
        assert state.lord is not None, "support always has a lord"
        return f"{p(parity_winner(state.lord, picks))} wins round {n}"
    taker = tourney_taker(picks, state.hands)
    if taker is None:
        return f"round {n} is drawn"
    tie = VALUE[known(picks[0])] == VALUE[known(picks[1])]
    return f"{p(taker)} wins round {n}" + (" on unused cards" if tie else "")
