"""The private hand: the table's "My hand" button, the move buttons and selects, and playing.

Custom ids carry only public data: the match id, the version and positions in the
clicker's own list of legal moves, never a card. They survive restarts because every
item here is registered once with ``bot.add_dynamic_items`` and rebuilt from the id.

    kg:hand:<match>:<version>        the table's "My hand" button
    kg:m:<match>:<version>:<path>    a step in the hand's move tree (button)
    kg:ms:<match>:<version>:<path>   the same as a select; the chosen value is the next step
    kg:mp:<match>:<version>:<path>   a move's Pick (several at once); the values are positions
                                     in its items, never the items
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.games.base import GameError, Move, seat_token
from bot.service import MoveResult, ServiceError, Snapshot, errors
from bot.service.snapshot import NOTES_PER_SEAT
from bot.ui import render
from bot.ui.handmessage import HandMessage
from bot.ui.movetree import Node, join_path, parse_path, walk
from bot.ui.render import clip
from bot.ui.replies import Interaction, component_view, guarded, is_component, refuse, service_of, wrong_kind
from bot.ui.tracker import FIRST_LOOK_NOTES, HandTracker, Shown, signature

log = logging.getLogger(__name__)

BUTTONS_PER_ROW = 5
MAX_BUTTON_CHOICES = 20
SELECT_SIZE = 25
MAX_SELECTS = 4


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kg:hand:(?P<mid>\d{1,12}):(?P<ver>\d{1,9})"
):
    def __init__(self, match_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand",
                style=discord.ButtonStyle.primary,
                emoji="🂠",
                custom_id=f"kg:hand:{match_id}:{version}",
            )
        )
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> HandButton:
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, show_hand(interaction, self.match_id))


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:m:(?P<mid>\d{1,12}):(?P<ver>\d{1,9}):(?P<path>(?:\d{1,3}(?:\.\d{1,3}){0,7})?)",
):
    def __init__(
        self,
        match_id: int,
        version: int,
        path: Sequence[int],
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, 80), style=style, custom_id=f"kg:m:{match_id}:{version}:{join_path(path)}"
            )
        )
        self.match_id = match_id
        self.version = version
        self.path = list(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> MoveButton:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, move_step(interaction, self.match_id, self.version, self.path))


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"kg:ms:(?P<mid>\d{1,12}):(?P<ver>\d{1,9}):(?P<path>(?:\d{1,3}(?:\.\d{1,3}){0,7})?)(?::(?P<part>\d))?",
):
    def __init__(
        self,
        match_id: int,
        version: int,
        path: Sequence[int],
        select: discord.ui.Select[Any] | None = None,
        part: int = 0,
    ) -> None:
        suffix = f":{part}" if part else ""
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"kg:ms:{match_id}:{version}:{join_path(path)}{suffix}",
                options=[discord.SelectOption(label="-")],
            )
        )
        self.match_id = match_id
        self.version = version
        self.path = list(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> MoveSelect:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        values = list(self.item.values)
        try:
            child = int(values[0])
        except (IndexError, ValueError):
            child = -1
        await guarded(interaction, move_step(interaction, self.match_id, self.version, self.path + [child]))


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"kg:mp:(?P<mid>\d{1,12}):(?P<ver>\d{1,9}):(?P<path>(?:\d{1,3}(?:\.\d{1,3}){0,7})?)",
):
    """The multi-select of a move's :class:`~bot.games.base.Pick`: the move at ``path``,
    completed with the items at the chosen positions."""

    def __init__(
        self, match_id: int, version: int, path: Sequence[int], select: discord.ui.Select[Any] | None = None
    ) -> None:
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"kg:mp:{match_id}:{version}:{join_path(path)}",
                options=[discord.SelectOption(label="-")],
            )
        )
        self.match_id = match_id
        self.version = version
        self.path = list(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> PickSelect:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        positions = [int(v) if v.isdigit() else -1 for v in self.item.values]
        await guarded(interaction, move_pick(interaction, self.match_id, self.version, self.path, positions))


HAND_ITEMS = (HandButton, MoveButton, MoveSelect, PickSelect)


# --- views ------------------------------------------------------------------------------------


def pick_select(snap: Snapshot, move: Move, path: Sequence[int], label: str, row: int) -> PickSelect:
    """One multi-select for ``move``'s Pick: choose ``least`` to ``most`` of its items (Discord
    shows at most 25; the slash command reaches the rest)."""
    assert move.pick is not None
    items = move.pick.items[:SELECT_SIZE]
    most = max(1, min(move.pick.most, len(items)))
    least = min(move.pick.least, most)
    count = str(least) if least == most else f"{least}-{most}"
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"kg:mp:{snap.id}:{snap.version}:{join_path(path)}",
        placeholder=clip(f"{label}: choose {count}", 150),
        min_values=least,
        max_values=most,
        options=[
            discord.SelectOption(label=clip(snap.name_text(text), 100), value=str(i))
            for i, (_part, text) in enumerate(items)
        ],
        row=row,
    )
    return PickSelect(snap.id, snap.version, path, select)


def _pick_leaf(moves: Sequence[Move], path: Sequence[int]) -> Move | None:
    """The move with a Pick that ends exactly at ``path`` (nothing else below it)."""
    node = walk(moves, path)
    if node is None or node.children or node.leaf is None or node.leaf.pick is None:
        return None
    return node.leaf


def hand_view(
    snap: Snapshot, moves: Sequence[Move], path: Sequence[int]
) -> tuple[discord.ui.View, Node | None]:
    """Buttons (or selects, for many choices) for the node at ``path`` of the move tree; a
    move whose last step is a Pick shows as a multi-select when the rows allow, else as a
    button that opens it."""
    view = component_view()
    node = walk(moves, path) if moves else None
    own = _pick_leaf(moves, path) if node is not None else None
    if own is not None:
        view.add_item(pick_select(snap, own, path, snap.name_text(own.path[-1]), 0))
    elif node is not None and (node.children or node.leaf is not None):
        labels = [snap.name_text(c) for c in node.children]
        if node.choose_leaf_index is not None:
            labels.append("Just this")
        picks = {i: m for i in range(len(node.children)) if (m := _pick_leaf(moves, [*path, i])) is not None}
        buttons = [i for i in range(len(labels)) if i not in picks]
        button_rows = (len(buttons) + BUTTONS_PER_ROW - 1) // BUTTONS_PER_ROW
        inline = bool(picks) and len(picks) + button_rows + (1 if path else 0) <= 5
        if inline:
            for row, (i, move) in enumerate(picks.items()):
                view.add_item(pick_select(snap, move, [*path, i], labels[i], row))
            for n, i in enumerate(buttons):
                item = MoveButton(snap.id, snap.version, list(path) + [i], labels[i])
                item.item.row = len(picks) + n // BUTTONS_PER_ROW
                view.add_item(item)
        elif len(labels) <= MAX_BUTTON_CHOICES:
            for i, label in enumerate(labels):
                item = MoveButton(snap.id, snap.version, list(path) + [i], label)
                item.item.row = i // BUTTONS_PER_ROW
                view.add_item(item)
        else:
            for part in range(min(MAX_SELECTS, (len(labels) + SELECT_SIZE - 1) // SELECT_SIZE)):
                chunk = list(enumerate(labels))[part * SELECT_SIZE : (part + 1) * SELECT_SIZE]
                suffix = f":{part}" if part else ""
                select: discord.ui.Select[Any] = discord.ui.Select(
                    custom_id=f"kg:ms:{snap.id}:{snap.version}:{join_path(path)}{suffix}",
                    placeholder=f"Choose ({chunk[0][0] + 1}-{chunk[-1][0] + 1} of {len(labels)})",
                    options=[discord.SelectOption(label=clip(lab, 100), value=str(i)) for i, lab in chunk],
                    row=part,
                )
                view.add_item(MoveSelect(snap.id, snap.version, path, select, part))
    if path:
        back = MoveButton(snap.id, snap.version, list(path)[:-1], "Back", discord.ButtonStyle.secondary)
        back.item.row = 4
        view.add_item(back)
    return view, node


# --- the hand message ---------------------------------------------------------------------------


def hand_message(
    snap: Snapshot,
    seat: int,
    before: Shown | None,
    *,
    notice: Sequence[str] = (),
    path: Sequence[int] = (),
) -> HandMessage:
    """The hand message for ``seat`` and what it shows (to remember)."""
    moves = [] if snap.seats[seat].left else snap.legal_moves(seat)
    view, node = hand_view(snap, moves, path)
    step = node.labels if node is not None else ()
    seat_view = snap.view(seat)
    cards = tuple(card for group in seat_view.hand for card in group.cards)
    count = snap.notes_count(seat)
    new_cards: list[str] = []
    told = snap.notes_for(seat)[-min(count, FIRST_LOOK_NOTES) :] if count else []
    if before is not None:
        remaining = list(before.cards)
        for card in cards:
            if card in remaining:
                remaining.remove(card)
            else:
                new_cards.append(card)
        unseen = min(max(0, count - before.notes), NOTES_PER_SEAT)
        told = snap.notes_for(seat)[-unseen:] if unseen else []
    lines = list(notice) + [t for t in told if t not in notice]
    embed = render.hand_embed(
        snap, seat, seat_view, notice=lines, new_cards=new_cards, step=step, has_moves=bool(moves)
    )
    interaction = before.interaction if before is not None else None
    shown = Shown(interaction, None, 0.0, signature(snap, seat), cards, count, tuple(lines[-NOTES_PER_SEAT:]))
    return HandMessage(embed, view, shown, seat_view, moves, new_cards)


def rerender(snap: Snapshot, seat: int, before: Shown | None, notice: Sequence[str]) -> HandMessage:
    """The hand message a self-updating hand is edited to (the tracker's renderer); what it
    said above the hand stays (at the end the result leads, above it)."""
    return hand_message(snap, seat, before, notice=notice)


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
    if interaction.response.is_done():
        message = await interaction.followup.send(embed=embed, view=view, ephemeral=True, wait=True)
        message_id = message.id
    elif edit:
        await interaction.response.edit_message(embed=embed, view=view, attachments=[])
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
    if snap.status.over:
        tracker.drop(snap.id, seat)  # this one shows the end already; the others are edited by refresh
        return
    remembered = replace(shown, interaction=interaction, message_id=message_id, at=tracker.clock())
    tracker.remember(snap, seat, remembered)
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
    if snap.version != version:
        notice = [] if snap.status.over else ["That button was out of date; here is your hand now."]
        await send_hand(interaction, snap, seat, notice=notice)
        return
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
    if snap.version != version:
        notice = [] if snap.status.over else ["That choice was out of date; here is your hand now."]
        await send_hand(interaction, snap, seat, notice=notice)
        return
    move = _pick_leaf(snap.legal_moves(seat), path)
    items = move.pick.items[:SELECT_SIZE] if move is not None and move.pick is not None else ()
    if move is None or not positions or not all(0 <= i < len(items) for i in positions):
        await send_hand(interaction, snap, seat, notice=["That choice is not available any more."])
        return
    await play_move(interaction, snap.id, move.choose([items[i][0] for i in positions]), version)


async def play_move(interaction: Interaction, match_id: int, move: Move | str, version: int | None) -> None:
    svc = service_of(interaction)
    snap = await svc.get(match_id)
    seat = snap.seat_of(interaction.user.id)
    if seat is not None:
        tracker_of(interaction).hold(match_id, seat)  # this answer shows the move, not a refresh
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
        await refuse(interaction, err)
        return
    await send_hand(interaction, result.snapshot, result.seat, notice=played_notice(result))


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
