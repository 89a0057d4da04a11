"""The private hand's behaviour: what pressing the table's "My hand" button, a move button
or a select does, and playing the move. What the hand shows is :mod:`bot.ui.handview`; each
item here is its look there with a callback, registered once with ``bot.add_dynamic_items``
and rebuilt from its custom id, so they survive restarts.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.games.base import GameError, Move, seat_token
from bot.games.search import Hint
from bot.service import MoveResult, ServiceError, Snapshot, errors
from bot.ui.handview import (
    HINT_MARK,
    SELECT_SIZE,
    HandButtonLook,
    HintButtonLook,
    MoveButtonLook,
    MoveSelectLook,
    PickSelectLook,
    hand_message,
    hand_view,
    is_hint,
    pick_leaf,
    rerender,
)
from bot.ui.movetree import walk
from bot.ui.placement import OfMatch
from bot.ui.replies import Interaction, guarded, is_component, refuse, service_of, wrong_kind
from bot.ui.tracker import HandTracker, same_decision, signature

__all__ = ["HAND_ITEMS", "HandButton", "hand_message", "hand_view", "play_move", "rerender", "show_hand"]

log = logging.getLogger(__name__)


class HandButton(OfMatch, HandButtonLook, template=HandButtonLook.__discord_ui_compiled_template__):
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, show_hand(interaction, self.match_id))


class MoveButton(OfMatch, MoveButtonLook, template=MoveButtonLook.__discord_ui_compiled_template__):
    private_ok = True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, move_step(interaction, self.match_id, self.version, self.path))


class MoveSelect(OfMatch, MoveSelectLook, template=MoveSelectLook.__discord_ui_compiled_template__):
    private_ok = True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        values = list(self.item.values)
        try:
            child = int(values[0])
        except (IndexError, ValueError):
            child = -1
        await guarded(interaction, move_step(interaction, self.match_id, self.version, self.path + [child]))


class PickSelect(OfMatch, PickSelectLook, template=PickSelectLook.__discord_ui_compiled_template__):
    private_ok = True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        positions = [int(v) if v.isdigit() else -1 for v in self.item.values]
        await guarded(interaction, move_pick(interaction, self.match_id, self.version, self.path, positions))


class HintButton(OfMatch, HintButtonLook, template=HintButtonLook.__discord_ui_compiled_template__):
    private_ok = True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, give_hint(interaction, self.match_id, self.path))


HAND_ITEMS = (HandButton, HintButton, MoveButton, MoveSelect, PickSelect)


# --- showing the hand and playing -------------------------------------------------------------


def tracker_of(interaction: Interaction) -> HandTracker:
    return interaction.client.hands


async def show_hand(
    interaction: Interaction,
    match_id: int,
    *,
    notice: Sequence[str] = (),
    path: Sequence[int] = (),
    edit: bool | None = None,
) -> None:
    """Answer with the clicker's private view and the moves they may make now."""
    snap, seat = await service_of(interaction).hand(match_id, interaction.user.id)
    await send_hand(interaction, snap, seat, notice=notice, path=path, edit=edit)


