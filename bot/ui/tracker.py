"""Keeping each player's latest hand message current, and what they last saw.

The tracker edits a player's open hand in place when their situation changes and
remembers the cards and private news they saw, so that a hand marks what is new once. It
is given the function that renders a hand (``bot.ui.hand.rerender``), so this module
needs nothing from the hand's components.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.games.base import said_to
from bot.service import MatchService, Snapshot
from bot.ui.answers import AnswersFirst
from bot.ui.replies import Interaction

log = logging.getLogger(__name__)

FIRST_LOOK_NOTES = 3  # private events shown on a player's first look at their hand
REPLACED = "This hand continues in a newer message below."  # what a replaced hand message says

# (snapshot, seat, what was shown before, the notice to keep) -> a HandMessage
RenderHand = Callable[[Snapshot, int, "Shown | None", Sequence[str]], Any]


@dataclass
class Shown:
    """What one player's latest hand message shows, and how to edit it."""

    interaction: Interaction | None  # None once Discord no longer lets us edit the message
    message_id: int | None  # None: the interaction's original response
    at: float
    signature: tuple[Any, ...] = ()
    cards: tuple[tuple[str, str], ...] = ()  # (group label, card) of each card in the hand
    notes: int = 0
    notice: tuple[str, ...] = ()  # what the message says above the hand (kept when it updates itself)
    awaited: bool = False  # a decision was asked of the seat when this was shown
    version: int = -1  # the match's version this was drawn at (its buttons carry it)
    deal: str = ""  # the seat's View.last_deal then: when it changes, a new deal has started


