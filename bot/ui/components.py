"""Persistent components (discord.ui.DynamicItem) and the views built from them.

Custom ids carry only public data: the match id, the version and positions in the
clicker's own list of legal moves, never a card. They survive restarts because every
class here is registered once with ``bot.add_dynamic_items`` and rebuilt from the id.

    kg:lobby:<match>:<action>        lobby buttons (join, leave, ai, unai, start, cancel)
    kg:opt:<match>:<key>             lobby option select
    kg:hand:<match>:<version>        the table's "My hand" button
    kg:m:<match>:<version>:<path>    a step in the hand's move tree (button)
    kg:ms:<match>:<version>:<path>   the same as a select; the chosen value is the next step
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.base import Move, Option
from bot.service import Snapshot
from bot.ui.render import clip

BUTTONS_PER_ROW = 5
MAX_BUTTON_CHOICES = 20
SELECT_SIZE = 25
MAX_SELECTS = 4

LOBBY_ACTIONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
    "unai": ("Remove AI", discord.ButtonStyle.secondary),
    "opts": ("Options", discord.ButtonStyle.secondary),
}
INLINE_OPTIONS = 3  # more options than this go to an ephemeral panel behind an Options button


# --- the move tree ------------------------------------------------------------------------


def _unique(items: Sequence[str]) -> list[str]:
    seen: dict[str, None] = {}
    for x in items:
        seen.setdefault(x, None)
    return list(seen)


@dataclass(frozen=True, slots=True)
class Node:
    """A position in the tree of a seat's legal moves (grouped by ``Move.path``)."""

    labels: tuple[str, ...]  # the steps chosen so far
    children: tuple[str, ...]  # labels of the next step
    leaf: Move | None  # the move completed by exactly these steps
    choose_leaf_index: int | None = None  # index of a "just this" child when leaf and children coexist


def walk(moves: Sequence[Move], path: Sequence[int]) -> Node | None:
    """Follow child indices from the root; None if the path does not exist."""
    cand = list(moves)
    labels: list[str] = []
    for depth, idx in enumerate(path):
        node = _node(cand, labels, depth)
        if node.choose_leaf_index is not None and idx == node.choose_leaf_index:
            if depth == len(path) - 1:
                return Node(tuple(labels), (), node.leaf)
            return None
        if not 0 <= idx < len(node.children):
            return None
        label = node.children[idx]
        labels.append(label)
        cand = [m for m in cand if len(m.path) > depth and m.path[depth] == label]
    return _node(cand, labels, len(path))


def _node(cand: list[Move], labels: list[str], depth: int) -> Node:
    leaf = next((m for m in cand if len(m.path) == depth), None)
    children = tuple(_unique([m.path[depth] for m in cand if len(m.path) > depth]))
    extra = len(children) if leaf is not None and children else None
    return Node(tuple(labels), children, leaf, extra)


def parse_path(text: str) -> list[int] | None:
    if text == "":
        return []
    try:
        return [int(x) for x in text.split(".")]
    except ValueError:
        return None


