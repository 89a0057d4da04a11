"""What the private hand shows: its message (embed and components) built from a snapshot.

The components here are looks only: their custom ids (public data: the match id, the
version and positions in the clicker's own list of legal moves, never a card) and their
labels. What pressing one does is :mod:`bot.ui.hand`, whose items are these looks with a
callback, registered once with ``bot.add_dynamic_items`` and rebuilt from the id.

    kg:hand:<match>:<version>        the table's "My hand" button
    kg:hint:<match>:<version>[:<path>]  a practice match's Hint (at a step of a move)
    kg:m:<match>:<version>:<path>    a step in the hand's move tree (button)
    kg:ms:<match>:<version>:<path>   the same as a select; the chosen value is the next step
    kg:mp:<match>:<version>:<path>   a move's Pick (several at once); the values are positions
                                     in its items, never the items
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.games.base import Move, View
from bot.service import Snapshot
from bot.service.snapshot import NOTES_PER_SEAT
from bot.ui import render
from bot.ui.handmessage import HandMessage
from bot.ui.movetree import Node, join_path, parse_path, walk
from bot.ui.newdeal import hand_cards, new_cards, new_deal
from bot.ui.render import clip
from bot.ui.replies import component_view
from bot.ui.tracker import FIRST_LOOK_NOTES, Shown, signature

BUTTONS_PER_ROW = 5
MAX_BUTTON_CHOICES = 20
SELECT_SIZE = 25
MAX_SELECTS = 4
LEARN_NOTICE = (  # /learn's first hand says it, and keeps it until the player's first move
    "A practice match against the AI, to learn the game: nothing here is rated. The first time "
    "something new happens, your hand explains it (💡), and **Hint** shows the move the hard AI "
    "would make from what you can see. /cancel ends the match."
)
HINT_MARK = "👉 Hint:"  # a practice hint's line in the hand starts so (💡 marks the guide's explanations)


class HandButtonLook(
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
    ) -> Self:
        return cls(int(match["mid"]), int(match["ver"]))


class HintButtonLook(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:hint:(?P<mid>\d{1,12}):(?P<ver>\d{1,9})(?::(?P<path>\d{1,3}(?:\.\d{1,3}){0,7}))?",
):
    """A practice match's Hint: the hard AI's move from the player's own view. ``path``: the
    step of a move the hand was at, where the hint leaves it."""

    def __init__(self, match_id: int, version: int, path: Sequence[int] = ()) -> None:
        at = f":{'.'.join(map(str, path))}" if path else ""
        super().__init__(
            discord.ui.Button(
                label="Hint",
                style=discord.ButtonStyle.secondary,
                emoji="💡",
                custom_id=f"kg:hint:{match_id}:{version}{at}",
                row=4,
            )
        )
        self.match_id = match_id
        self.version = version
        self.path = list(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> Self:
        path = [int(p) for p in match["path"].split(".")] if match["path"] else []
        return cls(int(match["mid"]), int(match["ver"]), path)


class MoveButtonLook(
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
    ) -> Self:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [])


class MoveSelectLook(
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
    ) -> Self:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [], item)


class PickSelectLook(
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
    ) -> Self:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [], item)


# --- views ------------------------------------------------------------------------------------


def pick_select(snap: Snapshot, move: Move, path: Sequence[int], label: str, row: int) -> PickSelectLook:
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
    return PickSelectLook(snap.id, snap.version, path, select)


def pick_leaf(moves: Sequence[Move], path: Sequence[int]) -> Move | None:
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
    own = pick_leaf(moves, path) if node is not None else None
    if own is not None:
        view.add_item(pick_select(snap, own, path, snap.name_text(own.path[-1]), 0))
    elif node is not None and (node.children or node.leaf is not None):
        labels = [snap.name_text(c) for c in node.children]
        if node.choose_leaf_index is not None:
            labels.append("Just this")
        picks = {i: m for i in range(len(node.children)) if (m := pick_leaf(moves, [*path, i])) is not None}
        buttons = [i for i in range(len(labels)) if i not in picks]
        button_rows = (len(buttons) + BUTTONS_PER_ROW - 1) // BUTTONS_PER_ROW
        inline = bool(picks) and len(picks) + button_rows + (1 if path else 0) <= 5
        if inline:
            for row, (i, move) in enumerate(picks.items()):
                view.add_item(pick_select(snap, move, [*path, i], labels[i], row))
            for n, i in enumerate(buttons):
                item = MoveButtonLook(snap.id, snap.version, list(path) + [i], labels[i])
                item.item.row = len(picks) + n // BUTTONS_PER_ROW
                view.add_item(item)
        elif len(labels) <= MAX_BUTTON_CHOICES:
            for i, label in enumerate(labels):
                item = MoveButtonLook(snap.id, snap.version, list(path) + [i], label)
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
                view.add_item(MoveSelectLook(snap.id, snap.version, path, select, part))
    if path:
        back = MoveButtonLook(snap.id, snap.version, list(path)[:-1], "Back", discord.ButtonStyle.secondary)
        back.item.row = 4
        view.add_item(back)
    return view, node


def add_hint(view: discord.ui.View, snap: Snapshot, path: Sequence[int] = ()) -> None:
    """The Hint button on the hand's last row, where the moves left room for it."""
    last_row = [child for child in view.children if child.row == 4]
    if len(last_row) < BUTTONS_PER_ROW and all(child.width == 1 for child in last_row):
        view.add_item(HintButtonLook(snap.id, snap.version, path))


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
    if snap.seats[seat].left:
        return departed_message(snap, seat)
    moves = offered_moves(snap, seat)
    view, node = hand_view(snap, moves, path)
    if snap.practice and moves and seat in snap.to_act():
        add_hint(view, snap, path if node is not None else ())
    step = node.labels if node is not None else ()
    seat_view = snap.view(seat)
    cards = hand_cards(seat_view)
    count = snap.notes_count(seat)
    marked = new_cards(before, cards)
    told = snap.notes_for(seat)[-min(count, FIRST_LOOK_NOTES) :] if count else []
    dealt = new_deal(snap, seat, before)
    if before is not None:
        unseen = min(max(0, count - before.notes), NOTES_PER_SEAT)
        told = snap.notes_for(seat)[-unseen:] if unseen else []
    told = [t for t in told if t not in notice]
    lines = list(notice) + told
    kept = lines  # what later updates go on saying, while the player waits
    if dealt and seat_view.last_deal:
        # How the hand before ended for them. What else was said (the answer to the move
        # that ended it) was of that hand: said this once, it is not kept.
        said = [line for line in notice if line != seat_view.last_deal]
        lines = [*said, seat_view.last_deal, *told]
        kept = [line for line in said if line == LEARN_NOTICE] + [seat_view.last_deal, *told]
    hints = [line for line in lines if is_hint(line)]  # shown beside the moves, not above the cards
    embed = render.hand_embed(
        snap,
        seat,
        seat_view,
        notice=[line for line in lines if not is_hint(line)],
        new_cards=marked,
        step=step,
        has_moves=bool(moves),
        hint=hints[-1] if hints else "",
    )
    interaction = before.interaction if before is not None else None
    awaited = not snap.status.over and seat in snap.awaited()
    shown = Shown(
        interaction,
        None,
        0.0,
        signature(snap, seat),
        cards,
        count,
        tuple(kept[-NOTES_PER_SEAT:]),
        awaited,
        snap.version,
        seat_view.last_deal,
    )
    return HandMessage(embed, view, shown, seat_view, moves, marked)