class HandTracker:
    """Remembers each player's latest hand message, so that it can be edited in place when
    their situation changes (their turn comes, they draw, a window opens, the match ends).

    Discord lets a bot edit an ephemeral message through its interaction's token for 15
    minutes; after that the message is left alone and the next click gives a fresh hand.
    Also remembers the cards and private notes each player last saw, until the match ends,
    so that a hand marks what is new once. Memory only: after a restart the next click
    starts afresh."""

    TOKEN_SECONDS = 14 * 60

    def __init__(
        self,
        service: MatchService,
        render: RenderHand,
        clock: Any = time.monotonic,
        answers: AnswersFirst | None = None,
    ) -> None:
        self.service = service
        self.render = render
        self.clock = clock
        self.answers = answers or AnswersFirst(0)
        self._shown: dict[tuple[int, int], Shown] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # One edit of a player's message at a time, so that a picture being added cannot land
        # after (and undo) an update, which the player would then see as their hand
        self._editing: dict[tuple[int, int], asyncio.Lock] = {}
        # The Discord id of each remembered message (None: not known), and what a held one
        # was before the answer holding it, so that a newer message can retire the old one
        self._messages: dict[tuple[int, int], int | None] = {}
        self._held: dict[tuple[int, int], Shown] = {}

    def _lock(self, key: tuple[int, int]) -> asyncio.Lock:
        return self._editing.setdefault(key, asyncio.Lock())

    def last(self, match_id: int, seat: int) -> Shown | None:
        return self._shown.get((match_id, seat))

    def remember(self, snap: Snapshot, seat: int, shown: Shown, message: int | None = None) -> None:
        """``shown`` is the player's latest hand, in the Discord message ``message``. An older
        hand message it replaces (another message, still editable) is edited once to say so,
        without its buttons, so that no frozen hand offers moves."""
        key = (snap.id, seat)
        before, held = self._shown.get(key), self._held.pop(key, None)
        if before is not None and before.interaction is None and held is not None:
            before = held  # the answer that held it shows the hand in a message of its own
        old = self._messages.get(key)
        self._shown[key], self._messages[key] = shown, message
        if (
            before is not None
            and before.interaction is not None
            and old is not None
            and message is not None
            and old != message
            and self.clock() - before.at <= self.TOKEN_SECONDS
        ):
            self.spawn(self._retire(snap.id, seat, before))

    async def _retire(self, match_id: int, seat: int, old: Shown) -> None:
        """Best effort: a failed edit leaves the old message as it was."""
        assert old.interaction is not None
        try:
            await self.answers.quiet()
            async with self._lock((match_id, seat)):  # after any picture being added to it
                if old.message_id is None:
                    await old.interaction.edit_original_response(
                        content=REPLACED, embed=None, view=None, attachments=[]
                    )
                else:
                    await old.interaction.followup.edit_message(
                        old.message_id, content=REPLACED, embed=None, view=None, attachments=[]
                    )
        except discord.HTTPException:
            log.info("match %s: could not retire seat %d's older hand message", match_id, seat)

    def still_shows(self, snap: Snapshot, seat: int, version: int) -> bool:
        """Whether the player's latest hand, drawn at ``version``, shows what it would show
        now: the match moved on without changing anything of this seat's (another player's
        secret pick, a window passed by someone else), so a click on it means what it meant
        then. A move of the seat's own changes its hand, so a click sent again is still
        refused as out of date."""
        shown = self._shown.get((snap.id, seat))
        return (
            shown is not None
            and shown.version == version
            and not snap.status.over
            and same_decision(signature(snap, seat), shown.signature)
        )

    async def close(self) -> None:
        """Let the pictures being drawn finish (shutdown)."""
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def add_picture(self, snap: Snapshot, seat: int, hand: Any, shown: Shown) -> None:
        """Draw the hand's picture and put it on the message just sent, unless that message
        was replaced or edited to a newer situation meanwhile. Drawn once the players waiting
        for an answer have it (the text hand is already there)."""
        try:
            await self.answers.quiet()
            files = await hand.render_picture(snap)
            if not files:
                return
            async with self._lock((snap.id, seat)):
                if self._shown.get((snap.id, seat)) is not shown or shown.interaction is None:
                    return
                if shown.message_id is None:
                    await shown.interaction.edit_original_response(embed=hand.embed, attachments=files)
                else:
                    await shown.interaction.followup.edit_message(
                        shown.message_id, embed=hand.embed, attachments=files
                    )
        except discord.HTTPException:
            log.info("match %s: could not add the picture to seat %d's hand", snap.id, seat)
        except Exception:
            log.exception("match %s: drawing seat %d's hand failed", snap.id, seat)

    def hold(self, match_id: int, seat: int) -> Shown | None:
        """The player is answering through a click right now: leave their message to that answer.
        Returns what was there, for :meth:`release` if the answer shows no hand after all."""
        shown = self._shown.get((match_id, seat))
        if shown is not None:
            self._shown[(match_id, seat)] = replace(shown, interaction=None)
            self._held[(match_id, seat)] = shown
        return shown

    def release(self, match_id: int, seat: int, before: Shown | None) -> None:
        """Undo :meth:`hold`: the answer was a refusal, so the open hand keeps updating itself
        (unless a newer hand replaced it meanwhile)."""
        key = (match_id, seat)
        shown = self._shown.get(key)
        self._held.pop(key, None)
        if before is None or shown is None or shown.interaction is not None:
            return
        self._shown[key] = replace(
            shown, interaction=before.interaction, message_id=before.message_id, at=before.at
        )

    def drop(self, match_id: int, seat: int) -> None:
        self._shown.pop((match_id, seat), None)
        self._messages.pop((match_id, seat), None)
        self._held.pop((match_id, seat), None)

    def forget(self, match_id: int) -> None:
        for key in [k for k in self._shown if k[0] == match_id]:
            del self._shown[key]
        for key in [k for k in (*self._messages, *self._held) if k[0] == match_id]:
            self._messages.pop(key, None)
            self._held.pop(key, None)
        for key in [k for k in self._editing if k[0] == match_id and not self._editing[k].locked()]:
            del self._editing[key]

    async def refresh(self, snap: Snapshot) -> None:
        """Edit every remembered hand of this match whose situation changed."""
        for key in [k for k in self._shown if k[0] == snap.id]:
            async with self._lock(key):
                await self._refresh_one(snap, key)
        if snap.status.over:
            self.forget(snap.id)

    async def _refresh_one(self, snap: Snapshot, key: tuple[int, int]) -> None:
        seat = key[1]
        shown = self._shown.get(key)  # read afresh: an earlier edit may have let a click in
        if shown is None or shown.interaction is None:
            return
        if self.clock() - shown.at > self.TOKEN_SECONDS:
            self._shown[key] = replace(shown, interaction=None)
            return
        if signature(snap, seat) == shown.signature:
            return
        message = self.render(snap, seat, shown, shown.notice)
        fresh = message.shown
        files = await message.picture(self.service, snap, seat)
        embed, view = message.embed, message.view
        try:
            if shown.message_id is None:
                await shown.interaction.edit_original_response(embed=embed, view=view, attachments=files)
            else:
                await shown.interaction.followup.edit_message(
                    shown.message_id, embed=embed, view=view, attachments=files
                )
        except discord.HTTPException:
            log.info("match %s: could not update seat %d's hand message", snap.id, seat)
            if self._shown.get(key) is shown:
                self._shown[key] = replace(shown, interaction=None)
            return
        if snap.seats[seat].left:  # said once that the AI plays the seat; never updated again
            self._shown.pop(key, None)
        elif self._shown.get(key) is shown:  # the player may have opened a newer hand meanwhile
            self._shown[key] = replace(
                fresh, interaction=shown.interaction, message_id=shown.message_id, at=shown.at
            )


def signature(snap: Snapshot, seat: int) -> tuple[Any, ...]:
    """What a hand message shows that matters to its player (not the table's details)."""
    if snap.state is None:
        return (snap.status,)
    if snap.seats[seat].left:  # the hand says only that the AI plays the seat
        return (snap.status, "left")
    moves = tuple(m.code for m in snap.legal_moves(seat))
    view = snap.view(seat)
    awaited = seat in snap.awaited()
    # the public lines the decision depends on; a seat that waits reads whom the table waits
    # for (interaction edits are outside Discord's global limit)
    context = view.table_context if awaited else (view.waiting,)
    # last, the awaited seat's own status line: "Waiting for you and bob to pick" becomes
    # "Your turn to pick" when bob's secret pick is in (see same_decision)
    status = said_to(view.waiting, seat) if awaited else ""
    return (snap.status, moves, view.hand, view.private, snap.notes_count(seat), awaited, context, status)


def same_decision(now: tuple[Any, ...], shown: tuple[Any, ...]) -> bool:
    """Whether two signatures ask the same of their player: equal but for the awaited seat's
    status line, which says who else is still to act and changes nothing of the choice."""
    return now[:-1] == shown[:-1]
