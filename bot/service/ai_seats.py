"""AI seats: the service plays them, one move at a time, with a short visible pause."""

from __future__ import annotations

import asyncio
import logging

from bot.games.base import GameError, Rng
from bot.service import errors
from bot.service.core import ServiceCore
from bot.service.snapshot import Snapshot
from db.records import MatchStatus

log = logging.getLogger(__name__)

MAX_AI_MOVES_PER_WAKE = 500
AI_PAUSE_SECONDS = 0.5


class AIDriver(ServiceCore):

    def _ai_seats_to_act(self, snap: Snapshot) -> list[int]:
        return sorted(s for s in snap.to_act() if snap.seats[s].played_by_ai)

    def _wake_ai(self, snap: Snapshot) -> None:
        if self._closed or not self._ai_seats_to_act(snap):
            return
        task = self._ai_tasks.get(snap.id)
        if task is not None and not task.done():
            return
        self._ai_tasks[snap.id] = asyncio.create_task(self._drive_ai(snap.id), name=f"ai-{snap.id}")

    async def _drive_ai(self, match_id: int) -> None:
        """Play every AI seat's turn until a human is awaited or the match ends. After a long
        run of AI moves (a table of AI seats only) it pauses briefly, then goes on: a match
        whose players all left must still end."""
        while not self._closed:
            if await self._drive_ai_moves(match_id):
                return
            log.info("match %s: AI made %d moves in a row; pausing", match_id, MAX_AI_MOVES_PER_WAKE)
            await asyncio.sleep(AI_PAUSE_SECONDS)

    async def _drive_ai_moves(self, match_id: int) -> bool:
        """Up to MAX_AI_MOVES_PER_WAKE AI moves; True when no AI seat is to act any more."""
        for _ in range(MAX_AI_MOVES_PER_WAKE):
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            async with self.lock(match_id):
                snap = await self.get(match_id)
                seats = self._ai_seats_to_act(snap)
                if not seats:
                    return True
                seat = seats[0]
                rng = Rng.from_seed(snap.record.seed ^ (snap.version * 0x2545F4914F6CDD1D + seat))
                try:
                    move = snap.game.ai_move(snap.state, seat, rng)
                    result = await self._apply(snap, seat, None, move)
                except errors.StaleVersion:
                    continue
                except GameError:
                    log.exception("match %s: AI seat %d chose an illegal move; using the default", match_id, seat)
                    result = await self._apply(snap, seat, None, snap.game.default_move(snap.state, seat))
            await self._notify(result.snapshot, result.events)
            if result.snapshot.status != MatchStatus.RUNNING:
                self._disarm(match_id)
                return True
            self._arm(result.snapshot)
        return False
