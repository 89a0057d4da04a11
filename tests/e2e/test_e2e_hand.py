"""End to end: the player's private hand message (the table's **My hand**) keeps itself
current, and says what belongs to the moment it shows.

- A refused command (not your turn) leaves the open hand updating itself.
- The echo of a move ("You chose: ...") belongs to the moment after that move: it goes when
  a new decision is asked of the player, and at the end, where the result leads.
- The hand of the player the table waits for speaks to them ("Your turn to ..."); the table
  names them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.app import KingBot
from bot.games.base import Rng
from bot.ui.tracker import REPLACED
from tests.e2e_support import World, answer_text, make_bot, open_match, quiet, said, world
from tests.fakediscord import FakeUser

pytestmark = pytest.mark.asyncio
__all__ = ["world"]


async def ai_move_for(world: World, bot: KingBot, match_id: int, user: FakeUser) -> None:
    """``user`` plays the game's own AI move, with /move."""
    snap = await bot.service.get(match_id)
    seat = snap.seat_of(user.id)
    assert seat is not None and snap.state is not None
    move = snap.game.ai_move(snap.state, seat, Rng.from_seed(snap.version))
    played = await world.fake.slash(user, world.channel, "move", move=move.code)
    assert played.ephemeral and "You chose" in said(played), said(played)
    await quiet(world.fake, bot)


async def test_a_refused_command_leaves_the_open_hand_updating_itself(world: World) -> None:
    """Not their turn, a player opens their hand, runs /dynasty draw (refused), and play goes
    on: the hand still updates itself when their turn comes."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="dynasty")
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        for _ in range(20):  # a dealer's naming of a suit and the like: until one of them waits
            snap = await bot.service.get(match_id)
            idle = [u for u in (ann, bob) if snap.seat_of(u.id) not in snap.to_act()]
            if idle:
                break
            await ai_move_for(world, bot, match_id, ann)
        [waiter] = idle
        mover = bob if waiter is ann else ann
        hand = await fake.click(waiter, table, label="My hand")
        assert hand.ephemeral and hand.response is not None
        assert "Nothing for you to do right now" in hand.response.text, hand.response.text
        refused = await fake.slash(waiter, world.channel, "dynasty draw")
        assert refused.ephemeral and "You chose" not in said(refused), said(refused)  # refused
        await quiet(fake, bot)
        edits = hand.response.edits
        for _ in range(20):
            snap = await bot.service.get(match_id)
            if snap.seat_of(waiter.id) in snap.awaited() or snap.status != "running":
                break
            await ai_move_for(world, bot, match_id, mover)
        snap = await bot.service.get(match_id)
        assert snap.seat_of(waiter.id) in snap.awaited(), "the waiter's turn came"
        await fake.wait_for(
            lambda: hand.response is not None and hand.response.edits > edits and hand.response.buttons,
            what="the open hand to update itself after the refusal",
        )
        assert "**Your move:**" in hand.response.text, hand.response.text
    fake.assert_clean()


async def test_a_moves_echo_goes_when_a_new_decision_is_asked_and_at_the_end(world: World) -> None:
    """King and Crown (defend, two players, best of 3): ann's round-2 hand asks for her move
    without "You chose: Pick Witch (2)." from round 1 above it; the final hand leads with the
    result and repeats no earlier move."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "defend"})
        hand = await fake.click(ann, table, label="My hand")
        assert hand.response is not None
        played = await hand.click("Pick Witch (2)", user=ann)
        assert "You chose: Pick Witch (2)." in said(played), said(played)
        assert "Nothing for you to do right now" in said(played)
        edits = hand.response.edits
        await fake.slash(bob, world.channel, "crown pick", card="K")  # the Witch thwarts the King
        await fake.wait_for(
            lambda: hand.response is not None and hand.response.edits > edits and hand.response.buttons,
            what="ann's hand to ask for round 2",
        )
        assert "**Your move:**" in hand.response.text, hand.response.text
        assert "You chose" not in hand.response.text, "round 1's echo is gone: " + hand.response.text
        played = await hand.click("Pick Witch (2)", user=ann)
        assert "You chose: Pick Witch (2)." in said(played), "the answer to the move says it"
        await fake.slash(bob, world.channel, "crown pick", card="K")
        await fake.wait_for(lambda: "🏆 ann wins" in hand.response.text, what="the end in ann's hand")
        assert "You chose" not in hand.response.text, "no echo at the end: " + hand.response.text
        assert not hand.response.buttons
        await quiet(fake, bot)
        assert "finished" in table.text
    fake.assert_clean()


