"""End to end: /leave in a running match asks first. One mistyped command must not cost a
player their match: the AI takes the seat and it counts as a loss only once they press
**Leave match**; **Stay** changes nothing; the buttons act for the player who asked only,
and only while the match runs and they hold the seat. Leaving a lobby costs nothing and
asks nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.app import KingBot
from tests.e2e_support import (
    World,
    acknowledged,
    answer_text,
    fire_forged,
    make_bot,
    open_match,
    quiet,
    world,
)
from tests.fakediscord import FakeMessage, FakeUser, InteractionResult

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

DANGER = 4  # a red button


async def running_match(world: World, bot: KingBot) -> tuple[FakeMessage, int]:
    """King and Crown (defend), ann and bob, both people: nothing moves until they do."""
    table = await open_match(
        world, world.users[0], [world.users[1]], game="crown", options={"variant": "defend"}
    )
    return table, (await bot.repo.latest_in_channel(world.channel.id)).id


async def ask(world: World, user: FakeUser, match_id: int) -> InteractionResult:
    asked = await world.fake.slash(user, world.channel, "leave")
    assert asked.ephemeral and asked.response is not None and asked.response.visible_for(user.id)
    assert asked.text == (
        f"Leave match #{match_id}? The AI takes your seat and the match counts as a loss for you."
    ), asked.text
    assert [(b.label, b.style == DANGER) for b in asked.buttons] == [("Leave match", True), ("Stay", False)]
    return asked


async def seat_left(bot: KingBot, match_id: int, user: FakeUser) -> bool:
    snap = await bot.service.get(match_id)
    seat = snap.seat_of(user.id)
    assert seat is not None
    return snap.seats[seat].left


async def test_leave_asks_first_and_leave_match_hands_the_seat_to_the_ai(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world)) as bot:
        table, match_id = await running_match(world, bot)
        asked = await ask(world, ann, match_id)
        await quiet(fake, bot)
        assert not await seat_left(bot, match_id, ann), "asking changed nothing"
        assert "left, AI plays" not in table.text
        confirmed = await asked.click("Leave match")
        assert confirmed.callback_type == 7, "the question becomes its answer"
        assert confirmed.response is asked.response and confirmed.ephemeral
        assert confirmed.text == (
            f"You left match #{match_id}; the AI plays your seat and the match counts as a loss for you."
        ), confirmed.text
        assert confirmed.buttons == []
        assert await seat_left(bot, match_id, ann)
        await fake.wait_for(lambda: "left, AI plays" in table.text, what="the table to show ann left")
    fake.assert_clean()


async def test_stay_keeps_the_seat(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world)) as bot:
        _table, match_id = await running_match(world, bot)
        version = (await bot.service.get(match_id)).version
        asked = await ask(world, ann, match_id)
        stayed = await asked.click("Stay")
        assert stayed.callback_type == 7 and stayed.response is asked.response
        assert stayed.text == f"Nothing changed: you keep your seat in match #{match_id}.", stayed.text
        assert stayed.buttons == []
        await quiet(fake, bot)
        snap = await bot.service.get(match_id)
        assert snap.status == "running" and snap.version == version
        assert not await seat_left(bot, match_id, ann)
    fake.assert_clean()


async def test_another_member_pressing_the_confirmation_is_refused(world: World) -> None:
    """The question is ephemeral, but a custom id can be pasted anywhere: bob, seated at the
    same match, presses ann's Leave match (and her Stay) and is refused; nobody leaves."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        _table, match_id = await running_match(world, bot)
        asked = await ask(world, ann, match_id)
        for label in ("Leave match", "Stay"):
            custom_id = asked.response.find_button(label).custom_id
            assert custom_id is not None
            pressed = fire_forged(fake, bob, world.channel, custom_id, ephemeral=True)
            await acknowledged(fake, [pressed])
            assert pressed.callback_type == 4, "answered with a message of its own"
            assert answer_text(pressed) == "Only the player who asked to leave can answer that."
        await quiet(fake, bot)
        assert not await seat_left(bot, match_id, ann) and not await seat_left(bot, match_id, bob)
        assert asked.response.edits == 0 and [b.label for b in asked.buttons] == ["Leave match", "Stay"]
    fake.assert_clean()