def offered_moves(snap: Snapshot, seat: int) -> list[Move]:
    """The moves the hand shows as buttons: the seat's legal moves less those that only let
    an optional chance pass (the game's ``dismiss_kinds``: it never waits for them) at the
    end of the list, so that every button's positions are those it has in the whole list,
    which :func:`bot.ui.hand.move_step` walks. ``/move`` still takes them."""
    moves = snap.legal_moves(seat)
    dismiss = snap.game.info.dismiss_kinds
    while moves and moves[-1].kind in dismiss:
        moves.pop()
    return moves


def departed_embed(snap: Snapshot, seat: int) -> discord.Embed:
    """The hand of a player who left the match: the seat is the AI's, so nothing of it shows."""
    over = snap.status.over
    what = (
        "the AI finished it for you. The table has the final scores." if over else "the AI plays your seat."
    )
    embed = discord.Embed(
        title=f"Your hand: {snap.game.name} #{snap.id}",
        description=f"You left match #{snap.id}; {what}",
        colour=render.COLOUR_OVER if over else render.COLOUR_HAND,
    )
    return embed.set_footer(text=f"move {snap.version} · only you can see this")


def departed_message(snap: Snapshot, seat: int) -> HandMessage:
    """The hand of a player who left (or whose seat the AI took over): one sentence, nothing
    of the seat, which is the AI's now (its cards, secrets and moves are no longer theirs)."""
    embed = departed_embed(snap, seat)
    shown = Shown(None, None, 0.0, signature(snap, seat))
    return HandMessage(embed, component_view(), shown, View(seat, ""), [], [])


def rerender(snap: Snapshot, seat: int, before: Shown | None, notice: Sequence[str]) -> HandMessage:
    """The hand message a self-updating hand is edited to (the tracker's renderer). What it
    said above the hand belongs to the moment after the player's move: it stays while they
    wait, and goes when a new decision is asked of them, a new deal starts (the hand then
    says how the last one ended for them, until their first move in the new one) or the
    match ends (the result leads then); ``/learn``'s notice stays until the player's first
    move (the AI may move first). A hint belongs to the situation it was asked in: it goes
    with any change."""
    asked = not snap.status.over and seat in snap.awaited() and not (before is not None and before.awaited)
    if snap.status.over:
        notice = ()
    elif new_deal(snap, seat, before):  # what it said was of the deal before
        notice = [line for line in notice if line == LEARN_NOTICE]
    elif asked:  # the line on how the last hand ended stays until their first move of this one
        last_deal = snap.view(seat).last_deal
        notice = [line for line in notice if line == LEARN_NOTICE or (last_deal and line == last_deal)]
    return hand_message(snap, seat, before, notice=[line for line in notice if not is_hint(line)])


def is_hint(line: str) -> bool:
    """A practice hint's line in the hand ("👉 Hint: **Play 7♥** — ...")."""
    return line.startswith(HINT_MARK)
