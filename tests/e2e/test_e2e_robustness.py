"""End to end through the fake Discord: turn timers, leaving and removing players, races,
refusals of bad input, and the move-log export.

Nothing lost, nothing stuck, nothing leaked: every test here drives the unmodified bot through
the real discord.py client and checks what players receive and what the database keeps.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.games import GAMES
from bot.games.base import Move
from bot.ui.render import clip
from tests.e2e_support import (
    World,
    acknowledged,
    answer_text,
    bot_lacks,
    custom_ids,
    error_records,
    fire_command,
    fire_component,
    fire_forged,
    leave_for_good,
    make_bot,
    open_match,
    players_for,
    quiet,
    replies,
    said,
    world,
)
from tests.fakediscord import BareId, FakeMessage, FakeUser, Perm
from tests.fakediscord.models import text_of

pytestmark = pytest.mark.asyncio
__all__ = ["world"]
MATCH_LOGGERS = {f"bot.service.{m}" for m in ("store", "lobby", "playing", "deadlines", "ai_seats")} | {
    "bot.ui.table"
}


GAME_IDS = sorted(GAMES)  # every suite below that plays runs for every registered game


def quick(game_id: str) -> dict[str, str]:
    """The game's options for a short match (its SuiteHints)."""
    return dict(GAMES[game_id].hints.quick)


async def quick_table(
    world: World, game_id: str, host: FakeUser, others: list[FakeUser], **kwargs: Any
) -> FakeMessage:
    """A running match of ``game_id``: these people, and AI seats up to the smallest table."""
    options = quick(game_id)
    ais = max(0, players_for(game_id, options) - 1 - len(others))
    return await open_match(world, host, others, game=game_id, options=options, ais=ais, **kwargs)


async def awaited_person(
    bot: Any, fake: Any, match_id: int, users: list[FakeUser], timeout: float = 20
) -> tuple[FakeUser, int]:
    """A person (of ``users``) with a move now and their seat, once the AI seats are done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await quiet(fake, bot)
        snap = await bot.service.get(match_id)
        for user in users:
            seat = snap.seat_of(user.id)
            if seat is not None and not snap.seats[seat].left and snap.legal_moves(seat):
                return user, seat
        await asyncio.sleep(0.01)
    raise AssertionError(f"match {match_id}: nobody of {[u.name for u in users]} got a move")


def already_over(table: FakeMessage) -> bool:
    """The match ended at Start (an AI King at Court may accuse at once): nothing to test."""
    return "Rematch" in [b.label for b in table.buttons]


def one_step(snap: Any, seat: int) -> list[Move]:
    """The seat's moves made by one button (no further choice)."""
    return [m for m in snap.legal_moves(seat) if len(m.path) == 1]


