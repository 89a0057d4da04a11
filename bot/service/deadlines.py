"""Deadlines: the turn timer (reminder, default move, replacement by the AI) and rule timers.

A match's deadlines are stored with it as JSON (``MatchRecord.deadline``) so that a restart
re-arms them with the time that was left; :class:`Deadlines` is their typed form.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import Event, Game, GameError
from bot.service import errors
from bot.service.core import ServiceCore, Timer
from bot.service.snapshot import MoveResult, Snapshot
from db.records import MatchStatus, Seat

log = logging.getLogger(__name__)

MISSES_BEFORE_REPLACED = 3


@dataclass(frozen=True, slots=True)
class RuleDeadline:
    """A rule timer: at ``at``, ``seat`` makes ``move`` (the game's TimedMove)."""

    at: float
    seat: int
    move: str
    reason: str

    def same_rule(self, other: RuleDeadline | None) -> bool:
        return other is not None and (self.seat, self.move, self.reason) == (
            other.seat,
            other.move,
            other.reason,
        )


@dataclass(frozen=True, slots=True)
class TurnDeadline:
    """The turn timer: ``seats`` are reminded at ``warn_at`` and timed out at ``at``."""

    at: float
    warn_at: float
    warned: bool
    seats: tuple[int, ...]

    @property
    def next_at(self) -> float:
        return self.at if self.warned else self.warn_at


@dataclass(frozen=True, slots=True)
class Deadlines:
    """Every deadline of one version of a match, as stored in ``MatchRecord.deadline``."""

    version: int
    rule: RuleDeadline | None = None
    turn: TurnDeadline | None = None

    @property
    def empty(self) -> bool:
        return self.rule is None and self.turn is None

    @property
    def next_at(self) -> float | None:
        times = [d.at for d in (self.rule,) if d] + [t.next_at for t in (self.turn,) if t]
        return min(times) if times else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version}
        if self.rule:
            out["rule"] = {
                "at": self.rule.at,
                "seat": self.rule.seat,
                "move": self.rule.move,
                "reason": self.rule.reason,
            }
        if self.turn:
            t = self.turn
            out["turn"] = {"at": t.at, "warn_at": t.warn_at, "warned": t.warned, "seats": list(t.seats)}
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> Deadlines | None:
        if not data:
            return None
        rule, turn = data.get("rule"), data.get("turn")
        return Deadlines(
            version=int(data["version"]),
            rule=RuleDeadline(float(rule["at"]), int(rule["seat"]), str(rule["move"]), str(rule["reason"]))
            if rule
            else None,
            turn=TurnDeadline(
                float(turn["at"]),
                float(turn["warn_at"]),
                bool(turn["warned"]),
                tuple(int(x) for x in turn["seats"]),
            )
            if turn
            else None,
        )


def stored(deadlines: Deadlines | None) -> tuple[float | None, dict[str, Any] | None]:
    """The (next time, JSON) pair the repository stores; (None, None) for no deadline."""
    if deadlines is None or deadlines.empty:
        return None, None
    return deadlines.next_at, deadlines.to_json()


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
        """The next deadlines of this state (a rule timer and/or the turn timer), as stored.

        A rule timer that was already running for the same move (for example the 5-minute
        questioning while the Witch strikes) keeps its deadline instead of starting again."""
        now = self.clock()
        rule = turn = None
        timed = game.timer(state)
        if timed is not None:
            rule = RuleDeadline(now + timed.seconds, timed.seat, timed.move, timed.reason)
            before = Deadlines.from_json(previous)
            if before is not None and before.rule is not None and rule.same_rule(before.rule):
                rule = replace(rule, at=before.rule.at)
        humans = tuple(sorted(s for s in game.awaited(state) if not seats[s].played_by_ai))
        if turn_seconds > 0 and humans:
            at = now + turn_seconds
            turn = TurnDeadline(at, at - min(60.0, turn_seconds / 4), False, humans)
        return stored(Deadlines(version, rule, turn))

    def _arm(self, snap: Snapshot) -> None:
        """Arm the match's deadline for its version. The handle it has already is kept when
        it fires no later than this deadline (it then sleeps again for the time left); only
        an earlier deadline cancels it for a new one."""
        rec = snap.record
        current = self._timers.get(snap.id)
        if current is not None and current.version == rec.version:
            return
        if rec.deadline_at is None or not rec.deadline or rec.deadline.get("version") != rec.version:
            if current is not None:
                current.version = None  # nothing due: the handle ends quietly when it fires
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, rec.deadline_at - self.clock())
        if current is not None and current.handle.when() <= loop.time() + delay:
            current.version, current.at = rec.version, rec.deadline_at
            return
        self._disarm(snap.id)
        handle = loop.call_later(delay, self._start_firing, snap.id)
        self._timers[snap.id] = Timer(rec.version, rec.deadline_at, handle)

    def _disarm(self, match_id: int) -> None:
        timer = self._timers.pop(match_id, None)
        if timer is not None:
            timer.handle.cancel()

    def _start_firing(self, match_id: int) -> None:
        timer = self._timers.get(match_id)
        if timer is None:
            return
        version, left = timer.version, timer.at - self.clock()
        if version is not None and left > 0.001 and not self._closed:  # fired early: sleep again
            timer.handle = asyncio.get_running_loop().call_later(left, self._start_firing, match_id)
            return
        del self._timers[match_id]
        if self._closed or version is None:
            return
        task = asyncio.create_task(self._fire(match_id, version), name=f"deadline-{match_id}")
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _fire(self, match_id: int, version: int) -> None:
        results: list[MoveResult] = []
        reminder: tuple[Snapshot, list[int], float] | None = None
        async with self.lock(match_id):
            snap = await self.get(match_id)
            rec = snap.record
            if snap.status != MatchStatus.RUNNING or rec.version != version or not rec.deadline:
                return
            deadline = Deadlines.from_json(rec.deadline)
            assert deadline is not None
            now = self.clock()
            rule, turn = deadline.rule, deadline.turn
            try:
                if rule and rule.at <= now + 0.001:
                    log.info("match %s: rule deadline (%s)", match_id, rule.reason)
                    results.append(await self._apply(snap, rule.seat, None, rule.move))
                elif turn and not turn.warned and turn.warn_at <= now + 0.001:
                    deadline = replace(deadline, turn=replace(turn, warned=True))
                    await self.repo.set_deadline(match_id, version, *stored(deadline))
                    snap = await self._fresh(match_id)
                    waiting = [s for s in turn.seats if s in snap.to_act()]
                    reminder = (snap, waiting, max(0.0, turn.at - now))
                elif turn and turn.at <= now + 0.001:
                    results.extend(await self._time_out(snap, turn.seats))
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
                self._release(match_id)

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
                extra.append(
                    Event(f"{name} missed {missed} deadlines in a row and has left; the AI plays their seat.")
                )
            move = snap.game.default_move(snap.state, seat)
            result = await self._apply(
                snap, seat, None, move, seat_changes={seat: changed}, extra_events=extra
            )
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
        before = Deadlines.from_json(deadline)
        assert before is not None
        turn = before.turn
        if turn is not None:
            waiting = tuple(s for s in turn.seats if not new.seats[s].played_by_ai)
            turn = replace(turn, seats=waiting) if waiting else None
        carried = replace(before, version=new.version, turn=turn)
        await self.repo.set_deadline(new.id, new.version, *stored(carried))
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