async def test_confirming_after_the_match_ended_is_refused_in_one_sentence(world: World) -> None:
    """ann asks to leave, then plays on and wins (the Witch thwarts bob's King twice); her
    Leave match pressed then is refused, and her win stays a win."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table, match_id = await running_match(world, bot)
        asked = await ask(world, ann, match_id)
        for _ in range(2):
            await fake.slash(ann, world.channel, "crown pick", card="W")
            await fake.slash(bob, world.channel, "crown pick", card="K")
        await fake.wait_for(lambda: "finished" in table.text, what="the end")
        results = await bot.repo.results(match_id)
        late = await asked.click("Leave match")
        assert late.callback_type == 4 and late.ephemeral and late.response is not asked.response
        assert late.text == f"Match #{match_id} is over, so there is no seat to leave.", late.text
        await quiet(fake, bot)
        assert await bot.repo.results(match_id) == results
        assert not await seat_left(bot, match_id, ann)
        assert "🏆 ann wins" in table.text, table.text
    fake.assert_clean()


async def test_stay_on_a_second_question_after_leaving_says_so(world: World) -> None:
    """ann asks twice, leaves from the first question, then presses Stay on the second: it
    says she already left, not that nothing changed."""
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world)) as bot:
        _table, match_id = await running_match(world, bot)
        first, second = await ask(world, ann, match_id), await ask(world, ann, match_id)
        await first.click("Leave match")
        stayed = await second.click("Stay")
        assert stayed.callback_type == 7 and stayed.buttons == []
        assert stayed.text == f"You already left match #{match_id}; the AI plays your seat.", stayed.text
        assert await seat_left(bot, match_id, ann)
    fake.assert_clean()


async def test_a_lobby_closed_and_cancelled_says_lobby(world: World) -> None:
    """/cancel of a lobby closes a lobby (no match was played); a lobby its last player left
    reads "lobby #N (closed)" and lists nobody."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        cancelled = await fake.slash(ann, world.channel, "cancel")
        assert cancelled.text == f"Lobby #{match_id} was closed.", cancelled.text
        await quiet(fake, bot)
        title = lobby.response.text.splitlines()[0]
        assert title == f"King and Crown: lobby #{match_id} (closed)", lobby.response.text
        lobby = await fake.slash(bob, world.channel, "play", game="dynasty")
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        await fake.slash(bob, world.channel, "leave")
        await quiet(fake, bot)
        title = lobby.response.text.splitlines()[0]
        assert title == f"King's Dynasty: lobby #{match_id} (closed)", lobby.response.text
        assert "nobody yet" not in lobby.response.text and "Players (0" not in lobby.response.text
    fake.assert_clean()


async def test_leaving_a_lobby_is_immediate(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        assert lobby.response is not None
        await fake.click(bob, lobby.response, label="Join")
        left = await fake.slash(bob, world.channel, "leave")
        assert left.ephemeral and left.text == "You left the lobby." and left.buttons == []
        await quiet(fake, bot)
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap is not None and snap.status == "lobby" and snap.seat_of(bob.id) is None
    fake.assert_clean()


async def test_leave_refuses_at_once_who_has_no_seat_to_leave(world: World) -> None:
    """cat has no seat: /leave asks her nothing. ann, once she has left, is told so."""
    fake = world.fake
    ann, _bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        _table, match_id = await running_match(world, bot)
        stranger = await fake.slash(cat, world.channel, "leave")
        assert stranger.ephemeral and stranger.buttons == []
        assert stranger.text == "You are not seated in this match.", stranger.text
        await (await ask(world, ann, match_id)).click("Leave match")
        again = await fake.slash(ann, world.channel, "leave")
        assert again.ephemeral and again.buttons == []
        assert again.text == f"You no longer hold a seat in match #{match_id}; the AI plays it already."
    fake.assert_clean()


async def test_a_practice_match_asks_without_a_loss(world: World) -> None:
    """A practice match stores no result: the question and its answer promise no loss."""
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world)) as bot:
        await fake.slash(ann, world.channel, "learn", game="crown")
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        asked = await fake.slash(ann, world.channel, "leave")
        assert (
            asked.text
            == f"Leave match #{match_id}? The AI takes your seat for the rest of this practice match."
        )
        left = await asked.click("Leave match")
        assert left.text == f"You left match #{match_id}; the AI plays your seat.", left.text
        assert await seat_left(bot, match_id, ann)
    fake.assert_clean()
