"""A hand ready to send: its embed and buttons, what it shows, and its picture (drawn off
the event loop unless the player or the server chose text only). Built by
:func:`bot.ui.hand.hand_message`."""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass

import discord

from bot.games.base import Move, View
from bot.images import hand_png
from bot.service import MatchService, Snapshot
from bot.ui.tracker import Shown

HAND_PICTURE = "hand.png"


@dataclass
class HandMessage:
    """A hand ready to send: its embed and buttons, what it shows (to remember), and what its
    picture needs."""

    embed: discord.Embed
    view: discord.ui.View
    shown: Shown
    seat_view: View
    moves: list[Move]
    new_cards: list[tuple[str, str]]  # (group label, card)

    async def wants_picture(self, service: MatchService, snap: Snapshot, seat: int) -> bool:
        """Whether this hand gets a picture: cards to show, and neither the player nor the
        server chose text only."""
        if not self.seat_view.hand or snap.status.over:
            return False
        user = snap.seats[seat].user_id
        if (await service.settings.server_settings(snap.record.guild_id)).text_only:
            return False
        return not (user is not None and (await service.settings.preferences([user]))[user].text_only)

    async def render_picture(self, snap: Snapshot) -> list[discord.File]:
        """The hand's picture as an attachment (drawn off the event loop, cached by content);
        sets the embed's image."""
        png = await asyncio.to_thread(hand_png, snap.game.id, self.seat_view, self.moves, self.new_cards)
        if png is None:
            return []
        self.embed.set_image(url=f"attachment://{HAND_PICTURE}")
        return [discord.File(io.BytesIO(png), filename=HAND_PICTURE)]

    async def picture(self, service: MatchService, snap: Snapshot, seat: int) -> list[discord.File]:
        return await self.render_picture(snap) if await self.wants_picture(service, snap, seat) else []
