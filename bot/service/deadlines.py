"""Deadlines: the turn timer (reminder, default move, replacement by the AI) and rule timers.

A match's deadlines are stored with it as JSON (``MatchRecord.deadline``) so that a restart
re-arms them with the time that was left; :class:`Deadlines` is their typed form.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.games.base import Event, Game, GameError
from bot.service import errors
from bot.service.core import ServiceCore, Timer
from bot.service.snapshot import MoveResult, Snapshot
from db.records import MatchStatus, Seat

log = logging.getLogger(__name__)

CORRESPONDENCE_SECONDS = 24 * 3600
MISSES_BEFORE_REPLACED = 3




class DeadlineKeeper(ServiceCore):
    def _deadline_for(
        self,
        game: Game,
        state: Any,
        version: int,
        seats: Sequence[Seat],
        turn_seconds: int,
        previous: Mapping[str, Any] | None = None,
    ) -> tuple[float | None, dict[str, Any] | None]:
        """The next deadlines of this state: a rule timer and/or the turn timer.

        A rule timer that was already running for the same move (for example the 5-minute
        questioning while the Witch strikes) keeps its deadline instead of starting again."""
        now = self.clock()
        deadline: dict[str, Any] = {"version": version}
        timed = game.timer(state)
        if timed is not None:
            rule = {"at": now + timed.seconds, "seat": timed.seat, "move": timed.move, "reason": timed.reason}
            old = (previous or {}).get("rule")
            if old and (old["seat"], old["move"], old["reason"]) == (timed.seat, timed.move, timed.reason):
                rule["at"] = old["at"]
            deadline["rule"] = rule
        awaited = game.awaited(state)
        humans = sorted(s for s in awaited if not seats[s].played_by_ai)
        if turn_seconds > 0 and humans:
            at = now + turn_seconds
            warn = min(60.0, turn_seconds / 4)
            deadline["turn"] = {"at": at, "warn_at": at - warn, "warned": False, "seats": humans}
        if len(deadline) == 1:
            return None, None
        return self._next_time(deadline), deadline

    @staticmethod
    def _next_time(deadline: Mapping[str, Any]) -> float | None:
        times = []
        if "rule" in deadline:
            times.append(deadline["rule"]["at"])
        turn = deadline.get("turn")
        if turn:
            times.append(turn["at"] if turn["warned"] else turn["warn_at"])
        return min(times) if times else None

    def _arm(self, snap: Snapshot) -> None:
        rec = snap.record
        current = self._timers.get(snap.id)
        if current is not None and current.version == rec.version and not current.task.done():
            return
        self._disarm(snap.id)
        if rec.deadline_at is None or not rec.deadline or rec.deadline.get("version") != rec.version:
            return
        delay = max(0.0, rec.deadline_at - self.clock())
        task = asyncio.create_task(self._fire(snap.id, rec.version, delay), name=f"deadline-{snap.id}")
        self._timers[snap.id] = Timer(rec.version, task)

    def _disarm(self, match_id: int) -> None:
        timer = self._timers.pop(match_id, None)
        if timer is not None and timer.task is not asyncio.current_task():
            timer.task.cancel()

    async def _fire(self, match_id: int, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._timers.pop(match_id, None)
        results: list[MoveResult] = []
        reminder: tuple[Snapshot, list[int], float] | None = None
        async with self.lock(match_id):
            snap = await self.get(match_id)
            rec = snap.record
            if snap.status != MatchStatus.RUNNING or rec.version != version or not rec.deadline:
                return
            deadline = dict(rec.deadline)
            now = self.clock()
            rule, turn = deadline.get("rule"), deadline.get("turn")
            try:
                if rule and rule["at"] <= now + 0.001:
                    log.info("match %s: rule deadline (%s)", match_id, rule.get("reason"))
                    results.append(await self._apply(snap, int(rule["seat"]), None, str(rule["move"])))
                elif turn and not turn["warned"] and turn["warn_at"] <= now + 0.001:
                    turn = dict(turn, warned=True)
                    deadline["turn"] = turn
                    at = self._next_time(deadline)
                    await self.repo.set_deadline(match_id, version, at, deadline)
                    snap = await self._fresh(match_id)
                    waiting = [s for s in turn["seats"] if s in snap.to_act()]
                    reminder = (snap, waiting, max(0.0, turn["at"] - now))
                elif turn and turn["at"] <= now + 0.001:
                    results.extend(await self._time_out(snap, [int(s) for s in turn["seats"]]))
            except (GameError, errors.ServiceError):
                log.exception("match %s: deadline %s failed", match_id, deadline)
                return
        if reminder is not None:
            snap, waiting, left = reminder
            for listener in list(self.listeners):
                self._background(listener.remind(snap, waiting, left), match_id)
            self._arm(snap)
            return
        for result in results:
            await self._notify(result.snapshot, result.events)
        if results:
            last = results[-1].snapshot
            if last.status == MatchStatus.RUNNING:
                self._arm(last)
                self._wake_ai(last)
            else:
                self._disarm(match_id)

    async def _time_out(self, snap: Snapshot, seats: Sequence[int]) -> list[MoveResult]:
        """The turn deadline passed: the game's default move for each waiting human."""
        results = []
        for seat in seats:
            if seat not in snap.to_act() or snap.seats[seat].played_by_ai:
                continue
            missed = snap.seats[seat].missed + 1
            changed = replace(snap.seats[seat], missed=missed, left=missed >= MISSES_BEFORE_REPLACED)
            name = changed.name
            extra = [Event(f"{name} ran out of time; the default move was made for them.")]
            if changed.left:
                extra.append(Event(f"{name} missed {missed} deadlines in a row and has left; the AI plays their seat."))
            move = snap.game.default_move(snap.state, seat)
            result = await self._apply(snap, seat, None, move, seat_changes={seat: changed}, extra_events=extra)
            log.info("match %s: seat %d timed out (%d in a row)", snap.id, seat, missed)
            results.append(result)
            snap = result.snapshot
            if snap.status != MatchStatus.RUNNING:
                break
        return results

    async def _carry_deadline(self, old: Snapshot, new: Snapshot) -> Snapshot:
        """A seat change bumped the version without a move: keep the other players' deadline
        (same time) for the new version, without the seats the AI plays now. Lock held."""
        deadline = old.record.deadline
        if not deadline or deadline.get("version") != old.version or new.status != MatchStatus.RUNNING:
            return new
        carried: dict[str, Any] = dict(deadline, version=new.version)
        turn = carried.get("turn")
        if turn:
            waiting = [s for s in turn["seats"] if not new.seats[int(s)].played_by_ai]
            if waiting:
                carried["turn"] = dict(turn, seats=waiting)
            else:
                del carried["turn"]
        if len(carried) == 1:
            await self.repo.set_deadline(new.id, new.version, None, None)
        else:
            await self.repo.set_deadline(new.id, new.version, self._next_time(carried), carried)
        return await self._fresh(new.id)

    async def _restore_deadline(self, snap: Snapshot) -> Snapshot:
        """A running match whose stored deadline is not for its current version (a crash
        between a seat change and its deadline update) gets fresh deadlines."""
        rec = snap.record
        if snap.state is None or (rec.deadline and rec.deadline.get("version") == rec.version):
            return snap
        turn = await self.turn_seconds(rec.guild_id)
        at, deadline = self._deadline_for(snap.game, snap.state, rec.version, rec.seats, turn)
        if deadline is None and rec.deadline is None:
            return snap
        await self.repo.set_deadline(snap.id, rec.version, at, deadline)
        log.info("match %s: deadline renewed for v%d at restore", snap.id, rec.version)
        return await self._fresh(snap.id)
