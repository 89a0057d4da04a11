"""The notifier: who is told about changes, and the background work of telling them.

It owns the listeners (the Discord layer's table and party publishers), the watchers of
ended matches (a party waits for its tables), and the tasks that tell them: a slow table
edit never delays a reply, and a broken listener never loses a move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol

from bot.games.base import Event
from bot.service.snapshot import Listener, PartyListener, PartySnapshot, Snapshot

log = logging.getLogger(__name__)


class EndWatcher(Protocol):
    """Told, in the background, when a match it watches is over (a party keeps its table's results)."""

    def watches(self, match_id: int) -> bool: ...

    async def match_over(self, snap: Snapshot) -> None: ...


class Notifier:
    """Owns the listeners, the end watchers and the listener work in flight."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self.party_listeners: list[PartyListener] = []
        self.end_watchers: list[EndWatcher] = []
        self.pending: set[asyncio.Task[None]] = set()
        # A restart's restore is under way: a listener that knows what its messages show
        # (``match_restored``: the tables) hears of each restored match that way, and catches
        # up at its own pace, rather than as of a change.
        self.restoring = False

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def add_party_listener(self, listener: PartyListener) -> None:
        self.party_listeners.append(listener)

    def add_end_watcher(self, watcher: EndWatcher) -> None:
        self.end_watchers.append(watcher)

    def tell(self, snap: Snapshot, events: Sequence[Event]) -> None:
        """Tell the listeners about a match's change, and its watchers when it is over."""
        for listener in list(self.listeners):
            restored = getattr(listener, "match_restored", None) if self.restoring and not events else None
            if restored is not None:
                restored(snap)
            else:
                self.background(listener.match_changed(snap, events), snap.id)
        if snap.status.over:
            for watcher in self.end_watchers:
                if watcher.watches(snap.id):
                    self.background(watcher.match_over(snap), snap.id)

    def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None:
        """Tell the listeners that ``seats`` are about to run out of time."""
        for listener in list(self.listeners):
            self.background(listener.remind(snap, seats, seconds_left), snap.id)

    def tell_party(self, party: PartySnapshot) -> None:
        for listener in list(self.party_listeners):
            self.background(listener.party_changed(party), -party.id)

    def background(self, coro: Coroutine[Any, Any, None], key: int) -> None:
        """Run ``coro`` as a task of its own, logging (not raising) what it raises. ``key``:
        the match id (a party's id negated) for the log."""

        async def run() -> None:
            try:
                await coro
            except Exception:  # a broken listener must not lose the move
                log.exception("match %s: listener failed", key)

        task = asyncio.create_task(run())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def settle(self) -> None:
        """Wait for listener work in flight (tests and shutdown)."""
        while self.pending:
            await asyncio.gather(*list(self.pending), return_exceptions=True)
