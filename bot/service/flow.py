"""The interfaces the parts of the service are given at construction to reach the rest.

The front (:class:`bot.service.matches.MatchService`) implements them by wiring the parts;
no part calls another part's private methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.games.base import Event
from bot.service.snapshot import Snapshot


class MatchFlow(Protocol):
    """What follows a change of a match: its listeners are told, then a running match's
    deadlines are armed and its AI seats woken, or what an ended match held is let go."""

    async def after_change(self, snap: Snapshot, events: Sequence[Event]) -> None: ...

    def release(self, match_id: int) -> None:
        """The match is over: drop its armed deadline and its AI seats' pending pause."""
        ...


class MatchSeats(Protocol):
    """A match's seats as a party changes them: a player leaving, a table cancelled."""

    async def leave_match(self, match_id: int, user_id: int) -> Snapshot: ...

    async def cancel(self, match_id: int, user_id: int, *, is_admin: bool) -> Snapshot: ...


class PartyOfMatch(Protocol):
    """Which party, if any, a match is a table of."""

    async def party_of_match(self, match_id: int) -> int | None: ...
