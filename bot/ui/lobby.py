"""The lobby: its buttons and option selects, opening one, and what its buttons do.

kg:lobby:<match>:<action>        lobby buttons (join, leave, ai, aieasy, aihard, unai, start, cancel, opts, optmore,
                                 practice, rated)
kg:opt:<match>:<key>             lobby option select

A party's lobby (:mod:`bot.ui.party`) is this lobby with its own custom ids: it uses the
same buttons (``LOBBY_ACTIONS``), the same seat actions (:func:`seat_action`, over the
service's one seating lobby), the same option selects and the same options panel.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.base import GameError, Option
from bot.service import MatchService, MatchStatus, ServiceError, Snapshot, errors, practice
from bot.ui import render
from bot.ui.handview import SELECT_SIZE
from bot.ui.placement import OfMatch
from bot.ui.render import clip
from bot.ui.replies import (
    Interaction,
    answer_message,
    component_view,
    display_name,
    guarded,
    is_admin,
    missing_channel_permissions,
    refuse,
    say,
    service_of,
    wrong_kind,
)

log = logging.getLogger(__name__)

LOBBY_ACTIONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI", discord.ButtonStyle.secondary),  # the normal level: the game's own AI
    "aieasy": ("Add easy AI", discord.ButtonStyle.secondary),
    "aihard": ("Add hard AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
    "unai": ("Remove AI", discord.ButtonStyle.secondary),
    "opts": ("Options", discord.ButtonStyle.secondary),
    "optmore": ("More options", discord.ButtonStyle.secondary),
    "practice": ("Practice (unrated)", discord.ButtonStyle.secondary),
    "rated": ("Make it rated", discord.ButtonStyle.secondary),
}
PRACTICE_ACTIONS = {"practice": practice.PRACTICE, "rated": practice.RATED}  # button -> the platform option


AI_LEVEL_ACTIONS = {"aieasy": "easy", "ai": "normal", "aihard": "hard"}  # button -> Seat.level

INLINE_OPTIONS = 3  # more options than this go to an ephemeral panel behind an Options button


class LobbyButton(
    OfMatch,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:lobby:(?P<mid>\d{1,12}):(?P<action>[a-z]{1,8})",
):
    def __init__(self, match_id: int, action: str) -> None:
        label, style = LOBBY_ACTIONS.get(action, ("?", discord.ButtonStyle.secondary))
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"kg:lobby:{match_id}:{action}")
        )
        self.match_id = match_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["mid"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, lobby_action(interaction, self.match_id, self.action))


class OptionSelect(
    OfMatch,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"kg:opt:(?P<mid>\d{1,12}):(?P<key>[a-z_]{1,20})",
):
    def __init__(self, match_id: int, key: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"kg:opt:{match_id}:{key}", options=[discord.SelectOption(label="-")]
            )
        )
        self.match_id = match_id
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> OptionSelect:
        return cls(int(match["mid"]), match["key"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        value = ",".join(self.item.values)
        await guarded(interaction, set_option(interaction, self.match_id, self.key, value))


LOBBY_ITEMS = (LobbyButton, OptionSelect)


def chosen_values(option: Option, options: Mapping[str, str]) -> set[str]:
    """The values of ``option`` chosen in a lobby's stored options (its default if unset)."""
    current = options.get(option.key, option.default_value)
    return set(current.split(",")) if option.multi else {current}


def choice_select(
    custom_id: str, label: str, choices: Sequence[tuple[str, str]], chosen: set[str], *, multi: bool, row: int
) -> discord.ui.Select[Any]:
    """A select of (value, label) choices with the chosen ones marked (a lobby's or a party's)."""
    choices = choices[:SELECT_SIZE]
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=label,
        min_values=0 if multi else 1,
        max_values=len(choices) if multi else 1,
        options=[
            discord.SelectOption(label=clip(text, 100), value=value, default=value in chosen)
            for value, text in choices
        ],
        row=row,
    )


