"""AI seats: the service plays them, one move at a time, with a short visible pause.

Each AI seat plays at its level (``Seat.level``, see :mod:`bot.games.search`): easy and
normal choose under the match lock (microseconds); hard searches off the event loop and
without the lock, for at most ``ai_think`` seconds, on the snapshot of one version: in a
worker process (``ai_processes``, :mod:`bot.service.thinkers`; a search in a thread would
hold the GIL against the event loop) or, with ``ai_processes`` 0, in a worker thread. The
move is then applied under the lock only if the match is still at that version (a human may
have moved meanwhile in a simultaneous phase); otherwise it thinks again. The visible pause
``ai_delay`` includes the thinking: only the remainder is slept.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from bot.games.base import Game, GameError, Move
from bot.games.search import SearchResult, level_move, search_move
from bot.service import errors, thinkers
from bot.service.flow import MatchFlow
from bot.service.snapshot import Snapshot
from bot.service.store import MatchStore
from db.records import MatchStatus

log = logging.getLogger(__name__)

MAX_AI_MOVES_PER_WAKE = 500
AI_PAUSE_SECONDS = 0.5
HARD_ROLLOUT_CAP = 4_000  # the time budget binds first on this machine


class AISeats:
    """Owns the AI seats' play: their pending visible pauses and the tasks playing them."""

    def __init__(
        self,
        store: MatchStore,
        flow: MatchFlow,
        *,
        delay: float = 0.8,
        think: float = 0.8,
        processes: int = 0,
    ) -> None:
        self.store = store
        self.flow = flow
        self.delay = delay  # the visible pause before an AI seat's move, in seconds
        self.think = think  # a hard AI seat's thinking budget per move, in seconds (within delay)
        self.processes = processes  # hard AI searches: in a pool of this many processes (0: a thread)
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.pauses: dict[int, asyncio.TimerHandle] = {}  # AI seats in their pause
        self.closed = False

    def _ai_seats_to_act(self, snap: Snapshot) -> list[int]:
        """The AI seats that may act and do not hold back (``Game.ai_waits``): an AI King at
        Court lets the others question before ending it."""
        return sorted(
            s for s in snap.to_act() if snap.seats[s].played_by_ai and not snap.game.ai_waits(snap.state, s)
        )

    @staticmethod
    def _ai_level(snap: Snapshot, seat: int) -> str:
        """A seat added as AI plays at its level; a human who left is played at normal."""
        record = snap.seats[seat]
        return record.level if record.ai else "normal"

    @staticmethod
    def _watched(snap: Snapshot) -> bool:
        """Whether a person still plays a seat: the visible pause is for them to follow the AI.
        A match whose players all left is played to its end without it."""
        return any(not seat.played_by_ai for seat in snap.seats)

    @staticmethod
    def _ai_seed(snap: Snapshot, seat: int) -> int:
        return snap.record.seed ^ (snap.version * 0x2545F4914F6CDD1D + seat)

    def wake(self, snap: Snapshot) -> None:
        """Set the match's AI seats playing, unless they already are. A seat that plays at
        once (easy or normal) first waits out the visible pause as a handle on the event
        loop's clock, and its task starts only when the pause ends: a restart wakes thousands
        of AI seats, and a sleeping task each cost about a third of the restore. A hard seat
        starts at once: it thinks during the pause."""
        seats = [] if self.closed else self._ai_seats_to_act(snap)
        if not seats:
            return
        pause = self.pauses.get(snap.id)
        if pause is not None:
            if self._watched(snap):
                return
            pause.cancel()  # the last person left during the pause: nobody waits to follow it
            self._start_ai(snap.id, True)
            return
        task = self.tasks.get(snap.id)
        if task is not None and not task.done():
            return
        if self.delay > 0 and self._ai_level(snap, seats[0]) != "hard" and self._watched(snap):
            loop = asyncio.get_running_loop()
            self.pauses[snap.id] = loop.call_later(self.delay, self._start_ai, snap.id, True)
        else:
            self._start_ai(snap.id, False)

    def _start_ai(self, match_id: int, paused: bool) -> None:
        self.pauses.pop(match_id, None)
        if not self.closed:
            task = asyncio.create_task(self._drive_ai(match_id, paused), name=f"ai-{match_id}")
            self.tasks[match_id] = task
            task.add_done_callback(lambda done: self._ai_done(match_id, done))

    def _ai_done(self, match_id: int, task: asyncio.Task[None]) -> None:
        """An AI task ended (no AI seat to act, the match over, or shutdown): forget it, so
        the map holds only the matches whose AI seats are playing now."""
        if self.tasks.get(match_id) is task:
            del self.tasks[match_id]

    async def _drive_ai(self, match_id: int, paused: bool = False) -> None:
        """Play every AI seat's turn until a human is awaited or the match ends (``paused``:
        the first move's visible pause is over already). After a long run of AI moves (a
        table of AI seats only) it pauses briefly, then goes on: a match whose players all
        left must still end."""
        while not self.closed:
            if await self._drive_ai_moves(match_id, paused):
                return
            paused = False
            log.info("match %s: AI made %d moves in a row; pausing", match_id, MAX_AI_MOVES_PER_WAKE)
            await asyncio.sleep(AI_PAUSE_SECONDS)

    async def _think(self, match_id: int) -> tuple[int, int, Move] | None:
        """If the next AI seat to act plays hard: its searched move, as (version, seat, move),
        computed in a worker process (or thread) within ``ai_think`` seconds (0.8 s: one
        rollout more and a busy machine stay near 1 s). None otherwise."""
        snap = await self.store.get(match_id)
        if snap.status != MatchStatus.RUNNING:
            return None
        seats = self._ai_seats_to_act(snap)
        if not seats or self._ai_level(snap, seats[0]) != "hard":
            return None
        seat = seats[0]
        result = await self.search(
            snap.game, snap.state, seat, self._ai_seed(snap, seat), time.monotonic() + self.think
        )
        log.debug("match %s: hard AI seat %d searched %d rollouts", match_id, seat, result.rollouts)
        return snap.version, seat, result.move

    async def search(
        self,
        game: Game[Any],
        state: Any,
        seat: int,
        seed: int,
        deadline: float,
        rollouts: int = HARD_ROLLOUT_CAP,
        moves: int | None = None,
    ) -> SearchResult:
        """The hard level's search, until ``deadline`` (``time.monotonic()``), ``rollouts``
        or ``moves`` (a hint's fixed work), off the event loop."""
        if self.processes > 0:
            return await thinkers.search(self.processes, game, state, seat, seed, rollouts, deadline, moves)

        def stop() -> bool:
            return self.closed or time.monotonic() >= deadline

        return await asyncio.to_thread(search_move, game, state, seat, seed, rollouts, stop, moves)

    async def _drive_ai_moves(self, match_id: int, paused: bool = False) -> bool:
        """Up to MAX_AI_MOVES_PER_WAKE AI moves; True when no AI seat is to act any more.
        ``paused``: the first move's visible pause is over already."""
        for _ in range(MAX_AI_MOVES_PER_WAKE):
            started = time.monotonic()
            planned = await self._think(match_id)
            if self.closed:
                return True
            remaining = self.delay - (time.monotonic() - started)
            pause = remaining if self.delay and remaining > 0 and not paused else 0
            if pause and not self._watched(await self.store.get(match_id)):
                pause = 0  # nobody left to follow it
            # The AI's visible pause; without one, still a turn of the event loop for everyone
            # else between two AI moves (a move's write may finish without suspending: db.writer).
            await asyncio.sleep(pause)
            paused = False
            async with self.store.lock(match_id):
                snap = await self.store.get(match_id)
                seats = self._ai_seats_to_act(snap)
                if not seats:
                    return True
                seat = seats[0]
                level = self._ai_level(snap, seat)
                if level == "hard" and (planned is None or planned[:2] != (snap.version, seat)):
                    continue  # the match moved on while it thought: think again on this version
                try:
                    if planned is not None and level == "hard":
                        move: Move | str = planned[2]
                    else:
                        seed = self._ai_seed(snap, seat)
                        move = level_move(snap.game, snap.state, seat, level, seed)
                    result = await self.store.apply(snap, seat, None, move)
                except errors.StaleVersion:
                    continue
                except GameError:
                    log.exception(
                        "match %s: AI seat %d chose an illegal move; using the default", match_id, seat
                    )
                    result = await self.store.apply(
                        snap, seat, None, snap.game.default_move(snap.state, seat)
                    )
            await self.flow.after_change(result.snapshot, result.events)
            if result.snapshot.status != MatchStatus.RUNNING:
                return True
        return False

    def forget(self, match_id: int) -> None:
        """The match is over: drop its AI seats' pending pause (its task ends by itself)."""
        pause = self.pauses.pop(match_id, None)
        if pause is not None:
            pause.cancel()

    def close(self) -> list[asyncio.Task[None]]:
        """Stop playing; the AI tasks, cancelled, to be awaited."""
        self.closed = True
        for pause in self.pauses.values():
            pause.cancel()
        self.pauses.clear()
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        self.tasks.clear()
        return tasks
