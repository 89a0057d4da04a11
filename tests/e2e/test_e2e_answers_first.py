"""Answers first: the work a move causes besides its answer (the table edit, the turn ping,
the other players' open hands, the hand's picture) waits while some player is still
unanswered, goes ahead after ``ANSWERS_FIRST_SECONDS`` if answers never stop, and nothing
of it is lost."""

from __future__ import annotations

import asyncio
import gc
import itertools
import time
from types import SimpleNamespace
from typing import Any

import pytest
from yarl import URL

from bot.app import KingBot
from bot.settings import Settings
from bot.ui.answers import ANSWER_WINDOW, AnswersFirst
from tests.e2e_support import World, acknowledged, answer_text, fire_command, open_match, quiet, said, world
from tests.fakediscord import FakeMessage, FakeUser

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

WAITING = 10**18  # the id of an interaction the bot is still answering, as far as the gate knows


def make_bot(world: World, answers_first: float) -> KingBot:
    return KingBot(
        Settings(
            token=world.fake.token,
            database_url=world.db_url,
            ai_delay=0,
            sync_commands=True,
            table_edit_seconds=0,
            answers_first_seconds=answers_first,
        )
    )


def names(message: FakeMessage) -> list[str]:
    return [a["filename"] for a in message.attachments]


async def first_move(world: World, user: FakeUser) -> str:
    choices = await world.fake.autocomplete(user, world.channel, "move", focused="move")
    return str(choices[0]["value"])


async def test_a_moves_table_ping_and_picture_wait_while_a_player_is_unanswered(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    bot = make_bot(world, answers_first=60)  # longer than the test: only an answer lets the work go
    async with fake.bot_running(bot):
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "tourney"})
        await quiet(fake, bot)
        ping = next(m for m in fake.messages(world.channel) if "your turn" in m.text)
        table_edits, ping_edits = table.edits, ping.edits
        move = await first_move(world, ann)
        bot.answers.arrived(WAITING)  # someone's click is being answered
        played = await fake.slash(ann, world.channel, "move", move=move)
        assert "You chose" in said(played), "ann's own answer does not wait"
        await fake.settle(quiet=0.3)
        assert table.edits == table_edits, "the table waits for the other answer"
        assert ping.edits == ping_edits and not ping.deleted, "so does the turn ping"
        assert names(played.response) == [], "and the hand's picture"
        bot.answers.answered(WAITING)
        version = (await bot.service.get((await bot.repo.latest_in_channel(world.channel.id)).id)).version
        await fake.wait_for(lambda: f"move {version}" in table.text, what="the table after the answer")
        await fake.wait_for(lambda: names(played.response) == ["hand.png"], what="ann's picture")
        await fake.wait_for(lambda: ping.edits > ping_edits, what="the ping naming bob alone")
        assert f"<@{bob.id}>" in ping.text and f"<@{ann.id}>" not in ping.text, ping.text
        await quiet(fake, bot)
    fake.assert_clean()


async def test_answers_that_never_stop_hold_the_table_back_only_for_a_moment(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    bot = make_bot(world, answers_first=0.2)
    async with fake.bot_running(bot):
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "tourney"})
        await quiet(fake, bot)
        move = await first_move(world, ann)
        clicks: list[int] = []

        async def clicks_without_end() -> None:  # a new unanswered click every 20 ms
            for click in itertools.count(WAITING):
                clicks.append(click)
                bot.answers.arrived(click)
                await asyncio.sleep(0.02)

        stream = asyncio.create_task(clicks_without_end())
        try:
            played = await fake.slash(ann, world.channel, "move", move=move)
            version = (await bot.service.get((await bot.repo.latest_in_channel(world.channel.id)).id)).version
            await fake.wait_for(lambda: f"move {version}" in table.text, what="the table despite the clicks")
            await fake.wait_for(
                lambda: names(played.response) == ["hand.png"], what="ann's picture despite the clicks"
            )
            assert bot.answers.unanswered() > 0, "the clicks were still unanswered all along"
        finally:
            stream.cancel()
        for click in clicks:
            bot.answers.answered(click)
        await quiet(fake, bot)
    fake.assert_clean()


