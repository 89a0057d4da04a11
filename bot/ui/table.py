"""The public table: its message (edited in place), its buttons, and the turn pings.

    kg:hand:<match>:<version>   My hand (bot.ui.hand)
    kg:log:<match>              the public log (its latest events), ephemerally
    kg:rematch:<match>          a new lobby for the same players and options (finished tables)
    kg:replay:<match>           the finished match step by step (bot.ui.replay)

When a decision is awaited from people, they are mentioned once in one short channel
message; the next one replaces it (the old one is deleted), so a channel holds at most one
per match besides the table. Reminders near a deadline replace it the same way.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.games.base import Event
from bot.images import table_png
from bot.service import MatchService, MatchStatus, Snapshot
from bot.service.snapshot import PartySnapshot
from bot.ui import render
from bot.ui.answers import AnswersFirst
from bot.ui.catchup import CATCH_UP_PER_SECOND, Marks, Pace, catch_up
from bot.ui.hand import HandButton
from bot.ui.lobby import lobby_view
from bot.ui.partyview import table_footer
from bot.ui.pings import MENTIONS, TurnPings
from bot.ui.placement import OfMatch
from bot.ui.replay import ReplayButton
from bot.ui.replies import (
    Interaction,
    answer_message,
    component_view,
    display_name,
    guarded,
    service_of,
    wrong_kind,
)
from bot.ui.tracker import HandTracker
from bot.ui.weblinks import page_url

log = logging.getLogger(__name__)

TABLE_PICTURE = "table.png"
FORGET_AFTER = 60.0  # seconds after a match ends before its table's bookkeeping is dropped


class LogButton(
    OfMatch, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kg:log:(?P<mid>\d{1,12})"
):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Log", style=discord.ButtonStyle.secondary, emoji="📜", custom_id=f"kg:log:{match_id}"
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Any, match: re.Match[str], /) -> LogButton:
        return cls(int(match["mid"]))

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, show_log(interaction, self.match_id))


class RematchButton(
    OfMatch, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kg:rematch:(?P<mid>\d{1,12})"
):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch",
                style=discord.ButtonStyle.success,
                emoji="🔁",
                custom_id=f"kg:rematch:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Any, match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["mid"]))

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, rematch(interaction, self.match_id))


TABLE_ITEMS = (LogButton, RematchButton)


def table_view(snap: Snapshot, party_id: int | None = None) -> discord.ui.View:
    """Running: My hand and Log. Finished: Rematch (not at a party's table: the party seats
    the next round), Replay and Log. Cancelled: nothing."""
    view = component_view()
    if snap.status == MatchStatus.RUNNING:
        view.add_item(HandButton(snap.id, snap.version))
        view.add_item(LogButton(snap.id))
    elif snap.status == MatchStatus.FINISHED:
        if party_id is None:
            view.add_item(RematchButton(snap.id))
        view.add_item(ReplayButton(snap.id))
        view.add_item(LogButton(snap.id))
    return view


def table_message(
    snap: Snapshot,
    skill: Mapping[int, float] | None = None,
    party: PartySnapshot | None = None,
    since: int = 0,
) -> tuple[discord.Embed, discord.ui.View]:
    if snap.state is None:
        return render.lobby_embed(snap), lobby_view(snap)
    note = None if party is None else table_footer(party, snap.id)
    return render.table_embed(snap, skill, note, since), table_view(snap, None if party is None else party.id)


async def show_log(interaction: Interaction, match_id: int) -> None:
    snap = await service_of(interaction).get(match_id)
    await interaction.response.send_message(embed=render.log_embed(snap), ephemeral=True)


async def rematch(interaction: Interaction, match_id: int) -> None:
    """A new lobby for the same game and options; the old match's players are invited."""
    svc = service_of(interaction)
    snap, others = await svc.rematch(match_id, interaction.user.id, display_name(interaction))
    invite = " ".join(f"<@{u}>" for u in others)
    text = (
        f"🔁 Rematch of #{match_id}: {invite} press Join to play again."
        if invite
        else f"🔁 Rematch of #{match_id}."
    )
    await interaction.response.send_message(
        text, embed=render.lobby_embed(snap), view=lobby_view(snap), allowed_mentions=MENTIONS
    )
    try:
        message = await answer_message(interaction)
        await svc.store.set_table_message(snap.id, message.id)
    except discord.HTTPException:
        log.warning("match %s: could not read the rematch lobby's message id", snap.id)