def option_placeholder(option: Option, options: Mapping[str, str] | None = None) -> str:
    """What a select shows with nothing chosen: a multi-choice option says what none means
    (or that it has nothing to change with the other ``options`` chosen)."""
    if option.multi and options is not None and option.is_moot(options):
        return clip(f"{option.label}: {option.moot_note or option.empty}", 150)
    return clip(f"{option.label}: {option.empty}", 150) if option.multi else option.label


def option_select(snap: Snapshot, option: Option, row: int) -> OptionSelect:
    select = choice_select(
        f"kg:opt:{snap.id}:{option.key}",
        option_placeholder(option, snap.record.options),
        option.choices,
        chosen_values(option, snap.record.options),
        multi=option.multi,
        row=row,
    )
    return OptionSelect(snap.id, option.key, select)


def lobby_view(snap: Snapshot) -> discord.ui.View:
    view = component_view()
    if snap.status != MatchStatus.LOBBY:
        return view
    for action in ("join", "leave", "ai", "start", "cancel"):
        view.add_item(LobbyButton(snap.id, action))
    options = snap.game.options
    last_row = 4
    if len(options) <= INLINE_OPTIONS:
        for row, option in enumerate(options, start=1):
            view.add_item(option_select(snap, option, row))
    else:
        button = LobbyButton(snap.id, "opts")
        button.item.row = last_row = 1
        view.add_item(button)
    for action in ("aieasy", "aihard"):  # Add AI (row 0) is the normal level
        button = LobbyButton(snap.id, action)
        button.item.row = last_row
        view.add_item(button)
    if any(s.ai for s in snap.seats):
        button = LobbyButton(snap.id, "unai")
        button.item.row = last_row
        view.add_item(button)
    button = LobbyButton(snap.id, "rated" if snap.practice else "practice")
    button.item.row = last_row
    view.add_item(button)
    return view


PANEL_SELECTS = 4  # option selects per page of the host's panel (a row is left for paging)