async def send_hand(
    interaction: Interaction,
    snap: Snapshot,
    seat: int,
    *,
    notice: Sequence[str] = (),
    path: Sequence[int] = (),
    edit: bool | None = None,
) -> None:
    tracker = tracker_of(interaction)
    hand = hand_message(snap, seat, tracker.last(snap.id, seat), notice=notice, path=path)
    embed, view, shown = hand.embed, hand.view, hand.shown
    if edit is None:
        edit = is_component(interaction) and bool(interaction.message and interaction.message.flags.ephemeral)
    # The answer goes out at once; the picture follows by an edit a moment later, so drawing
    # never delays the answer to a click (an edited message drops its old picture now).
    message_id: int | None = None
    sent: int | None  # the message answered into (new, or the clicked one edited)
    if interaction.response.is_done():
        message = await interaction.followup.send(embed=embed, view=view, ephemeral=True, wait=True)
        message_id = sent = message.id
    elif edit:
        await interaction.response.edit_message(embed=embed, view=view, attachments=[])
        sent = interaction.message.id if interaction.message is not None else None
    else:
        callback = await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        sent = getattr(callback, "message_id", None)
    if snap.status.over or snap.seats[seat].left:
        # this one shows the end (or that the AI plays the seat) already; the others are edited by refresh
        tracker.drop(snap.id, seat)
        return
    remembered = replace(shown, interaction=interaction, message_id=message_id, at=tracker.clock())
    tracker.remember(snap, seat, remembered, sent)
    if await hand.wants_picture(service_of(interaction), snap, seat):
        tracker.spawn(tracker.add_picture(snap, seat, hand, remembered))


async def move_step(interaction: Interaction, match_id: int, version: int, path: list[int]) -> None:
    """A button or select of the hand: go one step down the move tree, or play the move."""
    svc = service_of(interaction)
    try:
        snap, seat = await svc.hand(match_id, interaction.user.id)
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    if snap.version != version and not tracker_of(interaction).still_shows(snap, seat, version):
        notice = [] if snap.status.over else ["That button was out of date; here is your hand now."]
        await send_hand(interaction, snap, seat, notice=notice)
        return
    version = snap.version  # the hand clicked shows what it shows now
    moves = snap.legal_moves(seat)
    node = walk(moves, path)
    if node is None:
        await send_hand(interaction, snap, seat, notice=["That choice is not available any more."])
        return
    if node.leaf is None or (
        node.children and node.choose_leaf_index is not None and len(path) == len(node.labels)
    ):
        await send_hand(interaction, snap, seat, path=path)
        return
    if node.leaf.pick is not None and not node.children:  # its multi-select comes next
        await send_hand(interaction, snap, seat, path=path)
        return
    await play_move(interaction, snap.id, node.leaf, version)


async def move_pick(
    interaction: Interaction, match_id: int, version: int, path: list[int], positions: list[int]
) -> None:
    """A Pick's multi-select: the move at ``path`` with the items at ``positions``."""
    svc = service_of(interaction)
    try:
        snap, seat = await svc.hand(match_id, interaction.user.id)
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    if snap.version != version and not tracker_of(interaction).still_shows(snap, seat, version):
        notice = [] if snap.status.over else ["That choice was out of date; here is your hand now."]
        await send_hand(interaction, snap, seat, notice=notice)
        return
    version = snap.version  # the hand clicked shows what it shows now
    move = pick_leaf(snap.legal_moves(seat), path)
    items = move.pick.items[:SELECT_SIZE] if move is not None and move.pick is not None else ()
    if move is None or not positions or not all(0 <= i < len(items) for i in positions):
        await send_hand(interaction, snap, seat, notice=["That choice is not available any more."])
        return
    await play_move(interaction, snap.id, move.choose([items[i][0] for i in positions]), version)


async def play_move(interaction: Interaction, match_id: int, move: Move | str, version: int | None) -> None:
    svc = service_of(interaction)
    snap = await svc.get(match_id)
    seat = snap.seat_of(interaction.user.id)
    tracker = tracker_of(interaction)
    held = tracker.hold(match_id, seat) if seat is not None else None  # this answer shows the move
    try:
        result = await svc.play(match_id, interaction.user.id, move, version=version)
    except errors.StaleVersion:
        snap, seat = await svc.hand(match_id, interaction.user.id)
        await send_hand(
            interaction,
            snap,
            seat,
            notice=["Someone moved first, so that was not played; here is your hand now."],
        )
        return
    except (GameError, ServiceError) as err:
        if seat is not None:  # a refusal shows no hand: the open one goes on updating itself
            tracker.release(match_id, seat, held)
        await refuse(interaction, err)
        if seat is not None:  # and catches up with what it missed while held
            await tracker.refresh(await svc.get(match_id))
        return
    await send_hand(interaction, result.snapshot, result.seat, notice=played_notice(result))


