"""The deadline keeper: the turn timer (reminder, default move, replacement by the AI) and
rule timers, armed on the event loop's clock and fired under the match's lock.

What a state's deadlines are and how they are stored is :mod:`bot.service.deadline_plans`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.games.base import Event, GameError
from bot.service import errors
from bot.service.deadline_plans import DeadlinePlanner, Deadlines, stored
from bot.service.flow import MatchFlow
from bot.service.notifier import Notifier
from bot.service.snapshot import MoveResult, Snapshot
from bot.service.store import MatchStore
from db.records import MatchStatus

log = logging.getLogger(__name__)

MISSES_BEFORE_REPLACED = 3


@dataclass
class Timer:
    """A match's armed deadline: a handle on the event loop's clock (cheap: a restart arms
    thousands), which starts a task when it fires, and what it is for now: the version and
    its deadline (``at``, the service's clock), or nothing (``version`` None).

    One handle serves a match's successive deadlines: a move that sets a later deadline
    (nearly every one) only changes ``version`` and ``at``, and a handle that fires early
    sleeps again for the time left. Cancelling a handle leaves it in the loop's queue until
    its time comes (or until cancelled ones are half the queue): one a move made 13,000
    objects for 8,000 moves (issue 47)."""

    version: int | None
    at: float
    handle: asyncio.TimerHandle


class DeadlineKeeper:
    """Owns the armed timers of running matches and the deadlines being handled."""

    def __init__(
        self,
        store: MatchStore,
        planner: DeadlinePlanner,
        notifier: Notifier,
        flow: MatchFlow,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.planner = planner
        self.notifier = notifier
        self.flow = flow
        self.clock = clock
        self.timers: dict[int, Timer] = {}
        self.firing: set[asyncio.Task[None]] = set()
        self.closed = False

    def arm(self, snap: Snapshot) -> None:
        """Arm the match's deadline for its version. The handle it has already is kept when
        it fires no later than this deadline (it then sleeps again for the time left); only
        an earlier deadline cancels it for a new one."""
        record = snap.record
        current = self.timers.get(snap.id)
        if current is not None and current.version == record.version:
            return
        if (
            record.deadline_at is None
            or not record.deadline
            or record.deadline.get("version") != record.version
        ):
            if current is not None:
                current.version = None  # nothing due: the handle ends quietly when it fires
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, record.deadline_at - self.clock())
        if current is not None and current.handle.when() <= loop.time() + delay:
            current.version, current.at = record.version, record.deadline_at
            return
        self.disarm(snap.id)
        handle = loop.call_later(delay, self._start_firing, snap.id)
        self.timers[snap.id] = Timer(record.version, record.deadline_at, handle)

    def disarm(self, match_id: int) -> None:
        timer = self.timers.pop(match_id, None)
        if timer is not None:
            timer.handle.cancel()

    def _start_firing(self, match_id: int) -> None:
        timer = self.timers.get(match_id)
        if timer is None:
            return
        version, left = timer.version, timer.at - self.clock()
        if version is not None and left > 0.001 and not self.closed:  # fired early: sleep again
            timer.handle = asyncio.get_running_loop().call_later(left, self._start_firing, match_id)
            return
        del self.timers[match_id]
        if self.closed or version is None:
            return
        task = asyncio.create_task(self._fire(match_id, version), name=f"deadline-{match_id}")
        self.firing.add(task)
        task.add_done_callback(self.firing.discard)

    async def _fire(self, match_id: int, version: int) -> None:
        results: list[MoveResult] = []
        reminder: tuple[Snapshot, list[int], float] | None = None
        async with self.store.lock(match_id):
            snap = await self.store.get(match_id)
            record = snap.record
            if snap.status != MatchStatus.RUNNING or record.version != version or not record.deadline:
                return
            deadline = Deadlines.from_json(record.deadline)
            assert deadline is not None
            now = self.clock()
            rule, turn = deadline.rule, deadline.turn
            try:
                if rule and rule.at <= now + 0.001:
                    log.info("match %s: rule deadline (%s)", match_id, rule.reason)
                    results.append(await self.store.apply(snap, rule.seat, None, rule.move))
                elif turn and not turn.warned and turn.warn_at <= now + 0.001:
                    deadline = replace(deadline, turn=replace(turn, warned=True))
                    await self.store.repo.set_deadline(match_id, version, *stored(deadline))
                    snap = await self.store.fresh(match_id)
                    waiting = [seat for seat in turn.seats if seat in snap.to_act()]
                    reminder = (snap, waiting, max(0.0, turn.at - now))
                elif turn and turn.at <= now + 0.001:
                    results.extend(await self._time_out(snap, turn.seats))
            except (GameError, errors.ServiceError):
                log.exception("match %s: deadline %s failed", match_id, deadline)
                return
        if reminder is not None:
            snap, waiting, left = reminder
            self.notifier.remind(snap, waiting, left)
            self.arm(snap)
            return
        for result in results[:-1]:
            self.notifier.tell(result.snapshot, result.events)
        if results:
            await self.flow.after_change(results[-1].snapshot, results[-1].events)

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
            result = await self.store.apply(
                snap, seat, None, move, seat_changes={seat: changed}, extra_events=extra
            )
            log.info("match %s: seat %d timed out (%d in a row)", snap.id, seat, missed)
            results.append(result)
            snap = result.snapshot
            if snap.status != MatchStatus.RUNNING:
                break
        return results

    async def carry(self, old: Snapshot, new: Snapshot) -> Snapshot:
        """A seat change bumped the version without a move: keep the other players' deadline
        (same time) for the new version, without the seats the AI plays now. Lock held."""
        deadline = old.record.deadline
        if not deadline or deadline.get("version") != old.version or new.status != MatchStatus.RUNNING:
            return new
        before = Deadlines.from_json(deadline)
        assert before is not None
        turn = before.turn
        if turn is not None:
            waiting = tuple(seat for seat in turn.seats if not new.seats[seat].played_by_ai)
            turn = replace(turn, seats=waiting) if waiting else None
        carried = replace(before, version=new.version, turn=turn)
        await self.store.repo.set_deadline(new.id, new.version, *stored(carried))
        return await self.store.fresh(new.id)

    async def renew(self, snap: Snapshot) -> Snapshot:
        """A running match whose stored deadline is not for its current version (a crash
        between a seat change and its deadline update) gets fresh deadlines. Lock held."""
        record = snap.record
        if snap.state is None or (record.deadline and record.deadline.get("version") == record.version):
            return snap
        at, deadline = await self.planner.plan(
            snap.game, snap.state, record.version, record.seats, record.guild_id
        )
        if deadline is None and record.deadline is None:
            return snap
        await self.store.repo.set_deadline(snap.id, record.version, at, deadline)
        log.info("match %s: deadline renewed for v%d at restore", snap.id, record.version)
        return await self.store.fresh(snap.id)

    def close(self) -> list[asyncio.Task[None]]:
        """Stop arming and firing; the deadlines being handled, cancelled, to be awaited."""
        self.closed = True
        for timer in self.timers.values():
            timer.handle.cancel()
        self.timers.clear()
        tasks = list(self.firing)
        for task in tasks:
            task.cancel()
        return tasks