class PublicEvents:
    """A listener keeping the text of every public event of every match, names filled in."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def match_changed(self, snap: Any, events: Any) -> None:
        self.texts.extend(snap.name_text(e.text) for e in events if e.seat is None)

    async def remind(self, snap: Any, seats: Any, seconds_left: float) -> None:
        pass


def history(message: FakeMessage) -> str:
    """Every text a message has shown, oldest first."""
    versions = [*message.versions, message.snapshot()]
    return "\n".join(text_of(v.get("content"), v.get("embeds"), v.get("components")) for v in versions)


# --- turn timers --------------------------------------------------------------------------------


async def test_config_offers_fixed_choices_and_needs_manage_server(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    fake.set_permissions(ann, manage_guild=True)
    async with fake.bot_running(make_bot(world)):
        shown = await fake.slash(bob, world.channel, "config")
        assert shown.ephemeral and "3 minutes (default)" in shown.text
        refused = await fake.slash(bob, world.channel, "config", turn_timer="600")
        assert refused.ephemeral and "Manage Server" in refused.text
        with pytest.raises(ValueError, match="must be one of"):
            await fake.slash(ann, world.channel, "config", turn_timer="5")
        saved = await fake.slash(ann, world.channel, "config", turn_timer="86400")
        assert saved.ephemeral and "24 hours (correspondence)" in saved.text
    async with fake.bot_running(make_bot(world)) as bot:
        assert await bot.service.settings.turn_seconds(world.guild.id) == 86400  # stored, not cached
    fake.assert_clean()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_turn_timer_warns_plays_the_default_then_the_ai_takes_the_seat(
    world: World, game_id: str
) -> None:
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world, turn_seconds=1)) as bot:
        told = PublicEvents()
        bot.service.add_listener(told)
        table = await quick_table(world, game_id, ann, [])
        match_id = (await bot.service.active_in_channel(world.channel.id)).id
        await fake.wait_for(lambda: "finished" in table.text, 90, "the match to end without ann")
        await quiet(fake, bot)
        everything = fake.messages(world.channel, include_deleted=True)
        reminders = [m for m in everything if "⏰" in m.content]
        assert reminders, "a reminder mentions the player before the deadline"
        assert f"<@{ann.id}>" in reminders[0].content and ann.id in reminders[0].mention_ids
        # When, as a live relative time: a written count ("1 seconds left") goes stale.
        assert re.search(r"<t:\d+:R>", reminders[0].content), reminders[0].content
        assert "seconds left" not in reminders[0].content
        assert not any(m.ephemeral for m in reminders)
        pings = [m for m in everything if m.id != table.id]
        assert all(m.deleted for m in pings), (
            "turn messages and reminders replace each other and go at the end"
        )
        # Every public event the table was told of (its log keeps only the latest ones, and
        # edits are paced, so the table itself may skip some), and every version of the table.
        texts = history(table) + "\n".join(told.texts)
        assert "ran out of time; the default move was made for them" in texts
        # ... and the table showed it: every event since its last edit is listed, not the
        # last three (the default move's own events pushed it off).
        assert "ran out of time; the default move was made for them" in history(table)
        moves = await bot.repo.moves(match_id)
        ann_moves = [m for m in moves if m.seat == 0]
        assert ann_moves and all(m.user_id is None for m in ann_moves), "only default moves for ann"
        snap = await bot.service.get(match_id)
        results = {r.seat: r for r in await bot.repo.results(match_id)}
        assert snap.status == "finished" and results[0].user_id == ann.id and results[0].place > 0
        if snap.seats[0].left:  # the match lasted three of ann's deadlines: the AI took her seat
            assert "missed 3 deadlines in a row and has left; the AI plays their seat" in texts
            assert [m.user_id for m in ann_moves[:3]] == [None, None, None], "three default moves"
            headline = table.text.splitlines()[1]
            assert (
                "left (the AI finished for them)" in table.text and "🏆" in headline and "ann" not in headline
            )
            assert results[0].left, "the absent player takes a loss"
        late = await fake.slash(ann, world.channel, "hand")
        assert late.ephemeral
    fake.assert_clean()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_move_resets_the_missed_count(world: World, game_id: str) -> None:
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world, turn_seconds=2)) as bot:
        await quick_table(world, game_id, ann, [])
        match_id = (await bot.service.active_in_channel(world.channel.id)).id

        async def missed() -> int:
            return (await bot.service.get(match_id)).seats[0].missed

        async def her_turn() -> Any:
            for _ in range(1000):
                if one_step(snap := await bot.service.get(match_id), 0):
                    return snap
                await asyncio.sleep(0.01)
            raise AssertionError("ann is never awaited")

        # Her first deadline is two seconds away; every later one a minute, so a busy machine
        # still lets her move in time after she missed it.
        await her_turn()
        await bot.service.settings.set_turn_seconds(world.guild.id, 60, is_admin=True)
        for _ in range(1000):
            if await missed() >= 1:
                break
            await asyncio.sleep(0.01)
        assert await missed() >= 1
        answers = []
        for _attempt in range(2):  # a second try only if the first came as a deadline passed
            snap = await her_turn()
            played = await fake.slash(ann, world.channel, "move", move=one_step(snap, 0)[0].code)
            # The answer's own text: its message may have been refreshed since (the AI moved on).
            assert played.ephemeral and played.response is not None
            answers.append(said(played))
            if "You chose:" in answers[-1]:
                break
        assert "You chose:" in answers[-1], answers
        # Her own move cleared the count; only deadlines she missed after it may count again.
        moves = await bot.repo.moves(match_id)
        own = max(i for i, m in enumerate(moves) if m.seat == 0 and m.user_id == ann.id)
        missed_since = sum(1 for m in moves[own + 1 :] if m.seat == 0 and m.user_id is None)
        assert await missed() <= missed_since
        if (await bot.service.get(match_id)).status == "running":
            await bot.service.cancel(match_id, ann.id, is_admin=True)
    fake.assert_clean()


# --- leaving and removing players ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_host_leaving_a_lobby_hands_it_on_and_leave_in_a_match_hands_the_seat_to_the_ai(
    world: World, game_id: str
) -> None:
    fake = world.fake
    ann, bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        lobby = await fake.slash(ann, world.channel, "play", game=game_id)
        table = lobby.response
        await fake.click(bob, table, label="Join")
        await fake.click(cat, table, label="Join")
        left = await fake.slash(ann, world.channel, "leave")
        assert left.ephemeral and "You left the lobby" in left.text
        await fake.wait_for(
            lambda: "bob is the host now" in table.text or "(host)" in table.text, what="new host"
        )
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap.record.host_id == bob.id and [s.name for s in snap.seats] == ["bob", "cat"]
        not_host = await fake.click(ann, table, label="Start")
        assert not_host.ephemeral and "Only the host" in not_host.text
        for _ in range(max(0, players_for(game_id, {}) - 2)):
            await fake.click(bob, table, label="Add AI")
        started = await fake.click(bob, table, label="Start")
        assert started.callback_type in (6, 7), started.text
        await fake.wait_for(
            lambda: {"My hand", "Rematch"} & {b.label for b in table.buttons}, what="the table"
        )
        if already_over(table):
            return  # an AI ended this match at once: nothing left to leave
        left = await leave_for_good(fake, cat, world.channel)
        assert left.ephemeral and "the AI plays your seat" in left.text
        again = await fake.slash(cat, world.channel, "hand")
        assert again.ephemeral
        move = await fake.slash(cat, world.channel, "move", move="zz:1")
        assert move.ephemeral and "left this match" in move.text
        await quiet(fake, bot)
        snap = await bot.service.get(snap.id)
        assert snap.seats[1].left
        if snap.status == "running":
            assert "left, AI plays" in table.text
            await bot.service.cancel(snap.id, bob.id, is_admin=False)
    fake.assert_clean()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_host_or_manage_server_removes_a_player_who_takes_a_loss(world: World, game_id: str) -> None:
    fake = world.fake
    ann, bob, cat, dan, eve = world.users
    fake.set_permissions(eve, manage_guild=True)
    async with fake.bot_running(make_bot(world)) as bot:
        # In a lobby the seat simply goes.
        lobby = await fake.slash(ann, world.channel, "play", game=game_id)
        table = lobby.response
        for user in (bob, cat, dan):
            await fake.click(user, table, label="Join")
        refused = await fake.slash(bob, world.channel, "match kick", user=cat)
        assert refused.ephemeral and "Only the host can remove a player" in refused.text
        kicked = await fake.slash(ann, world.channel, "match kick", user=dan)
        assert kicked.ephemeral and "removed from the lobby" in kicked.text
        await fake.wait_for(
            lambda: "dan" not in table.text.split("Options")[0], what="dan gone from the lobby"
        )
        self_kick = await fake.slash(ann, world.channel, "match kick", user=ann)
        assert self_kick.ephemeral and "/leave" in self_kick.text
        nobody = await fake.slash(ann, world.channel, "match kick", user=eve)
        assert nobody.ephemeral and "no seat" in nobody.text
        await fake.click(ann, table, label="Leave")  # ann leaves: bob hosts bob and cat
        await fake.wait_for(
            lambda: "bob is the host now" in table.text or "(host)" in table.text, what="new host"
        )
        assert (await bot.service.active_in_channel(world.channel.id)).record.host_id == bob.id
        for _ in range(max(0, players_for(game_id, {}) - 2)):
            await fake.click(bob, table, label="Add AI")
        await fake.click(bob, table, label="Start")
        await fake.wait_for(
            lambda: {"My hand", "Rematch"} & {b.label for b in table.buttons}, what="the table"
        )
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        if already_over(table):
            return  # an AI ended this match at once: nobody is left to remove

        # In a running match: Manage Server (not seated, not host) removes cat; the AI plays on.
        removed = await fake.slash(eve, world.channel, "match kick", user=cat)
        assert removed.ephemeral and "the AI plays their seat" in removed.text, removed.text
        gone = await fake.slash(cat, world.channel, "move", move="zz:1")
        assert gone.ephemeral and "AI plays your seat" in gone.text
        hand = await fake.click(bob, table, label="My hand")
        assert hand.ephemeral
        assert (
            "cat was removed from the match; the AI plays their seat."
            in (await bot.service.get(match_id)).log()
        )
        left = await leave_for_good(fake, bob, world.channel)  # the AI plays the match to its end
        assert left.ephemeral
        await fake.wait_for(lambda: "finished" in table.text, 90, "the AI to finish")
        results = {r.seat: r for r in await bot.repo.results(match_id)}
        assert results[1].user_id == cat.id and results[1].left and not results[1].is_ai
    fake.assert_clean()


async def test_kick_of_a_bare_user_names_them_as_their_seat_does(world: World) -> None:
    """Issue 47: Discord sends a player who left the server (or is not cached) as a bare user,
    an id alone. /match kick removes them and says so, named as their seat is, never "Something
    went wrong" after the seat was already gone."""
    fake = world.fake
    ann, bob, cat, dan, _eve = world.users
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        table = lobby.response
        for user in (bob, cat, dan):
            await fake.click(user, table, label="Join")
        kicked = await fake.slash(ann, world.channel, "match kick", user=BareId(dan.id))
        assert kicked.ephemeral and kicked.text == "dan was removed from the lobby of match #1.", kicked.text
        stranger = await fake.slash(ann, world.channel, "match kick", user=BareId(123456789012345))
        assert stranger.ephemeral and "no seat" in stranger.text
        await fake.click(ann, table, label="Start")
        await fake.wait_for(lambda: "My hand" in [b.label for b in table.buttons], what="the table")
        removed = await fake.slash(ann, world.channel, "match kick", user=BareId(cat.id))
        assert removed.ephemeral and removed.text.startswith("cat was removed from match #1;"), removed.text
        snap = await bot.service.get(1)
        assert [(s.name, s.left) for s in snap.seats] == [("ann", False), ("bob", False), ("cat", True)]
        await quiet(fake, bot)
    fake.assert_clean()


