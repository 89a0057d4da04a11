"""Hints in a practice match: the move the hard AI would make from the asking seat's view.

The search starts from the state dealt again from that seat's view
(:func:`bot.games.search.hint_view`), so the true hidden cards never reach it, and plays a
fixed amount of work, never a time (at most :data:`~bot.games.search.HINT_ROLLOUTS`
rollouts, ending once they have played the game's ``search.hint_moves`` moves, set by its
measured cost to answer within the hard AI's 0.8 s): for the same match seed, version and
seat, the same view gives the same hint. It runs where the hard AI seats' searches run (:meth:`AISeats.search`: a worker process),
with a generous deadline that only a starved machine reaches (then the hint is the game
AI's choice, as a hard seat's move would be).
"""

from __future__ import annotations

import time

from bot.games.search import HINT_ROLLOUTS, Hint, hint_seed, hint_view
from bot.service import errors
from bot.service.ai_seats import AISeats
from bot.service.store import MatchStore
from db.records import MatchStatus

HINT_LIMIT_SECONDS = 2.0  # the rollouts end the search long before this; a guard for a starved machine


class MatchHints:
    """Answers hints; owns nothing but what it is given."""

    def __init__(self, store: MatchStore, ai_seats: AISeats) -> None:
        self.store = store
        self.ai_seats = ai_seats

    async def hint(self, match_id: int, user_id: int) -> Hint:
        """The hint for ``user_id``'s seat, or a refusal: not seated, not running, not a
        practice match, or nothing to do now."""
        snap = await self.store.get(match_id)
        seat = snap.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated()
        if snap.status != MatchStatus.RUNNING or snap.state is None:
            raise errors.NotRunning("This match is not running, so there is nothing to hint.")
        if not snap.practice:
            raise errors.NotPractice()
        if seat not in snap.to_act() or not snap.legal_moves(seat):
            raise errors.NothingToHint()
        game = snap.game
        seed = hint_seed(snap.record.seed, snap.version, seat)
        seen = hint_view(game, snap.state, seat, seed)
        deadline = time.monotonic() + HINT_LIMIT_SECONDS
        result = await self.ai_seats.search(
            game, seen, seat, seed, deadline, rollouts=HINT_ROLLOUTS, moves=game.search.hint_moves
        )
        return Hint(result.move, game.hint_reason(seen, seat, result.move))