async def test_a_burst_of_moves_is_answered_and_loses_nothing(world: World) -> None:
    fake = world.fake
    guild = world.guild
    users = [fake.add_user(f"p{i}") for i in range(8)]
    bot = make_bot(world, answers_first=0.3)
    async with fake.bot_running(bot):
        tables = []
        for n in range(4):
            channel = fake.add_channel(guild, f"t{n}")
            here = World(fake, guild, channel, users, world.db_url, world.tmp_path)
            table = await open_match(
                here,
                users[2 * n],
                [users[2 * n + 1]],
                game="crown",
                options={"variant": "tourney"},
                channel=channel,
            )
            tables.append((channel, table))
        await quiet(fake, bot)
        moves = []
        for n, (channel, _table) in enumerate(tables):
            for user in users[2 * n : 2 * n + 2]:
                choices = await fake.autocomplete(user, channel, "move", focused="move")
                moves.append((user, channel, str(choices[0]["value"])))
        await quiet(fake, bot)
        burst = [
            fire_command(fake, user, channel, "move", [{"name": "move", "type": 3, "value": move}])
            for user, channel, move in moves
        ]
        await acknowledged(fake, burst)
        assert all("You chose" in answer_text(rec) for rec in burst), [answer_text(rec) for rec in burst]
        await quiet(fake, bot)
        assert bot.answers.unanswered() == 0, "every interaction the bot received was seen answered"
        for channel, table in tables:
            match = await bot.repo.latest_in_channel(channel.id)
            version = (await bot.service.get(match.id)).version
            assert f"move {version}" in table.text, "each table shows its newest state"
            pings = [m for m in fake.messages(channel) if "your turn" in m.text]
            assert len(pings) == 1, "each match keeps one turn ping, for the next round"
        for rec in burst:
            assert rec.original_message_id is not None
            assert names(fake.message(rec.original_message_id)) == ["hand.png"], (
                "every answer got its picture"
            )
    fake.assert_clean()


# --- the gate alone ---------------------------------------------------------------------------


def callback_ended(gate: AnswersFirst, url: str) -> Any:
    return gate.request_ended(None, None, SimpleNamespace(url=URL(url)))


async def test_the_gate_counts_an_interaction_until_its_callback_ends() -> None:
    gate = AnswersFirst(5)
    gate.arrived(11)
    gate.arrived(12)
    await callback_ended(gate, "https://discord.com/api/v10/interactions/11/tok-en/callback")
    await callback_ended(
        gate, "https://discord.com/api/v10/webhooks/1/tok/messages/@original"
    )  # a follow-up, not an answer
    assert gate.unanswered() == 1
    waiting = asyncio.create_task(gate.quiet())
    await asyncio.sleep(0.05)
    assert not waiting.done(), "work waits while interaction 12 is unanswered"
    await callback_ended(gate, "https://discord.com/api/v10/interactions/12/tok/callback")
    await asyncio.wait_for(waiting, 1)
    assert gate.unanswered() == 0


async def test_waiting_work_goes_ahead_after_max_wait_while_answers_keep_coming() -> None:
    gate = AnswersFirst(0.05)
    gate.arrived(1)
    started = time.monotonic()
    given_up = asyncio.create_task(gate.quiet())
    await asyncio.sleep(0)
    given_up.cancel()  # a waiter that is cancelled leaves the others waiting as before
    await asyncio.wait_for(gate.quiet(), 1)
    assert 0.04 < time.monotonic() - started < 0.5 and gate.unanswered() == 1
    assert not gate._waiting, "nothing is left waiting"
    later = asyncio.create_task(gate.quiet())
    await asyncio.sleep(0)
    assert not later.done()
    gate.answered(1)
    for _ in range(3):  # a few turns of the loop, no wall clock: its own timer is 50 ms away
        await asyncio.sleep(0)
    assert later.done(), "released by the answer, not by its own timer"


