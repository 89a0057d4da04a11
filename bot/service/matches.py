"""The match service: lobbies, moves, AI seats and deadlines, without Discord.

Every change to a match happens under that match's lock: load, ``engine.apply``, save in
one transaction (state, version, move row), then listeners are told (the Discord layer
edits the table message). A move made against an older version is refused, never merged.

The parts live beside this module: :mod:`bot.service.core` (cache, locks, the move
transaction), :mod:`bot.service.lobby`, :mod:`bot.service.ai_seats`,
:mod:`bot.service.deadlines`, and parties (:mod:`bot.service.parties` for the lobby,
:mod:`bot.service.party_rounds` once it runs); this class puts them together with playing, leaving,
reading and restoring.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import Event, Move
from bot.service import errors
from bot.service.ai_seats import AIDriver
from bot.service.deadlines import DeadlineKeeper
from bot.service.parties import PartyMixin
from bot.service.snapshot import MoveResult, Snapshot, add_events
from db.records import MatchStatus

log = logging.getLogger(__name__)


RECENTLY_ENDED_SECONDS = 600.0  # restore shows again the tables of matches ended this recently


@dataclass
class MatchService(PartyMixin, AIDriver, DeadlineKeeper):
    """Lobbies, moves, AI seats, deadlines and parties of every match (see the module docstring)."""

    # --- moves --------------------------------------------------------------------------

    async def play(
        self, match_id: int, user_id: int, move: str | Move, *, version: int | None = None
    ) -> MoveResult:
        """Apply a human's move. ``version`` (from a button) must be the current one."""
        async with self.lock(match_id):
            snap = await self.get(match_id)
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
            result = await self._apply(snap, seat, user_id, move)
        await self._after_change(result.snapshot, result.events)
        return result

    # --- leaving a running match --------------------------------------------------------

    async def leave_match(self, match_id: int, user_id: int) -> Snapshot:
        """A player leaves a running match: the AI takes the seat; they take a loss."""
        async with self.lock(match_id):
            snap = await self.get(match_id)
            if snap.status != MatchStatus.RUNNING:
                raise errors.NotRunning("This match is not running.")
            seat = snap.seat_of(user_id)
            if seat is None or snap.seats[seat].left:
                raise errors.NotSeated()
            seats = list(snap.seats)
            seats[seat] = replace(seats[seat], left=True)
            name = seats[seat].name
            events = [Event(f"{name} left the match; the AI plays their seat.")]
            old = snap
            snap = await self._lobby_change(
                match_id, seats=tuple(seats), notes=add_events(snap.record.notes, events)
            )
            snap = await self._carry_deadline(old, snap)
        await self._after_change(snap, events)
        return snap

    async def remove_seat(self, match_id: int, user_id: int, target_id: int, *, is_admin: bool) -> Snapshot:
        """The host (or Manage Server) removes a player: from a lobby, their seat goes; in a
        running match, the AI plays their seat and they take a loss (as if they had left)."""
        async with self.lock(match_id):
            snap = await self.get(match_id)
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
                snap, text = await self._drop_from_lobby(snap, seat, "was removed by the host")
                events = [Event(text)]
            else:
                seats = list(snap.seats)
                seats[seat] = replace(seats[seat], left=True)
                events = [Event(f"{name} was removed from the match; the AI plays their seat.")]
                old = snap
                snap = await self._lobby_change(
                    match_id, seats=tuple(seats), notes=add_events(snap.record.notes, events)
                )
                snap = await self._carry_deadline(old, snap)
            log.info("match %s: seat %d (%s) removed by %s", match_id, seat, target_id, user_id)
        if snap.status == MatchStatus.LOBBY or snap.status == MatchStatus.ABANDONED:
            await self._notify(snap, events)
        else:
            await self._after_change(snap, events)
        return snap

    # --- reading ------------------------------------------------------------------------

    async def hand(self, match_id: int, user_id: int) -> tuple[Snapshot, int]:
        snap = await self.get(match_id)
        seat = snap.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated()
        if snap.status == MatchStatus.LOBBY:
            raise errors.NotRunning("The match has not started yet; the host presses Start.")
        return snap, seat

    async def skill_changes(self, match_id: int) -> dict[int, float]:
        """Seat -> change of skill (μ − 3σ) by this finished match, for the rated players."""
        return {
            r.seat: r.skill_change for r in await self.repo.results(match_id) if r.skill_change is not None
        }

    async def export_log(
        self, *, channel_id: int, match_id: int | None, user_id: int, is_admin: bool
    ) -> dict[str, Any]:
        """The move log of a finished match, for a bug report: seed + moves replay it exactly."""
        if match_id is None:
            record = await self.repo.latest_in_channel(channel_id)
            if record is None:
                raise errors.MatchNotFound()
        else:
            record = await self.repo.get_match(match_id)
            if record is None or record.channel_id != channel_id:
                raise errors.MatchNotFound()
        if user_id != record.host_id and not is_admin:
            raise errors.NotHost("export the move log (or someone with Manage Server)")
        if record.status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            raise errors.NotRunning("The move log can be exported once the match is over.")
        moves = await self.repo.moves(record.id)
        return {
            "match": record.id,
            "game": record.game_id,
            "options": record.options,
            "seed": record.seed,
            "status": record.status,
            "seats": [{"name": s.name, "ai": s.ai, "left": s.left} for s in record.seats],
            "moves": [
                {
                    "version": m.version,
                    "seat": m.seat,
                    "move": m.code,
                    "by": "player" if m.user_id else "bot",
                    "at": m.created_at,
                }
                for m in moves
            ],
        }

    # --- start and stop -----------------------------------------------------------------

    async def restore(self, *, freeze: bool = False) -> list[Snapshot]:
        """Load every open match of this process's servers (its Discord shards), re-arm
        deadlines (with the time that was left), wake AIs.

        The garbage collector is paused meanwhile: the many small objects of thousands of
        matches would be walked again and again. With ``freeze`` (a bot that owns its
        process), what is alive then goes to the collector's permanent generation before it
        resumes, so no collection walks the restored matches at all (the first one after a
        restore of 10,000 took 0.4 s, every player waiting); without it (several services in
        one test run), only the loading is paused."""
        parties = await self._remember_parties()
        collecting = gc.isenabled()
        if freeze:
            gc.collect()  # the start-up's garbage, while the heap is small: not to be frozen
        gc.disable()
        try:
            records = await self.repo.matches_with_status(MatchStatus.LOBBY, MatchStatus.RUNNING)
            snaps = [self._snapshot(r) for r in records if self.runs_guild(r.guild_id)]
            if not freeze and collecting:
                gc.enable()
            for i, snap in enumerate(snaps):
                if snap.status == MatchStatus.RUNNING:
                    async with self.lock(snap.id):
                        snap = snaps[i] = await self._restore_deadline(snap)
                    # A crash between a move and its table edit leaves the table one step behind.
                    await self._notify(snap, [])
                    self._arm(snap)
                    self._wake_ai(snap)
            if freeze:
                gc.freeze()
        finally:
            if collecting:
                gc.enable()
        # A stop between a match's last move and its table edit leaves the table showing a
        # match still running: tables of matches that ended just before are shown again.
        for record in await self.repo.ended_since(self.clock() - RECENTLY_ENDED_SECONDS):
            if self.runs_guild(record.guild_id):
                await self._notify(self._snapshot(record), [])
        log.info("restored %d open matches", len(snaps))
        await self._restore_parties(parties)
        return snaps

    async def close(self) -> None:
        self._closed = True
        try:
            await asyncio.wait_for(self.settle(), timeout=5)
        except TimeoutError:
            log.warning("table updates still pending at shutdown")
        for timer in self._timers.values():
            timer.handle.cancel()
        for pause in self._ai_pauses.values():
            pause.cancel()
        self._ai_pauses.clear()
        tasks = [*self._firing, *self._ai_tasks.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._timers.clear()
        self._ai_tasks.clear()


__all__ = ["MatchService"]
