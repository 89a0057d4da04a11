"""Autocomplete of a move's Pick for the slash commands: the choices to offer for what a
player typed (the items typed so far, the word being typed, or the move's own label)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from discord import app_commands

from bot.games.base import Move, Pick, typed_parts, without_label
from bot.service import Snapshot
from bot.ui.render import clip


def listed_choices(snap: Snapshot, move: Move) -> list[app_commands.Choice[str]]:
    """A pick's choices to offer with nothing typed: its own (default) choice first, then
    every single item (or every smallest set of items), up to Discord's 25."""
    assert move.pick is not None
    pick = move.pick
    found = [move.choose(pick.parts(move.code) or ())]
    found += [move.choose(group) for group in pick.groups]
    parts = [part for part, _label in pick.items]
    for chosen in itertools.combinations(parts, max(pick.least, 1)):
        if len(found) >= 25:
            break
        found.append(move.choose(chosen))
    out: dict[str, app_commands.Choice[str]] = {}
    for m in found:
        out.setdefault(
            m.code, app_commands.Choice(name=clip(snap.name_text(m.label), 100), value=m.code[:100])
        )
    return list(out.values())[:25]


def completions(pick: Pick, have: list[str]) -> Iterator[list[str]]:
    """Whole choices holding ``have``: itself once it is enough, the game's groups that
    hold it (a pair of the card typed), then ``have`` filled up with the first other items
    (so a follow of two never offers one card alone)."""
    if len(have) >= pick.least:
        yield have
    for group in pick.groups:
        if set(have) <= set(group) and len(group) <= pick.most:
            yield list(group)
    if len(have) < pick.least:
        rest = [part for part, _label in pick.items if part not in have]
        for extra in itertools.islice(itertools.combinations(rest, pick.least - len(have)), 25):
            yield [*have, *extra]


def pick_choices(snap: Snapshot, move: Move, current: str) -> list[app_commands.Choice[str]] | None:
    """Autocomplete for a move's Pick, one item at a time: the items typed so far plus each
    item that matches the word being typed. A leading label (``Follow:``, ``Take from the
    pool``, as the list shows it) is left out first; nothing typed, or only (part of) the
    label, lists the choices. None when what was typed names no item and not this move."""
    assert move.pick is not None
    named = Move(move.code, tuple(snap.name_text(step) for step in move.path), move.pick)
    body = without_label(named, current.lstrip())
    if not body.strip():
        return listed_choices(snap, move)
    chosen = typed_parts(named, body, partial=True)
    out: list[app_commands.Choice[str]] = []
    if chosen is not None:
        words = [w for w in re.split(r"[\s,.+;]+", body) if w]
        typing = words[-1].casefold() if words and not re.match(r"[\s,.+;]", body[-1:]) else ""
        if move.pick.least <= len(chosen) <= move.pick.most and not typing:
            done = move.choose(chosen)
            out.append(app_commands.Choice(name=clip(snap.name_text(done.label), 100), value=done.code[:100]))
        if len(chosen) < move.pick.most:
            for part, label in move.pick.items:
                if part in chosen or (
                    typing and typing not in part.casefold() and typing not in label.casefold()
                ):
                    continue
                for parts in completions(move.pick, [*chosen, part]):
                    more = move.choose(parts)
                    out.append(
                        app_commands.Choice(name=clip(snap.name_text(more.label), 100), value=more.code[:100])
                    )
    if out:
        return list({c.value: c for c in out}.values())[:25]
    typed = current.strip().casefold()
    label = named.label.casefold()
    if typed and (label.startswith(typed) or typed in label):
        return listed_choices(snap, move)  # part of the move's name: "Take from ", "Lead"
    return None
