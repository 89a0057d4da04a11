"""Leaving a running match or party asks first: one mistyped ``/leave`` must not cost a
player their match. Leaving a lobby costs nothing and asks nothing (:mod:`bot.ui.commands`).

    kg:leave:<match>:<user>:<go|keep>     the question /leave asks in a running match
    kg:pleave:<party>:<user>:<go|keep>    the same for a running party (/leave in its channel,
                                          or the Leave button of the party message)

The question is an ephemeral message, so only the player who asked sees it. Its buttons
carry that player's id (a public number, as in a mention: nothing of the match), so that a
button copied onto another message acts for nobody else; they are dynamic items, so they
still work after a restart. Confirming checks again that the match (or party) still runs and
that the player still holds the seat; any refusal is one sentence and changes nothing.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.service import MatchStatus, ServiceError, Snapshot, errors
from bot.service.snapshot import PartySnapshot
from bot.ui.placement import OfMatch, OfParty
from bot.ui.replies import Interaction, component_view, guarded, say, service_of, wrong_kind

ANSWERS = {"go": discord.ButtonStyle.danger, "keep": discord.ButtonStyle.secondary}
NOT_YOURS = "Only the player who asked to leave can answer that."


def match_question(snap: Snapshot) -> str:
    if snap.practice:
        return f"Leave match #{snap.id}? The AI takes your seat for the rest of this practice match."
    return f"Leave match #{snap.id}? The AI takes your seat and the match counts as a loss for you."


def match_left(snap: Snapshot) -> str:
    if snap.practice:
        return f"You left match #{snap.id}; the AI plays your seat."
    return f"You left match #{snap.id}; the AI plays your seat and the match counts as a loss for you."


def party_question(party: PartySnapshot) -> str:
    return f"Leave party #{party.id}? The AI takes your seat and you are ranked last."


PARTY_LEFT = "You left the party; the AI plays your seat and you are ranked last."


class LeaveMatchButton(
    OfMatch,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:leave:(?P<mid>\d{1,12}):(?P<uid>\d{1,20}):(?P<act>go|keep)",
):
    """An answer to "Leave match #N?": Leave match, or Stay."""

    private_ok = True  # the question is asked wherever /leave was typed in the match's server

    def __init__(self, match_id: int, user_id: int, act: str) -> None:
        label = "Leave match" if act == "go" else "Stay"
        super().__init__(
            discord.ui.Button(
                label=label, style=ANSWERS[act], custom_id=f"kg:leave:{match_id}:{user_id}:{act}"
            )
        )
        self.match_id = match_id
        self.user_id = user_id
        self.act = act

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Any, match: re.Match[str], /) -> Self:
        return cls(int(match["mid"]), int(match["uid"]), match["act"])

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, answer_match(interaction, self.match_id, self.user_id, self.act))


class LeavePartyButton(
    OfParty,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:pleave:(?P<pid>\d{1,12}):(?P<uid>\d{1,20}):(?P<act>go|keep)",
):
    """An answer to "Leave party #N?": Leave party, or Stay."""

    private_ok = True  # asked in the party's channel, or in one of its tables' threads

    def __init__(self, party_id: int, user_id: int, act: str) -> None:
        label = "Leave party" if act == "go" else "Stay"
        super().__init__(
            discord.ui.Button(
                label=label, style=ANSWERS[act], custom_id=f"kg:pleave:{party_id}:{user_id}:{act}"
            )
        )
        self.party_id = party_id
        self.user_id = user_id
        self.act = act

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Any, match: re.Match[str], /) -> Self:
        return cls(int(match["pid"]), int(match["uid"]), match["act"])

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, answer_party(interaction, self.party_id, self.user_id, self.act))


LEAVING_ITEMS = (LeaveMatchButton, LeavePartyButton)


# --- asking -------------------------------------------------------------------------------------


async def ask_leave_match(interaction: Interaction, snap: Snapshot) -> None:
    """/leave in a running match: ask the player first (ephemeral, with the two buttons)."""
    seated_or_refuse(snap, interaction.user.id)
    view = component_view()
    for act in ANSWERS:
        view.add_item(LeaveMatchButton(snap.id, interaction.user.id, act))
    await say(interaction, match_question(snap), view=view)


async def ask_leave_party(interaction: Interaction, party: PartySnapshot) -> None:
    """/leave (or the party message's Leave) in a running party: ask the player first."""
    in_party_or_refuse(party, interaction.user.id)
    view = component_view()
    for act in ANSWERS:
        view.add_item(LeavePartyButton(party.id, interaction.user.id, act))
    await say(interaction, party_question(party), view=view)


def seated_or_refuse(snap: Snapshot, user_id: int) -> int:
    """The player's seat in this running match, else a refusal that names why."""
    if snap.status != MatchStatus.RUNNING:
        raise errors.NotRunning(f"Match #{snap.id} is over, so there is no seat to leave.")
    seat = snap.seat_of(user_id)
    if seat is None:
        raise errors.NotSeated(f"You have no seat in match #{snap.id}.")
    if snap.seats[seat].left:
        raise errors.NotSeated(f"You no longer hold a seat in match #{snap.id}; the AI plays it already.")
    return seat


def in_party_or_refuse(party: PartySnapshot, user_id: int) -> int:
    """The player's place in this running party, else a refusal that names why."""
    if party.status != MatchStatus.RUNNING:
        raise errors.NotRunning(f"Party #{party.id} is over, so there is nothing to leave.")
    me = party.player_of(user_id)
    if me is None:
        raise errors.NotSeated(f"You are not in party #{party.id}.")
    if party.players[me].left:
        raise errors.NotSeated(f"You no longer hold a seat in party #{party.id}; the AI plays it already.")
    return me


# --- answering ----------------------------------------------------------------------------------


def kept(what: str, running: bool, left: bool) -> str:
    """The answer to Stay: the seat in ``what`` ("match #4") is kept, or was left already."""
    if running and left:
        return f"You already left {what}; the AI plays your seat."
    if running:
        return f"Nothing changed: you keep your seat in {what}."
    return "Nothing changed."


async def answer_match(interaction: Interaction, match_id: int, user_id: int, act: str) -> None:
    if interaction.user.id != user_id:
        raise ServiceError(NOT_YOURS)
    svc = service_of(interaction)
    snap = await svc.get(match_id)
    if act == "keep":
        seat = snap.seat_of(user_id)
        running = snap.status == MatchStatus.RUNNING and seat is not None
        left = seat is not None and snap.seats[seat].left  # a second question, after leaving
        await settle(interaction, kept(f"match #{match_id}", running, left))
        return
    seated_or_refuse(snap, user_id)
    snap = await svc.leave_match(match_id, user_id)  # checks both again, under the match's lock
    await settle(interaction, match_left(snap))


async def answer_party(interaction: Interaction, party_id: int, user_id: int, act: str) -> None:
    if interaction.user.id != user_id:
        raise ServiceError(NOT_YOURS)
    svc = service_of(interaction)
    party = await svc.parties.get(party_id)
    if act == "keep":
        me = party.player_of(user_id)
        running = party.status == MatchStatus.RUNNING and me is not None
        left = me is not None and party.players[me].left
        await settle(interaction, kept(f"party #{party_id}", running, left))
        return
    in_party_or_refuse(party, user_id)
    await svc.parties.leave(party_id, user_id)  # checks both again, under the party's lock
    await settle(interaction, PARTY_LEFT)


async def settle(interaction: Interaction, text: str) -> None:
    """The question becomes its answer, buttons gone; a button pressed anywhere but on the
    private question gets the answer as a new ephemeral message (no public message is edited)."""
    message = interaction.message
    if message is not None and message.flags.ephemeral and not interaction.response.is_done():
        await interaction.response.edit_message(content=text, embeds=[], view=None)
        return
    await say(interaction, text)