class TablePublisher:
    """A service listener: edits each table in place (newest state only), keeps one turn ping
    per match, keeps the players' hand messages current.

    Discord allows about five edits of one message per five seconds. A table is edited at
    most once per ``edit_seconds``: changes that arrive sooner wait behind the match's lock
    and are shown together by one edit of the newest state, so the table is never more than
    about ``edit_seconds`` behind and never meets the limit. Hands are not held back by
    the table's pace. All of it waits while players are unanswered (``answers``, up to its
    ``max_wait``): the answers to a burst of clicks go out before the work they cause."""

    def __init__(
        self,
        client: discord.Client,
        service: MatchService,
        hands: HandTracker,
        edit_seconds: float = 1.0,
        answers: AnswersFirst | None = None,
        ping_seconds: float = 0.0,
    ) -> None:
        self.client = client
        self.service = service
        self.hands = hands
        self.edit_seconds = edit_seconds
        self.answers = answers or AnswersFirst(0)
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, tuple[int, MatchStatus]] = {}  # match id -> (version, status) on its table
        self._edited: dict[int, float] = {}  # match id -> when its table was last edited
        self._logged: dict[int, int] = {}  # match id -> the log count its table last showed
        self.marks = Marks(service)  # what the tables and pings show, saved: a restart sends neither again
        self.pings = TurnPings(service, self._channel, self._lock, self.answers, self.marks, ping_seconds)
        self.pace = Pace(CATCH_UP_PER_SECOND)  # a restart's catching up, within Discord's limit
        self._restored: list[int] = []  # restored matches whose messages are still to check
        self._catching_up: asyncio.Task[None] | None = None

    def _channel(self, snap: Snapshot) -> Any:
        return self.client.get_partial_messageable(snap.record.channel_id)

    def _may_attach(self, snap: Snapshot) -> bool:
        """Whether the bot may attach files in the table's channel (a server that did not
        grant Attach Files gets the text table rather than a refused post or edit)."""
        channel = self.client.get_channel(snap.record.channel_id)
        if not isinstance(channel, (discord.abc.GuildChannel, discord.Thread)):
            return True  # not in the cache: try, and the edit's failure is logged as any other
        return channel.permissions_for(channel.guild.me).attach_files

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None:
        await self.pings.remind(snap, seats, seconds_left)

    async def match_changed(self, snap: Snapshot, events: Sequence[Event]) -> None:
        # The hands and the table at the same time: a paced table edit never holds a hand back.
        await self.answers.quiet()
        await asyncio.gather(self.hands.refresh(await self.service.get(snap.id)), self.update_table(snap))

    def match_restored(self, snap: Snapshot) -> None:
        """A restart: the table and the turn ping are checked against their marks, and what
        they lack is sent at ``pace`` (:mod:`bot.ui.catchup`), behind players' moves."""
        self._restored.append(snap.id)
        if self._catching_up is None or self._catching_up.done():
            self._catching_up = asyncio.create_task(catch_up(self), name="tables-catch-up")

    async def close(self) -> None:
        """The bot stops: the catching up ends (the next start does what is left), marks saved."""
        if self._catching_up is not None:
            self._catching_up.cancel()
            await asyncio.gather(self._catching_up, return_exceptions=True)
        await self.pings.close()
        await self.marks.close()

    def next_restored(self, count: int) -> list[int]:
        """Up to ``count`` restored matches still to check, taken off the queue (for
        :func:`~bot.ui.catchup.catch_up`)."""
        batch, self._restored = self._restored[:count], self._restored[count:]
        return batch

    def table_shows(self, match_id: int) -> tuple[int, MatchStatus] | None:
        """The (version, status) the match's table is known to show."""
        return self._shown.get(match_id)

    def table_showed(self, match_id: int, version: int, status: MatchStatus) -> None:
        """The table shows ``version`` (its mark says so, after a restart), unless more is
        known already."""
        self._shown.setdefault(match_id, (version, status))

    async def update_table(self, snap: Snapshot) -> None:
        """Show the match's newest state on its table (paced), and ping whom it waits for."""
        async with self._lock(snap.id):
            latest = await self.service.get(snap.id)
            if self._shown.get(snap.id) != (latest.version, latest.status):
                wait = self._edited.get(snap.id, -self.edit_seconds) + self.edit_seconds - time.monotonic()
                if wait > 0:  # the table was edited a moment ago: show what comes meanwhile too
                    await asyncio.sleep(wait)
                    await self.answers.quiet()
                    latest = await self.service.get(snap.id)
                await self.publish(latest)
            await self.pings.update(latest)
        if latest.status.over:
            asyncio.get_running_loop().call_later(FORGET_AFTER, self._forget, snap.id)

    def _forget(self, match_id: int) -> None:
        """Drop what is kept of a finished match's table (a while after, for queued changes)."""
        self._shown.pop(match_id, None)
        self._edited.pop(match_id, None)
        self._logged.pop(match_id, None)
        self.pings.forget(match_id)
        self._locks.pop(match_id, None)
        self.marks.ended(match_id)

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    async def publish(self, snap: Snapshot) -> None:
        if snap.record.message_id is None:
            # A party's table, started in its new thread: posted when it first changes, even
            # when that change was its end (a table of AI seats alone may play to its end
            # before its first post), so every thread shows its table and who won.
            if snap.state is not None:
                await self._post_table(snap)
            return
        embed, view = await self._table_message(snap)
        files = await self._picture(snap, embed)
        channel = self._channel(snap)
        try:
            await channel.get_partial_message(snap.record.message_id).edit(
                embed=embed, view=view, attachments=files
            )
            self._shown[snap.id] = (snap.version, snap.status)
            self._edited[snap.id] = time.monotonic()
            self._logged[snap.id] = snap.log_count()
            self.marks.shown(snap.id, snap.version)
        except discord.NotFound:
            # The table message was deleted: post a new one so the match can go on.
            await self._post_table(snap)
        except discord.Forbidden:
            log.warning("match %s: missing permission to edit the table message", snap.id)
        except discord.HTTPException:
            log.exception("match %s: editing the table message failed", snap.id)

    async def _table_message(self, snap: Snapshot) -> tuple[discord.Embed, discord.ui.View]:
        """The table's embed and buttons; a finished match's with its skill changes, and
        without Rematch at a party's table."""
        if snap.status == MatchStatus.FINISHED:
            skill = await self.service.history.skill_changes(snap.id)
            party_id = await self.service.parties.of_match(snap.id)
            party = None if party_id is None else await self.service.parties.get(party_id)
            embed, view = table_message(snap, skill, party)
            embed.url = await page_url(self.client, snap.record.guild_id, f"match/{snap.id}")
            return embed, view
        shown = self._logged.get(snap.id)  # every event since the table was last shown (paced edits)
        return table_message(snap, None, None, snap.log_count() - shown if shown is not None else 0)

    async def _post_table(self, snap: Snapshot) -> None:
        """Post the table as a new message (the old one is gone, or there was none yet)."""
        embed, view = await self._table_message(snap)
        try:
            message = await self._channel(snap).send(
                embed=embed, view=view, files=await self._picture(snap, embed)
            )
        except discord.HTTPException:
            log.warning("match %s: cannot post the table message", snap.id)
            return
        await self.service.store.set_table_message(snap.id, message.id)
        self._shown[snap.id] = (snap.version, snap.status)
        self._edited[snap.id] = time.monotonic()
        self._logged[snap.id] = snap.log_count()
        self.marks.shown(snap.id, snap.version)

    async def _picture(self, snap: Snapshot, embed: discord.Embed) -> list[discord.File]:
        """The public table as a picture (drawn off the event loop, cached by content), where
        the game draws one and the server shows pictures. It is a function of the table view
        alone, so it can show nothing the text table does not."""
        if snap.status != MatchStatus.RUNNING or snap.state is None:
            return []
        if (
            await self.service.settings.server_settings(snap.record.guild_id)
        ).text_only or not self._may_attach(snap):
            return []
        png = await asyncio.to_thread(table_png, snap.game.id, snap.view(None))
        if png is None:
            return []
        embed.set_image(url=f"attachment://{TABLE_PICTURE}")
        return [discord.File(io.BytesIO(png), filename=TABLE_PICTURE)]
