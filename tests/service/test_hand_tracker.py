"""The hand tracker's edits of one player's message: one at a time, so that a picture being
added cannot land after (and undo) an update of the hand."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot.games import GAMES
from bot.service import Snapshot
from bot.ui.handview import rerender
from bot.ui.tracker import HandTracker, Shown, signature
from tests.service.test_table_layout import _snapshot


class SlowPictureInteraction:
    """Its picture edits (no ``view``) wait for ``gate``; every edit is recorded when done."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.edits: list[dict[str, Any]] = []

    async def edit_original_response(self, **kwargs: Any) -> None:
        if "view" not in kwargs:
            await self.gate.wait()
        self.edits.append(kwargs)


class Picture:
    embed = "the hand with its picture"

    async def render_picture(self, snap: Snapshot) -> list[str]:
        return ["hand.png"]


async def test_a_picture_in_flight_does_not_land_after_the_hand_says_the_player_left() -> None:
    game = GAMES["crown"]
    options = {o.key: o.default_value for o in game.options} | {"variant": "defend"}
    snap = _snapshot(game, game.setup(3, 5, options), {}, 3, options)
    seats = list(snap.record.seats)
    seats[0] = replace(seats[0], left=True)
    left = Snapshot(replace(snap.record, seats=tuple(seats), version=snap.version + 1), game, snap.state)
    interaction = SlowPictureInteraction()
    tracker = HandTracker(None, rerender)  # type: ignore[arg-type]  # the departed hand has no picture
    shown = Shown(interaction, None, tracker.clock(), signature(snap, 0))  # type: ignore[arg-type]
    tracker.remember(snap, 0, shown)
    picture = asyncio.create_task(tracker.add_picture(snap, 0, Picture(), shown))
    await asyncio.sleep(0.01)  # the picture's edit is on its way
    refresh = asyncio.create_task(tracker.refresh(left))
    await asyncio.sleep(0.01)
    interaction.gate.set()
    await asyncio.gather(picture, refresh)
    last = interaction.edits[-1]["embed"]
    assert last != Picture.embed and "You left match" in (last.description or ""), interaction.edits
    assert tracker.last(snap.id, 0) is None, "not updated any more"


def test_a_hint_pressed_at_a_step_of_a_move_says_where_the_hand_was() -> None:
    """The Hint button carries the step of a move the hand was at (positions in the player's
    own moves, like a move button), so the hint leaves the hand at that step; an id from
    before, without a step, still reads."""
    from bot.ui.handview import HintButtonLook

    at_step = HintButtonLook(7, 12, [1, 0])
    assert at_step.item.custom_id == "kg:hint:7:12:1.0"
    assert HintButtonLook(7, 12).item.custom_id == "kg:hint:7:12"
    template = HintButtonLook.__discord_ui_compiled_template__
    found = template.fullmatch("kg:hint:7:12:1.0")
    assert found is not None and found["path"] == "1.0"
    older = template.fullmatch("kg:hint:7:12")
    assert older is not None and older["path"] is None