def paged_options_view(
    options: Sequence[Option],
    page: int,
    select: Callable[[Option, int], discord.ui.Item[Any]],
    button: Callable[[str], discord.ui.DynamicItem[discord.ui.Button[Any]]],
) -> discord.ui.View:
    """A host's ephemeral options panel (a lobby's or a party's): ``select(option, row)`` for
    each option of the page, four a page, and ``button(action)`` to turn to the other page
    ("optmore" the next, "opts" back to the first) when there are more."""
    view = component_view()
    pages = max(1, -(-len(options) // PANEL_SELECTS))
    page = max(0, min(page, pages - 1))
    for row, option in enumerate(options[page * PANEL_SELECTS : (page + 1) * PANEL_SELECTS]):
        view.add_item(select(option, row))
    if pages > 1:
        turn = button("optmore" if page + 1 < pages else "opts")
        if page + 1 == pages:
            turn.item.label = "First options"
        turn.item.row = 4
        view.add_item(turn)
    return view


def options_view(snap: Snapshot, page: int = 0) -> discord.ui.View:
    """The host's ephemeral panel: one select per option, four a page, with a button to the
    other page when a game has more."""
    return paged_options_view(
        snap.game.options,
        page,
        lambda option, row: option_select(snap, option, row),
        lambda action: LobbyButton(snap.id, action),
    )


def options_page(snap: Snapshot, key: str) -> int:
    """The panel page that holds the option ``key``."""
    keys = [o.key for o in snap.game.options]
    return keys.index(key) // PANEL_SELECTS if key in keys else 0


async def open_lobby(interaction: Interaction, game_id: str) -> None:
    if interaction.guild_id is None or interaction.channel_id is None:
        await say(interaction, "Matches are played in server channels, not in direct messages.")
        return
    missing = missing_channel_permissions(interaction)
    if missing:
        await say(
            interaction, f"I cannot host a match in this channel: I am missing the {missing} permission here."
        )
        return
    svc = service_of(interaction)
    snap = await svc.open_lobby(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        host_id=interaction.user.id,
        host_name=display_name(interaction),
        game_id=game_id,
    )
    await interaction.response.send_message(embed=render.lobby_embed(snap), view=lobby_view(snap))
    try:
        message = await answer_message(interaction)
        await svc.store.set_table_message(snap.id, message.id)
    except discord.HTTPException:
        log.warning("match %s: could not read the lobby message id", snap.id)


@dataclass(frozen=True, slots=True)
class SeatCalls:
    """What a lobby's seat buttons call in the service: a match's lobby or a party's (both
    the service's one seating lobby)."""

    join: Callable[[MatchService, int, int, str], Awaitable[Any]]
    leave: Callable[[MatchService, int, int], Awaitable[Any]]
    add_ai: Callable[[MatchService, int, int, str], Awaitable[Any]]
    remove_ai: Callable[[MatchService, int, int], Awaitable[Any]]


MATCH_SEATS = SeatCalls(
    MatchService.join, MatchService.leave_lobby, MatchService.add_ai, MatchService.remove_ai
)


async def seat_action(interaction: Interaction, lobby_id: int, action: str, calls: SeatCalls) -> bool:
    """Do a seat button's action (join, leave, add an AI of a level, remove one); False when
    ``action`` is none of these."""
    svc = service_of(interaction)
    user = interaction.user.id
    if action == "join":
        await calls.join(svc, lobby_id, user, display_name(interaction))
    elif action == "leave":
        await calls.leave(svc, lobby_id, user)
    elif action in AI_LEVEL_ACTIONS:
        await calls.add_ai(svc, lobby_id, user, AI_LEVEL_ACTIONS[action])
    elif action == "unai":
        await calls.remove_ai(svc, lobby_id, user)
    else:
        return False
    return True


async def lobby_action(interaction: Interaction, match_id: int, action: str) -> None:
    svc = service_of(interaction)
    user = interaction.user.id
    try:
        if await seat_action(interaction, match_id, action, MATCH_SEATS):
            pass
        elif action == "start":
            await svc.start(match_id, user)
        elif action in PRACTICE_ACTIONS:
            await svc.set_option(match_id, user, practice.KEY, PRACTICE_ACTIONS[action])
        elif action in ("opts", "optmore"):
            await options_panel(interaction, match_id, page=1 if action == "optmore" else 0)
            return
        elif action == "cancel":
            if (await svc.get(match_id)).status != MatchStatus.LOBBY:  # a lobby button left on an old message
                raise errors.LobbyError(
                    "This lobby is closed: the match has already started or ended; /cancel ends a running match."
                )
            await svc.cancel(match_id, user, is_admin=is_admin(interaction))
        else:
            await say(interaction, "That button is not one of ours.")
            return
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    await acknowledge(interaction)


async def options_panel(interaction: Interaction, match_id: int, page: int = 0) -> None:
    """The host's options, as selects in an ephemeral message (games with many options); the
    panel's own paging button turns its page in place."""
    snap = await service_of(interaction).get(match_id)
    if snap.status != MatchStatus.LOBBY:
        raise errors.LobbyError("This lobby is closed: the match has already started or ended.")
    if interaction.user.id != snap.record.host_id:
        raise errors.NotHost("change the options")
    await show_panel(interaction, render.options_embed(snap), options_view(snap, page))


async def show_panel(interaction: Interaction, embed: discord.Embed, view: discord.ui.View) -> None:
    """Show the host's options panel (a lobby's or a party's): turned in place when the
    click came from the panel itself, else sent as a new ephemeral message."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(embed=embed, view=view)
        return
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def set_option(interaction: Interaction, match_id: int, key: str, value: str) -> None:
    try:
        snap = await service_of(interaction).set_option(match_id, interaction.user.id, key, value)
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    message = interaction.message
    if message is not None and message.flags.ephemeral and not interaction.response.is_done():
        await interaction.response.edit_message(
            embed=render.options_embed(snap), view=options_view(snap, options_page(snap, key))
        )
        return
    await acknowledge(interaction)


async def acknowledge(interaction: Interaction) -> None:
    """Acknowledge a lobby click; the table publisher edits the message in place."""
    if not interaction.response.is_done():
        await interaction.response.defer()
