"""Taking up again, after a restart, every open match and party of this process's servers."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable

from bot.service.deadlines import DeadlineKeeper
from bot.service.flow import MatchFlow
from bot.service.notifier import Notifier
from bot.service.party_rounds import PartyRounds
from bot.service.snapshot import Snapshot
from bot.service.store import MatchStore
from db.records import MatchStatus

log = logging.getLogger(__name__)

RECENTLY_ENDED_SECONDS = 600.0  # restore shows again the tables of matches ended this recently
# The bot is connected while it restores (bot.ui.restoring): every this many matches the
# restore lets the event loop receive interactions, and defer those that wait for it.
YIELD_EVERY = 200


class Restorer:
    """Loads open matches and parties back into the parts that keep them; owns nothing."""

    def __init__(
        self,
        store: MatchStore,
        deadlines: DeadlineKeeper,
        rounds: PartyRounds,
        notifier: Notifier,
        flow: MatchFlow,
        runs_guild: Callable[[int], bool],
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.deadlines = deadlines
        self.rounds = rounds
        self.notifier = notifier
        self.flow = flow
        self.runs_guild = runs_guild
        self.clock = clock

    async def restore(self, *, freeze: bool = False) -> list[Snapshot]:
        """Load every open match of this process's servers (its Discord shards), re-arm
        deadlines (with the time that was left), wake AIs.

        The garbage collector is paused meanwhile: the many small objects of thousands of
        matches would be walked again and again. With ``freeze`` (a bot that owns its
        process), what is alive then goes to the collector's permanent generation before it
        resumes, so no collection walks the restored matches at all (the first one after a
        restore of 10,000 took 0.4 s, every player waiting); without it (several services in
        one test run), only the loading is paused."""
        parties = await self.rounds.remember_parties()
        self.notifier.restoring = True  # the tables catch up at their pace (bot.ui.catchup)
        try:
            snaps = await self._restore_matches(freeze)
        finally:
            self.notifier.restoring = False
        log.info("restored %d open matches", len(snaps))
        await self.rounds.restore_parties(parties)
        return snaps

    async def _restore_matches(self, freeze: bool) -> list[Snapshot]:
        collecting = gc.isenabled()
        if freeze:
            gc.collect()  # the start-up's garbage, while the heap is small: not to be frozen
        gc.disable()
        try:
            records = await self.store.repo.matches_with_status(MatchStatus.LOBBY, MatchStatus.RUNNING)
            snaps = []
            for index, record in enumerate(records):
                if index % YIELD_EVERY == YIELD_EVERY - 1:
                    await asyncio.sleep(0)
                if self.runs_guild(record.guild_id):
                    snaps.append(self.store.load(record))
            if not freeze and collecting:
                gc.enable()
            for index, snap in enumerate(snaps):
                if index % YIELD_EVERY == YIELD_EVERY - 1:
                    await asyncio.sleep(0)
                if snap.status == MatchStatus.RUNNING:
                    async with self.store.lock(snap.id):
                        newer = self.store.cache.get(snap.id)  # moved since it was read
                        if newer is not None and newer.version > snap.version:
                            snap = newer
                        snap = snaps[index] = await self.deadlines.renew(snap)
                    # A crash between a move and its table edit leaves the table one step behind:
                    # the listeners are told again, deadlines armed, AI seats woken.
                    await self.flow.after_change(snap, [])
            if freeze:
                gc.freeze()
        finally:
            if collecting:
                gc.enable()
        # A stop between a match's last move and its table edit leaves the table showing a
        # match still running: tables of matches that ended just before are shown again.
        for record in await self.store.repo.ended_since(self.clock() - RECENTLY_ENDED_SECONDS):
            if self.runs_guild(record.guild_id):
                self.notifier.tell(self.store.load(record), [])
        return snaps
