"""Playing a running match: a person's move, leaving, a host removing a player, a hand."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.games.base import Event, Move
from bot.service import errors
from bot.service.deadlines import DeadlineKeeper
from bot.service.flow import MatchFlow
from bot.service.lobby_flow import SeatingLobby
from bot.service.notifier import Notifier
from bot.service.snapshot import MoveResult, Snapshot, add_events
from bot.service.store import MatchStore
from db.records import MatchStatus, Seat

log = logging.getLogger(__name__)


class MatchPlay:
    """The rules of who may move in and leave a match; owns no state of its own."""

    def __init__(
        self,
        store: MatchStore,
        seating: SeatingLobby[Snapshot, Seat],
        deadlines: DeadlineKeeper,
        notifier: Notifier,
        flow: MatchFlow,
    ) -> None:
        self.store = store
        self.seating = seating
        self.deadlines = deadlines
        self.notifier = notifier
        self.flow = flow

    async def play(
        self, match_id: int, user_id: int, move: str | Move, *, version: int | None = None
    ) -> MoveResult:
        """Apply a human's move. ``version`` (from a button) must be the current one."""
        async with self.store.lock(match_id):
            snap = await self.store.get(match_id)
            if snap.status != MatchStatus.RUNNING:
                raise errors.NotRunning(
                    "This match is over."
                    if snap.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)
                    else "This match has not started yet."
                )
            seat = snap.seat_of(user_id)
            if seat is None:
                raise errors.NotSeated()
            if snap.seats[seat].left:
                raise errors.NotSeated("You left this match; the AI plays your seat now.")
            if version is not None and version != snap.version:
                raise errors.StaleVersion()
            result = await self.store.apply(snap, seat, user_id, move)
        await self.flow.after_change(result.snapshot, result.events)
        return result

    async def _hand_to_ai(self, snap: Snapshot, seat: int, event: Event) -> Snapshot:
        """The AI takes a running match's seat (its player takes a loss). Lock held."""
        seats = list(snap.seats)
        seats[seat] = replace(seats[seat], left=True)
        changed = await self.store.change(
            snap.id, seats=tuple(seats), notes=add_events(snap.record.notes, [event], move=False)
        )
        return await self.deadlines.carry(snap, changed)

    async def leave_match(self, match_id: int, user_id: int) -> Snapshot:
        """A player leaves a running match: the AI takes the seat; they take a loss."""
        async with self.store.lock(match_id):
            snap = await self.store.get(match_id)
            if snap.status != MatchStatus.RUNNING:
                raise errors.NotRunning("This match is not running.")
            seat = snap.seat_of(user_id)
            if seat is None or snap.seats[seat].left:
                raise errors.NotSeated()
            events = [Event(f"{snap.seats[seat].name} left the match; the AI plays their seat.")]
            snap = await self._hand_to_ai(snap, seat, events[0])
        await self.flow.after_change(snap, events)
        return snap

    async def remove_seat(self, match_id: int, user_id: int, target_id: int, *, is_admin: bool) -> Snapshot:
        """The host (or Manage Server) removes a player: from a lobby, their seat goes; in a
        running match, the AI plays their seat and they take a loss (as if they had left)."""
        async with self.store.lock(match_id):
            snap = await self.store.get(match_id)
            if snap.status not in (MatchStatus.LOBBY, MatchStatus.RUNNING):
                raise errors.NotRunning("This match has already ended.")
            if user_id != snap.record.host_id and not is_admin:
                raise errors.NotHost("remove a player (or someone with Manage Server)")
            if target_id == user_id:
                raise errors.LobbyError("You cannot remove yourself; use /leave instead.")
            seat = snap.seat_of(target_id)
            if seat is None or snap.seats[seat].left:
                raise errors.NotSeated("That player has no seat in this match.")
            name = snap.seats[seat].name
            if snap.status == MatchStatus.LOBBY:
                snap, text = await self.seating.drop(snap, seat, "was removed by the host")
                events = [Event(text)]
            else:
                events = [Event(f"{name} was removed from the match; the AI plays their seat.")]
                snap = await self._hand_to_ai(snap, seat, events[0])
            log.info("match %s: seat %d (%s) removed by %s", match_id, seat, target_id, user_id)
        if snap.status == MatchStatus.LOBBY or snap.status == MatchStatus.ABANDONED:
            self.notifier.tell(snap, events)
        else:
            await self.flow.after_change(snap, events)
        return snap

    async def hand(self, match_id: int, user_id: int) -> tuple[Snapshot, int]:
        snap = await self.store.get(match_id)
        seat = snap.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated()
        if snap.status == MatchStatus.LOBBY:
            raise errors.NotRunning("The match has not started yet; the host presses Start.")
        return snap, seat
