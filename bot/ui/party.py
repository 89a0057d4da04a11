"""Parties in Discord: the party message (lobby, then standings, edited in place), its
buttons and option selects, and a thread of the party's channel for every table.

    kg:party:<party>:<action>    party buttons (join, leave, ai, aieasy, aihard, unai, start, cancel, opts, optmore)
    kg:popt:<party>:<key>        party option select (tables, rounds, or one of the game's options)

Each table's match is an ordinary match whose channel is its thread: the table publisher
posts and edits its table there, with the same hand, pings and end screen as any match.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord

from bot.games import GAMES
from bot.games.base import GameError, Option
from bot.service import MatchService, MatchStatus, ServiceError
from bot.service.parties import PARTY_KEYS, ROUND_CHOICES, TABLE_CHOICES
from bot.service.snapshot import PartySnapshot
from bot.ui import partyview, render
from bot.ui.leaving import ask_leave_party
from bot.ui.lobby import (
    LOBBY_ACTIONS,
    PANEL_SELECTS,
    SeatCalls,
    acknowledge,
    choice_select,
    chosen_values,
    option_placeholder,
    paged_options_view,
    seat_action,
    show_panel,
)
from bot.ui.placement import OfParty
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

# A match lobby's buttons; the game's options are behind "Game options" (the party's own
# options, tables and rounds, are on the party message).
PARTY_ACTIONS = LOBBY_ACTIONS | {"opts": ("Game options", discord.ButtonStyle.secondary)}

PARTY_SEATS = SeatCalls(
    lambda svc, party, user, name: svc.parties.seating.join(party, user, name),
    lambda svc, party, user: svc.parties.leave(party, user),
    lambda svc, party, user, level: svc.parties.seating.add_ai(party, user, level),
    lambda svc, party, user: svc.parties.seating.remove_ai(party, user),
)


def party_games() -> list[str]:
    """The games that can be played as a party (their outcome gives every seat a total)."""
    return [g.id for g in GAMES.values() if g.parties is not None]


class PartyButton(
    OfParty,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:party:(?P<pid>\d{1,12}):(?P<action>[a-z]{1,8})",
):
    def __init__(self, party_id: int, action: str) -> None:
        label, style = PARTY_ACTIONS.get(action, ("?", discord.ButtonStyle.secondary))
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"kg:party:{party_id}:{action}")
        )
        self.party_id = party_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Any, match: re.Match[str], /
    ) -> PartyButton:
        return cls(int(match["pid"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, party_action(interaction, self.party_id, self.action))


class PartyOptionSelect(
    OfParty,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"kg:popt:(?P<pid>\d{1,12}):(?P<key>[a-z_]{1,20})",
):
    def __init__(self, party_id: int, key: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"kg:popt:{party_id}:{key}", options=[discord.SelectOption(label="-")]
            )
        )
        self.party_id = party_id
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Any, match: re.Match[str], /
    ) -> PartyOptionSelect:
        return cls(int(match["pid"]), match["key"], item)

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        await guarded(
            interaction, set_party_option(interaction, self.party_id, self.key, ",".join(self.item.values))
        )


PARTY_ITEMS = (PartyButton, PartyOptionSelect)


def _select(
    party_id: int,
    key: str,
    label: str,
    choices: tuple[tuple[str, str], ...],
    chosen: set[str],
    *,
    multi: bool,
    row: int,
) -> PartyOptionSelect:
    return PartyOptionSelect(
        party_id,
        key,
        choice_select(f"kg:popt:{party_id}:{key}", label, choices, chosen, multi=multi, row=row),
    )


def game_option_select(party: PartySnapshot, option: Option, row: int) -> PartyOptionSelect:
    chosen = chosen_values(option, party.record.options)
    return _select(
        party.id,
        option.key,
        option_placeholder(option, party.record.options),
        option.choices,
        chosen,
        multi=option.multi,
        row=row,
    )


def party_view(party: PartySnapshot) -> discord.ui.View:
    """Lobby: the buttons, tables and rounds, the game's options behind a button, and an
    AI player of each level.
    Running: Leave and Cancel. Over: nothing."""
    view = component_view()
    if party.status == MatchStatus.LOBBY:
        for action in ("join", "leave", "ai", "start", "cancel"):
            view.add_item(PartyButton(party.id, action))
        view.add_item(
            _select(
                party.id, "tables", "Tables", TABLE_CHOICES, {str(party.record.tables)}, multi=False, row=1
            )
        )
        view.add_item(
            _select(
                party.id, "rounds", "Rounds", ROUND_CHOICES, {str(party.record.rounds)}, multi=False, row=2
            )
        )
        actions = ["opts"] if party.game.options else []
        actions += ["aieasy", "aihard"] + (["unai"] if any(p.ai for p in party.players) else [])
        for action in actions:
            button = PartyButton(party.id, action)
            button.item.row = 3
            view.add_item(button)
    elif party.status == MatchStatus.RUNNING:
        view.add_item(PartyButton(party.id, "leave"))
        view.add_item(PartyButton(party.id, "cancel"))
    return view


def options_view(party: PartySnapshot, page: int = 0) -> discord.ui.View:
    """The host's ephemeral panel of the game's options, four a page."""
    return paged_options_view(
        party.game.options,
        page,
        lambda option, row: game_option_select(party, option, row),
        lambda action: PartyButton(party.id, action),
    )


def options_embed(party: PartySnapshot) -> discord.Embed:
    embed = discord.Embed(
        title=f"Options: {party.game.name} party #{party.id}",
        description="\n".join(partyview.party_options(party))
        + "\n\nChanges show on the party at once; press Start there when ready.",
        colour=render.COLOUR_LOBBY,
    )
    embed.set_footer(text="Only the host sees this.")
    return embed


# --- what the commands and buttons do -----------------------------------------------------


async def open_party(interaction: Interaction, game_id: str) -> None:
    if interaction.guild_id is None or interaction.channel_id is None:
        await say(interaction, "Parties are played in server channels, not in direct messages.")
        return
    if isinstance(interaction.channel, discord.Thread):
        await say(
            interaction, "A party opens a thread for every table: start it in a channel, not in a thread."
        )
        return
    missing = missing_channel_permissions(interaction, threads=True)
    if missing:
        await say(
            interaction, f"I cannot host a party in this channel: I am missing the {missing} permission here."
        )
        return
    svc = service_of(interaction)
    party = await svc.parties.open(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        host_id=interaction.user.id,
        host_name=display_name(interaction),
        game_id=game_id,
    )
    await interaction.response.send_message(embed=partyview.party_embed(party), view=party_view(party))
    try:
        message = await answer_message(interaction)
        await svc.parties.set_message(party.id, message.id)
    except discord.HTTPException:
        log.warning("party %s: could not read the party message id", party.id)


async def party_action(interaction: Interaction, party_id: int, action: str) -> None:
    svc = service_of(interaction)
    user = interaction.user.id
    try:
        if action == "leave" and (party := await svc.parties.get(party_id)).status == MatchStatus.RUNNING:
            await ask_leave_party(interaction, party)  # the AI takes the seat: ask first
            return
        if await seat_action(interaction, party_id, action, PARTY_SEATS):
            pass
        elif action == "start":
            missing = missing_channel_permissions(interaction, threads=True)
            if missing:  # taken away since the party opened: say so before any table is seated
                await say(
                    interaction,
                    f"I cannot seat the party's tables: I am missing the {missing} permission here.",
                )
                return
            if not interaction.response.is_done():
                await interaction.response.defer()  # opening the tables' threads takes a moment
            await svc.parties.seating.start(party_id, user)
        elif action == "cancel":
            await svc.parties.cancel(party_id, user, is_admin=is_admin(interaction))
        elif action in ("opts", "optmore"):
            await options_panel(interaction, party_id, page=1 if action == "optmore" else 0)
            return
        else:
            await say(interaction, "That button is not one of ours.")
            return
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    await acknowledge(interaction)


async def options_panel(interaction: Interaction, party_id: int, page: int = 0) -> None:
    party = await service_of(interaction).parties.get(party_id)
    if party.status != MatchStatus.LOBBY:
        raise ServiceError("This party has already started or ended.")
    if interaction.user.id != party.record.host_id:
        raise ServiceError("Only the host can change the options.")
    await show_panel(interaction, options_embed(party), options_view(party, page))


async def set_party_option(interaction: Interaction, party_id: int, key: str, value: str) -> None:
    try:
        party = await service_of(interaction).parties.seating.set_option(
            party_id, interaction.user.id, key, value
        )
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    message = interaction.message
    if message is not None and message.flags.ephemeral and not interaction.response.is_done():
        keys = [o.key for o in party.game.options]
        page = keys.index(key) // PANEL_SELECTS if key in keys and key not in PARTY_KEYS else 0
        await interaction.response.edit_message(embed=options_embed(party), view=options_view(party, page))
        return
    await acknowledge(interaction)


# --- the service's listener and the tables' threads ---------------------------------------------


def table_intro(party: PartySnapshot, round_no: int, table_no: int) -> str:
    """A table thread's first message: the round, the table and its players (people by
    mention, so that each knows which thread is theirs)."""
    table = next((t for t in party.round_tables(round_no) if t.table_no == table_no), None)
    names = []
    for player in table.seating if table is not None else ():
        p = party.players[player] if 0 <= player < len(party.players) else None
        if p is None or p.ai or p.left or p.user_id is None:
            names.append("an AI seat" if p is None else f"AI for {p.name}" if p.left and not p.ai else p.name)
        else:
            names.append(f"<@{p.user_id}>")
    who = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
    rounds = party.record.rounds
    return (
        f"**Round {round_no} of {rounds} · table {table_no + 1}** of {party.game.name} party #{party.id}: "
        f"{who or 'this table'} play here. The table and your hands follow in this thread."
    )


class PartyPublisher:
    """Edits each party's message in place (newest state only) and opens a thread of the
    party's channel for every table."""

    def __init__(self, client: discord.Client, service: MatchService) -> None:
        self.client = client
        self.service = service
        self._locks: dict[int, asyncio.Lock] = {}

    async def table_channel(self, party: PartySnapshot, round_no: int, table_no: int) -> int:
        channel = self.client.get_channel(party.record.channel_id) or await self.client.fetch_channel(
            party.record.channel_id
        )
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError("A party's tables are threads of a text channel.")
        thread = await channel.create_thread(
            name=clip(f"{party.game.name} party #{party.id} · round {round_no} · table {table_no + 1}", 100),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        # Who plays here, named once as the thread opens (a restart finds the thread made and
        # opens none, so nobody is pinged twice).
        try:
            await thread.send(
                table_intro(party, round_no, table_no),
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )
        except discord.HTTPException:
            log.warning(
                "party %s: could not name the players of round %d table %d", party.id, round_no, table_no + 1
            )
        return thread.id

    async def party_changed(self, party: PartySnapshot) -> None:
        async with self._locks.setdefault(party.id, asyncio.Lock()):
            latest = await self.service.parties.get(party.id)
            if latest.record.message_id is None:
                return
            channels: dict[int, int] = {}
            for table in latest.round_tables():
                if table.match_id is not None:
                    channels[table.table_no] = (await self.service.get(table.match_id)).record.channel_id
            messageable = self.client.get_partial_messageable(latest.record.channel_id)
            embed, view = partyview.party_embed(latest, channels), party_view(latest)
            try:
                await messageable.get_partial_message(latest.record.message_id).edit(embed=embed, view=view)
            except discord.NotFound:
                try:
                    message = await messageable.send(embed=embed, view=view)
                except discord.HTTPException:
                    log.warning("party %s: the party message is gone and no new one can be posted", party.id)
                    return
                await self.service.parties.set_message(party.id, message.id)
            except discord.HTTPException:
                log.exception("party %s: editing the party message failed", party.id)
        if latest.status.over:
            self._locks.pop(party.id, None)