async def give_hint(interaction: Interaction, match_id: int, path: Sequence[int] = ()) -> None:
    """A practice match's hint, only for the player: the hard AI's move and why, as a line
    of their hand (edited in place), so that asking again replaces the line rather than
    adding a message. What the hand said above it stays; the line goes with the next change
    (:func:`bot.ui.handview.rerender`) or move."""
    svc = service_of(interaction)
    try:
        hint = await svc.hints.hint(match_id, interaction.user.id)
        snap, seat = await svc.hand(match_id, interaction.user.id)
    except (GameError, ServiceError) as err:
        await refuse(interaction, err)
        return
    before = tracker_of(interaction).last(snap.id, seat)
    current = before is not None and same_decision(signature(snap, seat), before.signature)
    kept = [line for line in before.notice if not is_hint(line)] if before is not None and current else []
    # the step of a move the player was at stays while the hand asks the same of them (the
    # same moves: the path still leads to that step)
    at = path if current else ()
    await send_hand(interaction, snap, seat, notice=[*kept, hint_text(snap, hint)], path=at)


def hint_text(snap: Snapshot, hint: Hint) -> str:
    """ "👉 Hint: **Dragon (next player draws 3), naming gold** — makes the next player draw."
    (the game's reason, or that it is the hard AI's choice)."""
    move = hint.move
    if move.pick is not None:  # the search's choice of a pick is its default
        move = move.choose(move.pick.parts(move.code) or ())
    text = f"{HINT_MARK} **{snap.name_text(move_words(move.path))}**"
    reason = hint.reason.rstrip(". ") if hint.reason else "the hard AI's choice from what you can see"
    return f"{text} — {snap.name_text(reason)}."


# "Dragon: next player draws 3" -> "Dragon (next player draws 3)": a card's effect after its name
_ASIDE = re.compile(r"(.*[^)]): ([a-z][^():]*)")
_LATER_WORDS = {"Name": "naming", "Suit:": "suit"}  # a later step's first word as it reads after a comma


def move_words(path: Sequence[str]) -> str:
    """A move's steps as one phrase, with no colons stacked ("Dragon: next player draws 3:
    Name gold" is "Dragon (next player draws 3), naming gold"): a step's effect goes in
    brackets, the steps after the first follow a comma in lower case."""
    words = []
    for i, step in enumerate(path):
        first, _, rest = step.partition(" ")
        if i and first in _LATER_WORDS:
            words.append(f"{_LATER_WORDS[first]} {rest}")
            continue
        aside = _ASIDE.fullmatch(step)
        if aside is not None:
            step = f"{aside[1]} ({aside[2]})"
        if i and re.match(r"[A-Z][a-z]", step):
            step = step[0].lower() + step[1:]
        words.append(step)
    return ", ".join(words)


def chosen_echo(label: str) -> str:
    """The line that repeats the move just made: "You chose: Pick King (5)." Labels
    start with their own verb ("Play ...", "Reveal ..."), so the echo does not add one,
    and a label that already ends a sentence ("Call On Guard!") gets no second stop."""
    return f"You chose: {label}" + ("" if label.endswith((".", "!", "?")) else ".")


def played_notice(result: MoveResult) -> list[str]:
    """What the player just did and what it caused, each said once: the table's first line
    about the move ("{p0} plays 7 (gold).") repeats the echo and is left out, while what
    followed stays, even where it names the player ("{p0} wins round 2 ...", a flip's
    capture, "{p0} goes out!")."""
    lines = [chosen_echo(result.move.label)]
    lines.extend(result.private_for(result.seat))
    public = result.public
    if public and public[0].startswith(seat_token(result.seat)):
        public = public[1:]
    lines.extend(public[-3:])
    return lines
