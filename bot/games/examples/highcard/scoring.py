"""The end of a High Card match: places by rounds taken."""

from __future__ import annotations

from bot.games.base import Outcome, SeatResult
from bot.games.examples.highcard.state import HighCardState
from bot.games.examples.highcard.view import summary


def outcome(state: HighCardState) -> Outcome | None:
    if not state.over:
        return None
    ranks = sorted(set(state.taken), reverse=True)
    results = tuple(SeatResult(seat=s, place=1 + ranks.index(t), score=t) for s, t in enumerate(state.taken))
    return Outcome(results, summary(state))
