"""Keeps each match's public table message up to date (a service listener)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.games.base import Event
from bot.service import MatchService, MatchStatus, Snapshot
from bot.ui.lobby import table_message

log = logging.getLogger(__name__)
RECENT = 5


class TablePublisher:
    """Edits the table message in place after every change, newest state only."""

    def __init__(self, client: discord.Client, service: MatchService) -> None:
        self.client = client
        self.service = service
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}
        self._recent: dict[int, list[str]] = {}

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None:
        """Mention the players whose turn deadline is near, in the match's channel."""
        users = [snap.seats[s].user_id for s in seats if snap.seats[s].user_id is not None]
        if not users:
            return
        mentions = " ".join(f"<@{u}>" for u in users)
        left = f"{round(seconds_left)} seconds" if seconds_left < 120 else f"{round(seconds_left / 60)} minutes"
        text = f"⏰ {mentions}: {left} left to decide in {snap.game.name} #{snap.id}, or the default move is made."
        channel: Any = self.client.get_partial_messageable(snap.record.channel_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False))
        except discord.HTTPException:
            log.warning("match %s: could not post the turn reminder", snap.id)

    async def match_changed(self, snap: Snapshot, events: Sequence[Event]) -> None:
        recent = self._recent.setdefault(snap.id, [])
        recent.extend(e.text for e in events if e.seat is None)
        del recent[:-RECENT]
        lock = self._locks.setdefault(snap.id, asyncio.Lock())
        async with lock:
            latest = await self.service.get(snap.id)
            if self._shown.get(snap.id, -1) >= latest.version and snap.status == latest.status:
                return
            await self.publish(latest)
        if latest.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            self._recent.pop(snap.id, None)

    async def publish(self, snap: Snapshot) -> None:
        if snap.record.message_id is None:
            return
        embed, view = table_message(snap, self._recent.get(snap.id, ()))
        channel: Any = self.client.get_partial_messageable(snap.record.channel_id)
        try:
            await channel.get_partial_message(snap.record.message_id).edit(embed=embed, view=view)
            self._shown[snap.id] = snap.version
        except discord.NotFound:
            # The table message was deleted: post a new one so the match can go on.
            try:
                message = await channel.send(embed=embed, view=view)
            except discord.HTTPException:
                log.warning("match %s: table message gone and cannot post a new one", snap.id)
                return
            await self.service.set_table_message(snap.id, message.id)
            self._shown[snap.id] = snap.version
        except discord.Forbidden:
            log.warning("match %s: missing permission to edit the table message", snap.id)
        except discord.HTTPException:
            log.exception("match %s: editing the table message failed", snap.id)