async def test_the_gate_forgets_interactions_past_discords_window_and_can_be_off() -> None:
    now = [100.0]
    gate = AnswersFirst(5, clock=lambda: now[0])
    gate.arrived(1)
    assert gate.unanswered() == 1
    now[0] += ANSWER_WINDOW + 0.1  # never answered (its handler failed): not waited for any more
    assert gate.unanswered() == 0
    await asyncio.wait_for(gate.quiet(), 1)
    off = AnswersFirst(0)
    off.arrived(2)
    assert off.unanswered() == 0
    await asyncio.wait_for(off.quiet(), 1)


async def test_the_collector_waits_while_players_are_unanswered_and_runs_after_the_last_answer() -> None:
    gate = AnswersFirst(5, hold_collector=True)
    assert gc.isenabled()
    try:
        gate.arrived(1)
        gate.arrived(2)
        assert not gc.isenabled(), "no automatic collection while an answer is owed"
        gate.answered(1)
        assert not gc.isenabled()
        gate.answered(2)
        assert gc.isenabled(), "back on as the last answer goes out"
        assert gate._collector_held is None
    finally:
        gc.enable()


async def test_the_collector_is_held_at_most_max_wait_and_never_turned_on_by_the_gate_when_it_was_off() -> (
    None
):
    gate = AnswersFirst(0.05, hold_collector=True)
    try:
        gate.arrived(1)  # its answer never comes (a failed handler): the collector does not wait for it
        assert not gc.isenabled()
        await asyncio.sleep(0.1)
        assert gc.isenabled(), "held no longer than max_wait"
        gate.arrived(2)
        assert gc.isenabled(), "not held again until everyone was answered once"
        gate.answered(1)
        gate.answered(2)
        gc.disable()  # someone else turned it off (a benchmark, a profiler)
        gate.arrived(3)
        gate.answered(3)
        assert not gc.isenabled(), "the gate turns on only what it turned off"
    finally:
        gc.enable()
    plain = AnswersFirst(5)  # a bot that does not own its process (tests, several bots)
    plain.arrived(4)
    assert gc.isenabled()
    plain.answered(4)


async def test_the_next_round_of_the_same_players_updates_the_pings_deadline(world: World) -> None:
    """Both players of a simultaneous round move before the table catches up: the next round
    awaits the same two people, so the ping is not posted again, but its deadline is the new one."""
    fake = world.fake
    ann, bob = world.users[:2]
    bot = make_bot(world, answers_first=60)
    bot.service.settings.default_turn_seconds = 600
    async with fake.bot_running(bot):
        await open_match(world, ann, [bob], game="crown", options={"variant": "tourney"})
        await quiet(fake, bot)
        pings = [m for m in fake.messages(world.channel) if "your turn" in m.text]
        assert len(pings) == 1 and f"<@{ann.id}>" in pings[0].text and f"<@{bob.id}>" in pings[0].text
        ping, first_text = pings[0], pings[0].text
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap is not None
        first_deadline = snap.record.deadline_at
        await asyncio.sleep(1.1)  # the next deadline falls in a later second (the ping shows seconds)
        bot.answers.arrived(WAITING)  # the table waits while both play the round
        for user in (ann, bob):
            played = await fake.slash(user, world.channel, "move", move=await first_move(world, user))
            assert "You chose" in said(played), said(played)
        snap = await bot.service.get(snap.id)
        assert sorted(snap.awaited()) == [0, 1] and snap.record.deadline_at != first_deadline
        bot.answers.answered(WAITING)
        await quiet(fake, bot)
        assert [m for m in fake.messages(world.channel) if "your turn" in m.text] == [ping], "no second ping"
        assert ping.text != first_text, "the ping shows the new round's deadline"
    fake.assert_clean()
