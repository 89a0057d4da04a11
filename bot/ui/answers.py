"""Answers first: the work a move causes besides its answer steps aside while players wait.

When many players press at once, every answer would otherwise take turns on the one event
loop with the table edits, turn pings, hand refreshes and pictures of the moves before it,
and the last player would wait behind everyone's secondary work. So an interaction counts
as unanswered from the moment discord.py receives it until its interaction callback (the
answer, or a deferral) has been sent, and work that can wait calls :meth:`AnswersFirst.quiet`
before its REST calls: it returns as soon as nobody is unanswered, or after ``max_wait``
seconds at most, so a steady stream of clicks never starves a table.

The bot marks arrivals where discord.py dispatches every interaction (``KingBot.dispatch``)
and answers through aiohttp's request tracing (the callback's ``POST
/interactions/{id}/{token}/callback`` ending, well or not), so no handler has to remember it.

The garbage collector steps aside too (``hold_collector``, for a bot that owns its process):
while players are unanswered, Python's automatic collections wait, at most ``max_wait``, and
run as soon as the last answer is out. A burst of answers allocates enough to set off young
collections and, now and then, a full one (25-30 ms on a slow CPU), each a pause of every
answer still to come.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from typing import Any

ANSWER_WINDOW = 3.0  # seconds Discord gives an interaction's answer; later it is not waited for


class AnswersFirst:
    """Counts the interactions not answered yet; ``max_wait`` 0 turns the waiting off."""

    def __init__(
        self,
        max_wait: float = 0.3,
        clock: Callable[[], float] = time.monotonic,
        *,
        hold_collector: bool = False,
    ) -> None:
        self.max_wait = max_wait
        self.clock = clock
        self.hold_collector = hold_collector  # (only with max_wait: arrivals are not counted without it)
        self._unanswered: dict[int, float] = {}  # interaction id -> when it arrived
        self._waiting: set[asyncio.Future[None]] = set()  # work waiting for quiet
        self._collector_held: asyncio.TimerHandle | None = None  # when held: the timer that lets it go

    def arrived(self, interaction_id: int) -> None:
        if self.max_wait > 0:
            if not self._unanswered and self.hold_collector:
                self._hold_collector()
            self._unanswered[interaction_id] = self.clock()

    def answered(self, interaction_id: int) -> None:
        self._unanswered.pop(interaction_id, None)
        if not self._unanswered:
            self._let_collector_go()
            if self._waiting:
                for waiter in self._waiting:
                    _release(waiter)
                self._waiting.clear()

    def _hold_collector(self) -> None:
        """Pause automatic collections until every interaction is answered, or ``max_wait``
        (a steady stream of clicks never holds them for longer). Not when something else
        turned the collector off: that one turns it back on."""
        if self._collector_held is not None or not gc.isenabled():
            return
        gc.disable()
        self._collector_held = asyncio.get_running_loop().call_later(self.max_wait, self._let_collector_go)

    def _let_collector_go(self) -> None:
        if self._collector_held is not None:
            self._collector_held.cancel()
            self._collector_held = None
            gc.enable()  # the allocations of the burst set off the collections they owe at once

    def unanswered(self) -> int:
        """How many interactions wait for their answer (those past Discord's window dropped)."""
        too_old = self.clock() - ANSWER_WINDOW
        for interaction_id in [i for i, at in self._unanswered.items() if at < too_old]:
            self.answered(interaction_id)  # never answered (a handler failed): stop waiting for it
        return len(self._unanswered)

    async def quiet(self) -> None:
        """Return once every interaction received so far is answered, or after ``max_wait``
        (answers keep coming: the waiting work goes ahead anyway). A future and a timer, not
        ``wait_for`` (a task of its own): a burst of 64 moves starts some 130 of these waits."""
        if not self.unanswered():
            return
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiting.add(waiter)
        timer = loop.call_later(self.max_wait, _release, waiter)
        try:
            await waiter
        finally:
            timer.cancel()
            self._waiting.discard(waiter)

    async def request_ended(self, _session: Any, _context: Any, params: Any) -> None:
        """An aiohttp trace callback (``on_request_end`` and ``on_request_exception`` of the
        client's ``http_trace``): an interaction callback that ended answers its interaction."""
        # .../interactions/{interaction id}/{token}/callback
        parts = params.url.path.rstrip("/").split("/")
        if (
            len(parts) >= 4
            and parts[-1] == "callback"
            and parts[-4] == "interactions"
            and parts[-3].isdigit()
        ):
            self.answered(int(parts[-3]))


def _release(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