async def test_the_awaited_players_hand_says_your_turn_where_the_table_names_them(world: World) -> None:
    """King's Dynasty, two players: the hand of the one the table waits for says "Your turn to
    ...", never "Waiting for <their name> to ..."; the table says that; the other's hand
    has nothing to do."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="dynasty")
        await quiet(fake, bot)
        snap = await bot.service.get((await bot.repo.latest_in_channel(world.channel.id)).id)
        [seat] = snap.awaited()
        mover, other = (ann, bob) if snap.seat_of(ann.id) == seat else (bob, ann)
        assert f"Waiting for {mover.name} to " in table.text, table.text
        hand = await fake.click(mover, table, label="My hand")
        said = answer_text(hand.record)
        assert "*Your turn to " in said and "**Your move:**" in said, said
        assert f"Waiting for {mover.name}" not in said, said
        theirs = answer_text((await fake.click(other, table, label="My hand")).record)
        # nothing to do, or (by the deal) a card they may play out of turn: never "your turn"
        assert "Nothing for you to do right now" in theirs or "**Out of turn (optional):**" in theirs, theirs
        assert "Your turn" not in theirs and "**Your move:**" not in theirs, theirs
    fake.assert_clean()


async def test_a_newer_hand_message_retires_the_older_one(world: World) -> None:
    """A second "My hand", a typed /move and a game command each answer with a hand message
    of their own: the one it replaces says so once, with no buttons left to press, and is
    not updated again; a button pressed on the hand itself edits it and retires nothing."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "defend"})
        first = await fake.click(ann, table, label="My hand")
        assert first.response is not None and first.response.buttons
        second = await fake.click(ann, table, label="My hand")
        assert second.response is not None and second.response is not first.response
        await fake.wait_for(lambda: REPLACED in first.response.text, what="the first hand to be retired")
        assert first.response.text.strip().endswith(REPLACED) and "Your cards" not in first.response.text
        assert not first.response.buttons and not first.response.selects
        step = await second.click("Pick Witch (2)", user=ann)  # on the hand itself: no retiring
        assert step.response is second.response and "You chose" in said(step)
        await quiet(fake, bot)
        assert REPLACED not in second.response.text and "Your cards" in second.response.text
        edits = first.response.edits
        bobs = await fake.click(bob, table, label="My hand")
        assert bobs.response is not None and bobs.response.buttons
        typed = await fake.slash(bob, world.channel, "move", move="pick:K")  # typed /move
        assert typed.response is not None and "You chose" in said(typed), said(typed)
        await fake.wait_for(lambda: REPLACED in bobs.response.text, what="bob's hand to be retired")
        assert not bobs.response.buttons
        played = await fake.slash(ann, world.channel, "crown pick", card="W")  # a game command, round 2
        assert played.response is not None and "You chose" in said(played), said(played)
        await fake.wait_for(lambda: REPLACED in second.response.text, what="the second hand to be retired")
        assert not second.response.buttons
        await fake.slash(bob, world.channel, "crown pick", card="K")
        await quiet(fake, bot)
        assert "finished" in table.text
        assert first.response.edits == edits, "a retired hand is not updated again"
    fake.assert_clean()


async def test_a_waiting_hand_says_whom_the_table_waits_for(world: World) -> None:
    """King and Crown (defend): once ann has picked, her hand has nothing to do and repeats
    the table's status line, as the table shows it, with the countdown."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "defend"})
        hand = await fake.click(ann, table, label="My hand")
        played = await hand.click("Pick Witch (2)", user=ann)
        await quiet(fake, bot)
        status = table.text.splitlines()[1]  # "**Waiting for bob to pick a card in secret.** · ⏳ <t:…:R>"
        assert status.startswith("**Waiting for bob to ") and "⏳ <t:" in status, table.text
        lines = said(played).splitlines()
        assert status.replace("**", "*") in lines, said(played)
        assert "Nothing for you to do right now; this message updates itself when that changes." in lines
    fake.assert_clean()


async def test_the_hand_says_your_turn_once_the_others_secret_picks_are_in(world: World) -> None:
    """King and Crown (defend): ann's open hand says "Waiting for you and bob to pick"; once
    bob picks in secret it says "Your turn to pick" by itself (the table shows bob's ✓). A
    click on the hand drawn before bob's pick still plays: tests/service/test_stale_clicks.py."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)):
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "defend"})
        hand = await fake.click(ann, table, label="My hand")
        assert hand.response is not None
        before = said(hand)
        assert "*Waiting for you and bob to pick a card in secret.*" in before, before
        bobs = await fake.click(bob, table, label="My hand")
        await bobs.click("Pick King (5)", user=bob)
        await fake.wait_for(
            lambda: "*Your turn to pick a card in secret.*" in hand.response.text,
            what="ann's hand to say her turn",
        )
        assert "Waiting for you" not in hand.response.text and hand.response.buttons
    fake.assert_clean()
