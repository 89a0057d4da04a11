"""Interactions that arrive while the bot takes its matches back after a start.

The bot connects to Discord while it restores its open matches, once the restore has taken
``BEFORE_CONNECTING`` (1 s; nearly every restore is over by then, as if it were awaited), so
players' clicks are not refused by Discord for a bot that is not there yet. An interaction whose answer needs the matches (a match's or party's component, a
command that reads or changes a match) waits for the restore; if it has not been answered
``DEFER_AFTER`` (0.5 s) after it arrived, it is deferred then and answered as a follow-up or
an edit once the restore is done: its first response is sent within Discord's 3 seconds
however long the restore takes. The others (help, rules, settings, leaderboards, stray ids)
are answered at once, as at any time.

Where discord.py dispatches every interaction (``KingBot.dispatch``, before any handler
runs), ``interaction.response`` becomes a :class:`LateResponse`, which defers it in time and
turns the handlers' usual answer (``send_message``, ``edit_message``) into what follows a
deferral, so no handler changes (those that wait call :func:`bot.ui.replies.restored`). A
component is deferred as an update (its message stays as it is until the answer edits it, or
a new message follows); a command with "thinking" that only its player sees, which its
answer fills (a public answer, a lobby, follows it as a message of its own).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import Any

import discord

from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.placement import OfMatch, OfParty
from bot.ui.replies import Interaction, component_is_handled

log = logging.getLogger(__name__)

# Commands answered at once during a restore: they read no match.
FREE_COMMANDS = frozenset({"help", "rules", "settings", "config", "season", "leaderboard", "stats"})
PUBLIC_BELOW = "Done; see the message below."  # a deferred command's note before its public answer
# The restore goes on with the bot connected once it has taken this long (seconds).
BEFORE_CONNECTING = 1.0
# An interaction that waits for the restore is deferred this long after it arrived, unless
# answered by then (most restores take a fraction of a second): well within Discord's 3 s.
DEFER_AFTER = 0.5
WAITING_ITEMS = tuple(cls for cls in DYNAMIC_ITEMS if issubclass(cls, (OfMatch, OfParty)))


class Restoring:
    """The restore under way (none: done), and the interactions that wait for it."""

    def __init__(self) -> None:
        self._task: asyncio.Future[Any] | None = None

    async def start(self, restore: Awaitable[Any], before_connecting: float = BEFORE_CONNECTING) -> None:
        """Start the restore and wait for it up to ``before_connecting`` seconds: a quick one
        (nearly all) is over before the bot connects, as if it were awaited; a longer one goes
        on with the bot connected. A restore that failed meanwhile raises, as awaited."""
        self._task = task = asyncio.ensure_future(restore)
        await asyncio.wait([task], timeout=before_connecting)
        if task.done():
            task.result()

    @property
    def done(self) -> bool:
        return self._task is None or self._task.done()

    def arrived(self, interaction: Interaction) -> None:
        """Called for every interaction before any handler runs: defer it now if its answer
        waits for the restore."""
        if not self.done and waits_for_restore(interaction):
            interaction._cs_response = LateResponse(interaction)  # type: ignore[attr-defined]

    async def wait(self, interaction: Interaction) -> None:
        """Wait for the restore if this interaction was deferred for it (at once otherwise)."""
        if isinstance(interaction.response, LateResponse) and self._task is not None:
            await asyncio.wait([self._task])  # a failed restore was logged; answer anyway

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


def waits_for_restore(interaction: Interaction) -> bool:
    data: Any = interaction.data or {}
    if interaction.type == discord.InteractionType.application_command:
        return data.get("name") not in FREE_COMMANDS
    if interaction.type == discord.InteractionType.component:
        custom_id = data.get("custom_id")
        return (
            isinstance(custom_id, str)
            and any(cls.__discord_ui_compiled_template__.fullmatch(custom_id) for cls in WAITING_ITEMS)
            and component_is_handled(interaction, DYNAMIC_ITEMS)
        )
    return False  # autocomplete reads what is there; no modal waits


class LateResponse:
    """``interaction.response`` of an interaction that arrived during the restore. Answered
    within ``DEFER_AFTER`` seconds (the restore was quick), the answer goes out as usual;
    else the interaction is deferred then, and the handlers' answer goes out as what follows
    a deferral. ``sent_message``: the message a follow-up posted."""

    def __init__(self, interaction: Interaction) -> None:
        self._interaction = interaction
        self._real: discord.InteractionResponse[Any] = discord.InteractionResponse(interaction)
        self.command = interaction.type == discord.InteractionType.application_command
        self._direct = False  # answered as usual, not deferred
        self._answered = False  # (once deferred) the deferral's message holds the answer
        self.sent_message: discord.WebhookMessage | None = None
        self._deferral: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(DEFER_AFTER, self._defer_now)

    def _defer_now(self) -> None:
        if not self._direct and self._deferral is None:
            self._deferral = asyncio.ensure_future(self._defer())

    async def _defer(self) -> None:
        try:
            if self.command:
                await self._real.defer(ephemeral=True, thinking=True)
            else:
                await self._real.defer()
        except discord.HTTPException:
            log.warning("interaction %s: could not defer it during the restore", self._interaction.id)

    async def _deferred(self) -> bool:
        """True if the interaction was deferred (wait for the deferral); False: answer as usual."""
        if self._deferral is None:
            self._timer.cancel()
            self._direct = True
            return False
        await self._deferral
        return True

    def is_done(self) -> bool:
        if self._deferral is None:
            return self._real.is_done()
        return self._answered or not self.command  # a component's answer is a follow-up or an edit

    @property
    def type(self) -> discord.InteractionResponseType | None:
        return self._real.type

    async def defer(self, **kwargs: Any) -> None:
        if not await self._deferred():
            await self._real.defer(**kwargs)
            return
        self._answered = True

    async def send_message(self, content: Any = None, *, ephemeral: bool = False, **kwargs: Any) -> None:
        if not await self._deferred():
            await self._real.send_message(content, ephemeral=ephemeral, **kwargs)
            return
        kwargs.pop("delete_after", None)
        if self.command and not self._answered:
            self._answered = True
            if ephemeral:  # the deferral's "thinking" message (its player's alone) is the answer
                await self._interaction.edit_original_response(content=content, **editable(kwargs))
                return
            # A public answer (a lobby): the thinking message, which only its player sees,
            # must be filled before a follow-up can be a message of its own; it goes after.
            await self._interaction.edit_original_response(content=PUBLIC_BELOW)
            await self._follow_up(content, ephemeral, kwargs)
            try:
                await self._interaction.delete_original_response()
            except discord.HTTPException:
                log.info("interaction %s: could not delete the note of a public answer", self._interaction.id)
            return
        self._answered = True
        await self._follow_up(content, ephemeral, kwargs)

    async def _follow_up(self, content: Any, ephemeral: bool, kwargs: dict[str, Any]) -> None:
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        if content is not None:
            kwargs["content"] = content
        self.sent_message = await self._interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)

    async def edit_message(self, **kwargs: Any) -> None:
        if not await self._deferred():
            await self._real.edit_message(**kwargs)
            return
        self._answered = True
        kwargs.pop("delete_after", None)
        kwargs.pop("suppress_embeds", None)
        await self._interaction.edit_original_response(**kwargs)


def editable(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``send_message``'s arguments as ``edit_original_response`` takes them."""
    out = {k: v for k, v in kwargs.items() if k in ("embed", "embeds", "view", "allowed_mentions")}
    files: Sequence[discord.File] = list(kwargs.get("files") or ())
    if kwargs.get("file") is not None:
        files = [*files, kwargs["file"]]
    if files:
        out["attachments"] = files
    return out
