"""King's Court (court) played end to end through the fake Discord: two people and two AI
seats play a whole (quick) match, one by the hand's buttons and multi-selects, the other by
/court commands with typed and autocompleted cards."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest

from bot.games.base import Move
from tests.e2e_support import World, error_records, make_bot, open_match, quiet, said, world
from tests.fakediscord import FakeUser

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

COMMAND = {
    "lead": "play",
    "play": "play",
    "duel": "duel",
    "take": "pick",
    "court": "court",
    "bag": "sandbag",
    "knock": "knock",
    "flop": "flop",
    "done": "pass",
    "bid": "bid",
}
OPTION = {"play": "cards", "duel": "card", "pick": "cards", "court": "cards", "sandbag": "rank", "bid": "bid"}


def representative_values(move: Move) -> list[str]:
    """The select positions of a Pick move's own choice."""
    assert move.pick is not None
    items = [part for part, _label in move.pick.items]
    return [str(items.index(part)) for part in move.pick.parts(move.code) or ()]


async def by_hand(world: World, user: FakeUser, table: Any, move: Move, seen: dict[str, int]) -> str:
    """Play ``move`` by the hand: its multi-select (with several cards at once) or its button."""
    fake = world.fake
    hand = await fake.click(user, table, label="My hand")
    assert hand.ephemeral and ("Your cards (" in hand.text or move.kind == "bid"), hand.text
    if "(your King)" in hand.text:
        seen["king"] += 1
    message = hand.response
    if move.pick is not None:
        pick = next(s for s in message.selects if s.custom_id.startswith("kg:mp:"))
        assert pick.min_values == min(move.pick.least, 25) and pick.max_values <= min(move.pick.most, 25)
        assert all(o.value.isdigit() for o in pick.options), "positions only, never a card"
        values = representative_values(move)
        seen["several"] += len(values) > 1
        result = await fake.select(user, message, pick.custom_id, values)
    else:
        button = next(b for b in message.buttons if b.label == move.label)
        result = await fake.click(user, message, button.custom_id)
    assert result.ephemeral
    return said(result)


async def by_command(world: World, user: FakeUser, move: Move, seen: dict[str, int]) -> str:
    """Play ``move`` by its /court command: a Pick's cards typed as words, else the code."""
    fake = world.fake
    name = COMMAND[move.kind]
    option = OPTION.get(name)
    if option is None:
        return said(await fake.slash(user, world.channel, f"court {name}"))
    if move.pick is not None:
        parts = move.pick.parts(move.code) or ()
        if len(parts) == 1:  # one card: from the autocomplete list, item by item
            choices = await fake.autocomplete(
                user, world.channel, f"court {name}", focused=option, **{option: parts[0]}
            )
            value = next(c["value"] for c in choices if c["value"] == move.code)
            seen["autocomplete"] += 1
        else:
            value = " ".join(parts)  # typed: "7h 7s"
            seen["typed"] += 1
        return said(await fake.slash(user, world.channel, f"court {name}", **{option: value}))
    return said(
        await fake.slash(user, world.channel, f"court {name}", **{option: move.code.split(":", 1)[1]})
    )


async def test_a_whole_match_of_two_people_and_two_ais(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    fake = world.fake
    ann, bob = world.users[:2]
    seen = {
        "king": 0,
        "several": 0,
        "typed": 0,
        "autocomplete": 0,
        "trick": 0,
        "pool": 0,
        "last trick": 0,
        "court": 0,
        "bidding": 0,
    }
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        assert "court" in [c["name"] for c in fake.commands]
        table = await open_match(world, ann, [bob], game="court", options={"target": "120"}, ais=2)
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        deadline = time.monotonic() + 240
        moves = 0
        while time.monotonic() < deadline:
            await quiet(fake, bot)
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            seen["trick"] += "Trick:" in table.text
            seen["pool"] += "Pool:" in table.text
            if " · bidding · " in table.text:  # the last round's summary stays through the bids
                assert any(
                    line.startswith("Round ") and " (total " in line for line in table.text.splitlines()
                ), table.text
                seen["bidding"] += 1
            names = [s.name for s in snap.seats]
            for line in table.text.splitlines():
                if line.startswith("Last trick: "):  # who played what, and who won it, by name
                    seen["last trick"] += 1
                    _played, _sep, won = line.rpartition(" — ")
                    assert "{p" not in line and won.removesuffix(" won it") in names, line
            for user, play in ((ann, "hand"), (bob, "command")):
                seat = snap.seat_of(user.id)
                legal = snap.legal_moves(seat) if seat is not None else []
                if not legal:
                    continue
                move = legal[-1] if legal[-1].kind in ("court", "bag") else legal[0]
                if play == "hand":
                    text = await by_hand(world, user, table, move, seen)
                else:
                    text = await by_command(world, user, move, seen)
                assert "You chose:" in text, text
                # said once: the echo names the courted cards, no second "You court ..." line
                assert "You court " not in text and "Your King is " not in text, text
                seen["court"] += move.kind == "court"
                moves += 1
                break
        await fake.wait_for(lambda: "finished" in table.text, 30, "the end of the match")
        assert "🏆" in table.text and [b.label for b in table.buttons] == ["Rematch", "Replay", "Log"]
        assert len(await bot.repo.results(match_id)) == 4
        assert moves > 20, moves
        assert seen["king"] and seen["several"] and seen["typed"] and seen["autocomplete"], seen
        assert seen["trick"] and seen["pool"] and seen["last trick"], seen
    fake.assert_clean()
    assert error_records(caplog.records) == []