def join_path(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


async def _wrong_kind(interaction: discord.Interaction[Any], expected: discord.ComponentType) -> bool:
    """A custom id forged onto another kind of component: answer as for any stray id."""
    data: Any = interaction.data or {}
    if data.get("component_type") == expected.value:
        return False
    from bot.ui import flow

    await flow.guarded(interaction, flow.say(interaction, flow.STRAY_COMPONENT))
    return True


# --- dynamic items --------------------------------------------------------------------------


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kg:lobby:(?P<mid>\d{1,12}):(?P<action>[a-z]{1,8})"):
    def __init__(self, match_id: int, action: str) -> None:
        label, style = LOBBY_ACTIONS.get(action, ("?", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"kg:lobby:{match_id}:{action}"))
        self.match_id = match_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["mid"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.ui import flow

        if await _wrong_kind(interaction, discord.ComponentType.button):
            return
        await flow.guarded(interaction, flow.lobby_action(interaction, self.match_id, self.action))


class OptionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"kg:opt:(?P<mid>\d{1,12}):(?P<key>[a-z_]{1,20})"):
    def __init__(self, match_id: int, key: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"kg:opt:{match_id}:{key}", options=[discord.SelectOption(label="-")]))
        self.match_id = match_id
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /) -> OptionSelect:
        return cls(int(match["mid"]), match["key"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.ui import flow

        if await _wrong_kind(interaction, discord.ComponentType.select):
            return
        value = ",".join(self.item.values)
        await flow.guarded(interaction, flow.set_option(interaction, self.match_id, self.key, value))


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kg:hand:(?P<mid>\d{1,12}):(?P<ver>\d{1,9})"):
    def __init__(self, match_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(label="My hand", style=discord.ButtonStyle.primary, emoji="🂠", custom_id=f"kg:hand:{match_id}:{version}")
        )
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /) -> HandButton:
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.ui import flow

        if await _wrong_kind(interaction, discord.ComponentType.button):
            return
        await flow.guarded(interaction, flow.show_hand(interaction, self.match_id))


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:m:(?P<mid>\d{1,12}):(?P<ver>\d{1,9}):(?P<path>(?:\d{1,3}(?:\.\d{1,3}){0,7})?)",
):
    def __init__(self, match_id: int, version: int, path: Sequence[int], label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        super().__init__(
            discord.ui.Button(label=clip(label, 80), style=style, custom_id=f"kg:m:{match_id}:{version}:{join_path(path)}")
        )
        self.match_id = match_id
        self.version = version
        self.path = list(path)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /) -> MoveButton:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.ui import flow

        if await _wrong_kind(interaction, discord.ComponentType.button):
            return
        await flow.guarded(interaction, flow.move_step(interaction, self.match_id, self.version, self.path))


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"kg:ms:(?P<mid>\d{1,12}):(?P<ver>\d{1,9}):(?P<path>(?:\d{1,3}(?:\.\d{1,3}){0,7})?)(?::(?P<part>\d))?",
):
    def __init__(self, match_id: int, version: int, path: Sequence[int], select: discord.ui.Select[Any] | None = None, part: int = 0) -> None:
        suffix = f":{part}" if part else ""
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"kg:ms:{match_id}:{version}:{join_path(path)}{suffix}", options=[discord.SelectOption(label="-")]
            )
        )
        self.match_id = match_id
        self.version = version
        self.path = list(path)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /) -> MoveSelect:
        return cls(int(match["mid"]), int(match["ver"]), parse_path(match["path"]) or [], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.ui import flow

        if await _wrong_kind(interaction, discord.ComponentType.select):
            return
        values = list(self.item.values)
        try:
            child = int(values[0])
        except (IndexError, ValueError):
            child = -1
        await flow.guarded(interaction, flow.move_step(interaction, self.match_id, self.version, self.path + [child]))


DYNAMIC_ITEMS = (LobbyButton, OptionSelect, HandButton, MoveButton, MoveSelect)


# --- view builders --------------------------------------------------------------------------


def option_select(snap: Snapshot, option: Option, row: int) -> OptionSelect:
    current = snap.record.options.get(option.key, option.default_value)
    chosen = set(current.split(",")) if option.multi else {current}
    choices = option.choices[:SELECT_SIZE]
    select = discord.ui.Select(
        custom_id=f"kg:opt:{snap.id}:{option.key}",
        placeholder=option.label,
        min_values=0 if option.multi else 1,
        max_values=len(choices) if option.multi else 1,
        options=[
            discord.SelectOption(label=clip(label, 100), value=value, default=value in chosen)
            for value, label in choices
        ],
        row=row,
    )
    return OptionSelect(snap.id, option.key, select)


def lobby_view(snap: Snapshot) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if snap.status != "lobby":
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
    if any(s.ai for s in snap.seats):
        button = LobbyButton(snap.id, "unai")
        button.item.row = last_row
        view.add_item(button)
    return view


def options_view(snap: Snapshot) -> discord.ui.View:
    """The host's ephemeral panel: one select per option (at most five)."""
    view = discord.ui.View(timeout=None)
    for row, option in enumerate(snap.game.options[:5]):
        view.add_item(option_select(snap, option, row))
    return view


def table_view(snap: Snapshot) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if snap.status == "running" or snap.status == "finished":
        view.add_item(HandButton(snap.id, snap.version))
    return view


def hand_view(snap: Snapshot, moves: Sequence[Move], path: Sequence[int]) -> tuple[discord.ui.View, Node | None]:
    """Buttons (or selects, for many choices) for the node at ``path`` of the move tree."""
    view = discord.ui.View(timeout=None)
    node = walk(moves, path) if moves else None
    if node is not None and (node.children or node.leaf is not None):
        labels = [snap.name_text(c) for c in node.children]
        if node.choose_leaf_index is not None:
            labels.append("Just this")
        if len(labels) <= MAX_BUTTON_CHOICES:
            for i, label in enumerate(labels):
                item = MoveButton(snap.id, snap.version, list(path) + [i], label)
                item.item.row = i // BUTTONS_PER_ROW
                view.add_item(item)
        else:
            for part in range(min(MAX_SELECTS, (len(labels) + SELECT_SIZE - 1) // SELECT_SIZE)):
                chunk = list(enumerate(labels))[part * SELECT_SIZE : (part + 1) * SELECT_SIZE]
                suffix = f":{part}" if part else ""
                select = discord.ui.Select(
                    custom_id=f"kg:ms:{snap.id}:{snap.version}:{join_path(path)}{suffix}",
                    placeholder=f"Choose ({chunk[0][0] + 1}-{chunk[-1][0] + 1} of {len(labels)})",
                    options=[discord.SelectOption(label=clip(lab, 100), value=str(i)) for i, lab in chunk],
                    row=part,
                )
                view.add_item(MoveSelect(snap.id, snap.version, path, select, part))
    nav_row = 4
    if path:
        back = MoveButton(snap.id, snap.version, list(path)[:-1], "Back", discord.ButtonStyle.secondary)
        back.item.row = nav_row
        view.add_item(back)
    refresh = HandButton(snap.id, snap.version)
    refresh.item.label = "Refresh"
    refresh.item.emoji = None
    refresh.item.style = discord.ButtonStyle.secondary
    refresh.item.row = nav_row
    view.add_item(refresh)
    return view, node
