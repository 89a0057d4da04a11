"""The turn pings: one message per match that mentions the people the table waits for.

A turn mentions its players once it has waited ``seconds`` for them (``TURN_PING_SECONDS``),
so whoever moves sooner, a player at the table or one awaited again just after their own
move, is never pinged; a ping that names people no longer awaited goes at once. When only
some of those pinged are still awaited, the ping is edited to name them (no new mention).
Near a deadline the ping becomes a reminder. What was pinged is marked (:class:`Marks`), a
new mention before it is sent, so a restart does not ping again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.service import MatchService, MatchStatus, Snapshot
from bot.ui import render
from bot.ui.answers import AnswersFirst
from bot.ui.catchup import Marks, Pinged, awaited_people

log = logging.getLogger(__name__)

MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)  # people only

NOBODY: Pinged = ((), None)  # no turn message mentions anyone (a ping may be waiting its time)


class TurnPings:
    """The turn message of each match, kept by the table publisher under its match lock."""

    def __init__(
        self,
        service: MatchService,
        channel_of: Callable[[Snapshot], Any],
        lock: Callable[[int], asyncio.Lock],
        answers: AnswersFirst,
        marks: Marks,
        seconds: float = 0.0,
    ) -> None:
        self.service = service
        self._channel = channel_of
        self._lock = lock
        self.answers = answers
        self.marks = marks
        self.seconds = seconds  # how long a turn waits before it mentions its players
        self.pinged: dict[int, Pinged] = {}  # (seats, deadline) pinged
        self._due: dict[int, tuple[Pinged, asyncio.Task[None]]] = {}  # a ping waiting its time

    async def close(self) -> None:
        """The bot stops: a ping not yet due is dropped (the next start pings if still awaited)."""
        waiting = [task for _pinged, task in self._due.values()]
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    def forget(self, match_id: int) -> None:
        self.pinged.pop(match_id, None)
        self.cancel(match_id)

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None:
        """Replace the turn ping with a reminder for the players whose deadline is near."""
        users = await self._pingable(snap, seats)
        if not users:
            return
        at, who = int(time.time() + seconds_left), " ".join(f"<@{u}>" for u in users)  # <t:…:R>: live
        text = f"⏰ {who}: little time left to decide in {snap.game.name} #{snap.id}: the default move is made <t:{at}:R>."
        await self.answers.quiet()
        async with self._lock(snap.id):
            await self._replace(snap, text)

    async def _pingable(self, snap: Snapshot, seats: Sequence[int]) -> list[int]:
        """The users of these seats who want turn pings, if the server has them on."""
        users = [
            u for s in seats if not snap.seats[s].played_by_ai and (u := snap.seats[s].user_id) is not None
        ]
        if not users or not (await self.service.settings.server_settings(snap.record.guild_id)).turn_pings:
            return []
        prefs = await self.service.settings.preferences(users)
        return [u for u in users if prefs[u].turn_pings]

    async def update(self, snap: Snapshot, due: bool = False) -> None:
        """Mention the people newly awaited; clear the ping when nobody is (or the match ended).
        When only some of those pinged are still awaited (the others have moved), the ping is
        edited to name them, which mentions nobody again. With ``ping_seconds``, people newly
        awaited are mentioned only once the turn has waited that long for them (``due``):
        whoever moves sooner (a player at the table, or one awaited again just after their
        own move) is never pinged, and the ping that named others goes at once."""
        if snap.status != MatchStatus.RUNNING:
            self.cancel(snap.id)
            await self._replace(snap, None)
            return
        awaited = awaited_people(snap)
        pinged = (awaited, snap.record.deadline_at)
        before = self.pinged.get(snap.id)
        if pinged == before:
            self.cancel(snap.id)
            return
        later = self.seconds > 0 and not due and bool(awaited)
        if later and not (before is not None and set(awaited) <= set(before[0])):
            self._later(snap, pinged)
            if snap.record.turn_message_id is not None:  # it names people no longer awaited
                await self._replace(snap, None)
            self.pinged[snap.id] = NOBODY
            self.marks.pinged(snap.id, NOBODY)
            return
        self.cancel(snap.id)
        self.pinged[snap.id] = pinged
        users = await self._pingable(snap, awaited)
        if not users:
            await self._replace(snap, None)
            self.marks.pinged(snap.id, pinged)
            return
        mentions = ", ".join(f"<@{u}>" for u in users)
        when = render.deadline_text(snap).replace(" · ", " ")
        text = f"{mentions}: your turn in {snap.game.name} #{snap.id}.{when}"
        # The same people (or some of them) still awaited, a new deadline perhaps (the next
        # round of a simultaneous game came before the table caught up): edit, no new ping.
        if not (before is not None and set(awaited) <= set(before[0]) and await self._edit(snap, text)):
            await self.marks.save_ping(snap.id, pinged)  # marked before it goes: never sent twice
            await self._replace(snap, text)
        self.marks.pinged(snap.id, pinged)

    def _later(self, snap: Snapshot, pinged: Pinged) -> None:
        """Ping these people once the turn has waited ``ping_seconds`` for them, unless the
        match moves on meanwhile (a ping already waiting for the same people keeps its time)."""
        waiting = self._due.get(snap.id)
        if waiting is not None and waiting[0] == pinged:
            return
        self.cancel(snap.id)
        task = asyncio.create_task(self._when_due(snap.id, pinged), name=f"ping-{snap.id}")
        self._due[snap.id] = (pinged, task)

    async def _when_due(self, match_id: int, pinged: Pinged) -> None:
        try:
            await asyncio.sleep(self.seconds)
            await self.answers.quiet()
            async with self._lock(match_id):
                waiting = self._due.get(match_id)
                if waiting is None or waiting[0] != pinged:
                    return  # the match moved on: a newer change decides
                del self._due[match_id]
                latest = await self.service.get(match_id)
                if (awaited_people(latest), latest.record.deadline_at) == pinged:
                    await self.update(latest, due=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("match %s: the turn ping failed", match_id)

    def cancel(self, match_id: int) -> None:
        waiting = self._due.pop(match_id, None)
        if waiting is not None and waiting[1] is not asyncio.current_task():
            waiting[1].cancel()

    async def _edit(self, snap: Snapshot, text: str) -> bool:
        """Edit the match's turn message to ``text`` (no new notification); False if there is
        none to edit."""
        current = await self.service.get(snap.id)
        if current.record.turn_message_id is None:
            return False
        try:
            await (
                self._channel(current)
                .get_partial_message(current.record.turn_message_id)
                .edit(content=text, allowed_mentions=MENTIONS)
            )
        except discord.HTTPException:
            log.info("match %s: could not edit the turn message; posting a new one", snap.id)
            return False
        return True

    async def _replace(self, snap: Snapshot, text: str | None) -> None:
        """Delete the match's previous turn message, then post ``text`` (if any) in its place:
        in this order the channel never holds two turn messages of one match, even for the
        moment between the two requests."""
        current = await self.service.get(snap.id)
        channel = self._channel(current)
        old = current.record.turn_message_id
        if old is not None:
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException:
                log.info("match %s: the previous turn message was already gone", snap.id)
        new_id: int | None = None
        if text is not None:
            try:
                message = await channel.send(text, allowed_mentions=MENTIONS)
                new_id = message.id
            except discord.HTTPException:
                log.warning("match %s: could not post the turn message", snap.id)
        if old != new_id:
            await self.service.store.set_turn_message(snap.id, new_id)