# --- races --------------------------------------------------------------------------------------


async def _one_move_per_version(bot, match_id: int) -> None:
    moves = await bot.repo.moves(match_id)
    versions = [m.version for m in moves]
    assert len(versions) == len(set(versions)), f"two moves for one version: {versions}"


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_double_click_plays_once_and_the_second_click_gets_a_fresh_hand(
    world: World, game_id: str
) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        table = await quick_table(world, game_id, ann, [bob])
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        if already_over(table):
            return  # an AI ended this match at once
        user, seat = await awaited_person(bot, fake, match_id, [ann, bob])
        moves_before = len(await bot.repo.moves(match_id))
        hand = await fake.click(user, table, label="My hand")
        snap = await bot.service.get(match_id)  # the state the hand shows
        legal = snap.legal_moves(seat)
        # A move whose last step is a leaf (no longer move starts with its path).
        move = next(
            m
            for m in legal
            if not any(len(o.path) > len(m.path) and o.path[: len(m.path)] == m.path for o in legal)
        )
        message = hand.response

        async def press(label: str, twice: bool = False) -> list[Any]:
            """Press the step ``label`` (a button, or a select's option) once or twice at once;
            a move with a Pick is chosen in its multi-select (its own choice)."""
            button = next(
                (
                    b
                    for b in message.buttons
                    if b.custom_id.startswith("kg:m:") and b.label == clip(label, 80)
                ),
                None,
            )
            pick = next((sl for sl in message.selects if sl.custom_id.startswith("kg:mp:")), None)
            if move.pick is not None and label == snap.name_text(move.path[-1]) and pick is not None:
                items = [part for part, _label in move.pick.items]
                values = [str(items.index(part)) for part in move.pick.parts(move.code) or ()]
                clicks = [
                    fake.select(user, message, pick.custom_id, values) for _ in range(2 if twice else 1)
                ]
            elif button is not None:
                clicks = [fake.click(user, message, button.custom_id) for _ in range(2 if twice else 1)]
            else:
                select, option = next(
                    (sl, o) for sl in message.selects for o in sl.options if o.label == clip(label, 100)
                )
                clicks = [
                    fake.select(user, message, select.custom_id, [option.value])
                    for _ in range(2 if twice else 1)
                ]
            return list(await asyncio.gather(*clicks))

        for step in move.path[:-1]:  # go down the move's steps to its last one
            (result,) = await press(snap.name_text(step))
            message = result.response
        first, second = await press(snap.name_text(move.path[-1]), twice=True)
        texts = sorted(
            [answer_text(first.record), answer_text(second.record)], key=lambda t: "You chose" not in t
        )
        played_label = (
            move.choose(move.pick.parts(move.code) or ()).label if move.pick is not None else move.label
        )
        assert f"You chose: {snap.name_text(played_label)}" in texts[0]
        assert "out of date" in texts[1] or "moved first" in texts[1], texts[1]
        assert first.ephemeral and second.ephemeral
        moves = await bot.repo.moves(match_id)
        assert [m.code for m in moves[moves_before:] if m.user_id is not None] == [move.code]
        await _one_move_per_version(bot, match_id)
    fake.assert_clean()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_two_players_clicking_at_once_apply_one_move_per_version(world: World, game_id: str) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        table = await quick_table(world, game_id, ann, [bob])
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        for _round in range(12):
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            if "My hand" not in [b.label for b in table.buttons]:
                break
            hands = await asyncio.gather(*(fake.click(u, table, label="My hand") for u in (ann, bob)))
            clicks = []
            for user, hand in zip((ann, bob), hands):
                seat = snap.seat_of(user.id)
                singles = (
                    {snap.name_text(m.label) for m in one_step(snap, seat)} if seat is not None else set()
                )
                moves = [b for b in hand.buttons if b.custom_id.startswith("kg:m:") and b.label in singles]
                if moves:
                    clicks.append(fake.click(user, hand.response, moves[0].custom_id))
            if not clicks:
                await quiet(fake, bot)
                continue
            results = await asyncio.gather(*clicks)
            played = [r for r in results if "You chose" in answer_text(r.record)]
            refused = [r for r in results if "You chose" not in answer_text(r.record)]
            assert len(played) >= 1, [answer_text(r.record) for r in results]
            for r in refused:
                text = answer_text(r.record)
                assert r.ephemeral
                assert "moved first" in text or "out of date" in text, text
                assert "Your hand:" in text, "a fresh hand comes with it"
            await quiet(fake, bot)
        await _one_move_per_version(bot, match_id)
        # Clicks at one version never both apply to it: the second either is refused with a
        # fresh hand or, where the first changed nothing its player's hand shows (two secret
        # picks), applies to the version after, as a click on an unchanged hand does.
    fake.assert_clean()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_an_old_button_is_never_applied_to_the_new_state(world: World, game_id: str) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        table = await quick_table(world, game_id, ann, [bob])
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        if already_over(table):
            return  # an AI ended this match at once
        user, seat = await awaited_person(bot, fake, match_id, [ann, bob])
        old_hand = await fake.click(user, table, label="My hand")
        old_buttons = [b for b in old_hand.buttons if b.custom_id.startswith("kg:m:")]
        old_picks = [sl for sl in old_hand.selects if sl.custom_id.startswith("kg:mp:")]
        played = await fake.slash(
            user, world.channel, "move", move=(await bot.service.get(match_id)).legal_moves(seat)[0].code
        )
        assert played.ephemeral and "You chose" in said(played), said(played)
        await quiet(fake, bot)
        assert not old_hand.response.buttons and not old_hand.response.selects, "retired, or the end"
        before = await bot.service.get(match_id)
        # Its components clicked all the same, as on an old hand the bot could no longer edit
        if old_buttons:
            stale = fire_forged(fake, user, world.channel, old_buttons[-1].custom_id, ephemeral=True)
        else:  # the hand offered a move's Pick only: its multi-select is just as old
            pick = old_picks[0]
            values = [o.value for o in pick.options[: max(1, pick.min_values)]]
            stale = fire_forged(
                fake, user, world.channel, pick.custom_id, component_type=3, values=values, ephemeral=True
            )
        await acknowledged(fake, [stale])
        text = answer_text(stale)
        assert replies(fake, stale)[0].ephemeral and ("out of date" in text or "over" in text), text
        after = await bot.service.get(match_id)
        assert after.version == before.version and after.record.state == before.record.state
        if after.status == "running":
            await bot.service.cancel(match_id, ann.id, is_admin=False)
    fake.assert_clean()


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_bad_input_gets_one_ephemeral_sentence_and_changes_nothing(
    world: World, caplog: Any, game_id: str
) -> None:
    caplog.set_level(logging.INFO)
    fake = world.fake
    game = GAMES[game_id]
    people = world.users[:2]
    cat = world.users[2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        table = await quick_table(world, game_id, people[0], people[1:])
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        if already_over(table):
            return  # an AI ended this match at once
        host = people[0]
        ann, _seat = await awaited_person(bot, fake, match_id, people)  # "ann" has a move now
        bob = next(u for u in people if u is not ann)
        snap = await bot.service.active_in_channel(world.channel.id)
        before = (snap.version, snap.record.state)
        mid, ver = snap.id, snap.version
        ch = world.channel
        gone = "That button is no longer valid."
        stale = "out of date"
        option_key = game.options[0].key if game.options else "zz"
        kind = next((k for c in game.commands for k in c.moves), "zz")
        side = fake.add_channel(world.guild, "side-room")
        away = fake.add_channel(fake.add_guild("Elsewhere"), "tables")
        elsewhere = "another channel"
        cases = [
            # this match's own components, pressed in another channel or another server (issue 47)
            (fire_forged(fake, ann, away, f"kg:m:{mid}:{ver}:0", ephemeral=True), elsewhere),
            (fire_forged(fake, ann, away, f"kg:hand:{mid}:{ver}"), elsewhere),
            (fire_forged(fake, ann, side, f"kg:ms:{mid}:{ver}:", component_type=3, values=["0"]), elsewhere),
            (fire_forged(fake, cat, away, f"kg:lobby:{mid}:join"), elsewhere),
            (fire_forged(fake, bob, side, f"kg:log:{mid}"), elsewhere),
            (fire_forged(fake, bob, away, f"kg:lb:{world.guild.id}:{game_id}:1:1:n"), "another server"),
            # custom ids no handler takes: forged, truncated, retired, or not on the clicked message
            (fire_component(fake, cat, table, "kg:m:"), gone),
            (fire_component(fake, cat, table, f"kg:m:{mid}"), gone),
            (fire_component(fake, cat, table, "totally-forged"), gone),
            (fire_component(fake, ann, table, f"kg:m:{mid}:{ver}:0"), gone),
            (fire_forged(fake, cat, ch, "kg:nothing:1:2"), gone),
            (fire_forged(fake, cat, ch, f"kg:hand:{mid}"), gone),
            (fire_forged(fake, cat, ch, f"kg:m:{mid}:{ver}:0.1.2.3.4.5.6.7.8"), gone),
            (fire_forged(fake, ann, ch, f"kg:hand:{mid}:{ver}", component_type=3), gone),
            (fire_forged(fake, ann, ch, f"kg:ms:{mid}:{ver}:0"), gone),
            # ids of another match, another player's view, stale versions, out-of-range positions
            (fire_forged(fake, ann, ch, f"kg:hand:{mid + 999}:{ver}"), "no longer exists"),
            (fire_forged(fake, cat, ch, f"kg:hand:{mid}:{ver}"), "not seated"),
            (fire_forged(fake, cat, ch, f"kg:m:{mid}:{ver}:0", ephemeral=True), "not seated"),
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:{ver}:999", ephemeral=True), "not available any more"),
            (
                fire_forged(fake, ann, ch, f"kg:m:{mid}:{ver}:0.999.3", ephemeral=True),
                "not available any more",
            ),
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:{ver + 5}:0", ephemeral=True), stale),
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:{max(ver - 1, 0)}:0", ephemeral=True), stale),
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:999999999:0", ephemeral=True), stale),
            (
                fire_forged(
                    fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=["77"], ephemeral=True
                ),
                "not available",
            ),
            (
                fire_forged(
                    fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=["-1"], ephemeral=True
                ),
                "not available",
            ),
            (
                fire_forged(
                    fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=["x"], ephemeral=True
                ),
                "not available",
            ),
            (
                fire_forged(
                    fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=[], ephemeral=True
                ),
                "not available",
            ),
            (fire_forged(fake, ann, ch, f"kg:lobby:{mid}:start"), "lobby is closed"),
            (fire_forged(fake, cat, ch, f"kg:lobby:{mid}:join"), "lobby is closed"),
            (fire_forged(fake, cat, ch, f"kg:lobby:{mid}:zzz"), "not one of ours"),
            (
                fire_forged(fake, bob, ch, f"kg:opt:{mid}:{option_key}", component_type=3, values=["poker"]),
                "lobby is closed",
            ),
            (fire_forged(fake, bob, ch, f"kg:lb:{world.guild.id}:nogame:1:1:n"), ""),
            # options no menu offers: unknown cards, out-of-range numbers, unknown choices
            (
                fire_command(fake, ann, ch, "move", [{"name": "move", "type": 3, "value": "Joker"}]),
                "not one of your moves",
            ),
            (  # a move's code with a card no hand holds: the engine's own reason (ded63ce)
                fire_command(fake, ann, ch, "move", [{"name": "move", "type": 3, "value": f"{kind}:Q"}]),
                snap.name_text(game.why_illegal(snap.state, _seat, f"{kind}:Q")),
            ),
            (
                fire_command(fake, ann, ch, "move", [{"name": "move", "type": 3, "value": ""}]),
                "Choose which one",
            ),
            *[
                (
                    fire_command(
                        fake,
                        ann,
                        ch,
                        f"{game_id} {c.name}",
                        [{"name": c.option, "type": 3, "value": "Joker"}],
                    ),
                    "",
                )
                for c in game.commands
                if c.option
            ],
            *[
                (
                    fire_command(
                        fake, cat, ch, f"{game_id} {c.name}", [{"name": c.option, "type": 3, "value": "K"}]
                    ),
                    "not seated",
                )
                for c in game.commands[:1]
                if c.option
            ],
            (
                fire_command(fake, ann, ch, "play", [{"name": "game", "type": 3, "value": "poker"}]),
                "not one this option accepts",
            ),
            (
                fire_command(fake, ann, ch, "rules", [{"name": "game", "type": 3, "value": "poker"}]),
                "not one this option accepts",
            ),
            (
                fire_command(fake, ann, ch, "config", [{"name": "turn_timer", "type": 3, "value": "-5"}]),
                "not one this option accepts",
            ),
            (
                fire_command(fake, host, ch, "match log", [{"name": "match_id", "type": 4, "value": 10**15}]),
                "no longer exists",
            ),
            (
                fire_command(fake, host, ch, "match log", [{"name": "match_id", "type": 4, "value": -3}]),
                "no longer exists",
            ),
            (fire_command(fake, host, ch, "match log"), "once the match is over"),
            (
                fire_command(fake, ann, ch, "leaderboard", [{"name": "game", "type": 3, "value": "poker"}]),
                "not one this option accepts",
            ),
            (fire_command(fake, ann, ch, "nosuchcommand"), "not available in this form"),
        ]
        records = [rec for rec, _ in cases]
        await acknowledged(fake, records)
        await quiet(fake, bot)
        for rec, expected in cases:
            assert not rec.late and rec.elapsed is not None and rec.elapsed < 3, rec.description
            answer = replies(fake, rec)
            assert len(answer) == 1, (rec.description, answer)
            assert answer[0].ephemeral, (rec.description, answer[0].text)
            text = answer_text(rec)
            assert expected in text, (rec.description, text)
            first = text.split("\n")[1] if text.startswith("Your hand:") else text
            assert first.strip().endswith((".", "!", "?")) and first.count(". ") == 0, (
                rec.description,
                first,
            )
        after = await bot.service.get(snap.id)
        assert (after.version, after.record.state) == before, "bad input changed the match"
        assert error_records(caplog.records) == []
    fake.assert_clean()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_another_games_command_in_this_channel_is_refused(world: World, game_id: str) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        table = await quick_table(world, game_id, ann, [bob])
        if already_over(table):
            return  # an AI ended this match at once
        snap = await bot.service.active_in_channel(world.channel.id)
        others = [c for c in fake.commands if c["name"] in GAMES and c["name"] != game_id]
        if not others:
            pytest.skip("only one game with its own commands is registered")
        for cmd in others:
            sub = next((o for o in cmd.get("options", []) if o.get("type") == 1), None)
            if sub is None:
                continue
            options = [
                {
                    "name": o["name"],
                    "type": o["type"],
                    "value": (o.get("choices") or [{"value": "x"}])[0]["value"],
                }
                for o in sub.get("options", [])
                if o.get("required") and o["type"] == 3
            ]
            rec = fire_command(fake, ann, world.channel, f"{cmd['name']} {sub['name']}", options)
            await acknowledged(fake, [rec])
            (answer,) = replies(fake, rec)
            assert (
                answer.ephemeral and f"The match in this channel is {GAMES[game_id].name}" in answer.text
            ), answer.text
        assert (await bot.service.get(snap.id)).version == snap.version
    fake.assert_clean()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_deleted_table_message_is_posted_again(world: World, game_id: str) -> None:
    fake = world.fake
    people = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        table = await quick_table(world, game_id, people[0], people[1:])
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        if already_over(table):
            return  # an AI ended this match at once
        ann, seat = await awaited_person(bot, fake, match_id, people)
        bob = next(u for u in people if u is not ann)
        fake._delete_message(table)
        hand = await fake.slash(ann, world.channel, "hand")
        assert hand.ephemeral
        snap = await bot.service.get(match_id)
        played = await fake.slash(ann, world.channel, "move", move=snap.legal_moves(seat)[0].code)
        assert played.ephemeral and "You chose" in said(played), said(played)
        await quiet(fake, bot)
        tables = [m for m in fake.messages(world.channel) if any(b.label == "My hand" for b in m.buttons)]
        assert len(tables) == 1 and tables[0].id != table.id
        new_table = tables[0]
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap.record.message_id == new_table.id
        again = await fake.click(bob, new_table, label="My hand")
        assert again.ephemeral and "Your hand" in again.text
    # The one refusal: the edit that told the bot the table was gone.
    assert [(m, e["code"]) for m, _, e in fake.rejections] == [("PATCH", 10008)]
    fake.rejections.clear()
    fake.assert_clean()


async def test_missing_channel_permissions_are_named_in_one_sentence(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    muted = fake.add_channel(world.guild, "read-only")
    with bot_lacks(world, Perm.SEND_MESSAGES | Perm.EMBED_LINKS):
        async with fake.bot_running(make_bot(world)) as bot:
            refused = await fake.slash(ann, muted, "play", game=GAME_IDS[0])
            assert refused.ephemeral
            assert refused.text == (
                "I cannot host a match in this channel: I am missing the Send Messages and Embed Links permission here."
            )
            assert await bot.service.active_in_channel(muted.id) is None
    fake.assert_clean()


# --- the move log -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_the_move_log_is_exported_once_the_match_is_over_by_host_or_manage_server(
    world: World, caplog: Any, game_id: str
) -> None:
    caplog.set_level(logging.INFO)
    fake = world.fake
    ann, bob, cat, dan = world.users[:4]
    fake.set_permissions(dan, manage_guild=True)
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        table = await quick_table(world, game_id, ann, [bob])
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        if "Rematch" not in [b.label for b in table.buttons]:
            early = await fake.slash(ann, world.channel, "match log")
            assert early.ephemeral and "once the match is over" in early.text
            for _ in range(3):  # a few moves by people, then the AI plays both seats to the end
                snap = await bot.service.get(match_id)
                if snap.status != "running":
                    break
                user, seat = await awaited_person(bot, fake, match_id, [ann, bob])
                await fake.slash(
                    user,
                    world.channel,
                    "move",
                    move=(await bot.service.get(match_id)).legal_moves(seat)[0].code,
                )
            for user in (ann, bob):
                if (await bot.service.get(match_id)).status == "running":
                    await leave_for_good(fake, user, world.channel)
        await fake.wait_for(lambda: "finished" in table.text, 90, "the end")
        match_id = (await bot.service.repo.latest_in_channel(world.channel.id)).id
        stranger = await fake.slash(cat, world.channel, "match log")
        assert stranger.ephemeral and "Only the host" in stranger.text
        loser = await fake.slash(bob, world.channel, "match log", match_id=match_id)
        assert loser.ephemeral and "Only the host" in loser.text
        stored = await bot.repo.moves(match_id)
        for user in (ann, dan):
            exported = await fake.slash(user, world.channel, "match log")
            assert (
                exported.ephemeral and f"Move log of match #{match_id} ({len(stored)} moves)" in exported.text
            )
            (attachment,) = exported.response.attachments
            assert attachment["filename"] == f"match-{match_id}.json" and attachment["size"] > 100
        elsewhere = fake.add_channel(world.guild, "elsewhere")
        other = await fake.slash(ann, elsewhere, "match log", match_id=match_id)
        assert other.ephemeral and "no longer exists" in other.text
        data = await bot.service.history.export_log(
            channel_id=world.channel.id, match_id=None, user_id=ann.id, is_admin=False
        )
        # Seed + moves replay the match exactly: the bug report is enough to reproduce it.
        game = GAMES[data["game"]]
        state = game.setup(len(data["seats"]), data["seed"], data["options"])
        for move in data["moves"]:
            state, _ = game.apply(state, move["seat"], move["move"])
        final = await bot.service.get(match_id)
        assert game.dump(state) == final.record.state
        assert [m["by"] for m in data["moves"]] == ["player" if m.user_id else "bot" for m in stored]
        # Every log line about a match names it, so a bug report can be matched to its log.
        service_lines = [r.getMessage() for r in caplog.records if r.name in MATCH_LOGGERS]
        about = [line for line in service_lines if "restored" not in line]
        assert about and all(line.startswith(f"match {match_id}:") for line in about), about
        assert all(str(match_id) in cid for cid in custom_ids(table))
    fake.assert_clean()
