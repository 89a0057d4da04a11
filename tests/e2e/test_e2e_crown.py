"""End to end: the unmodified bot, through the real discord.py client, against the fake Discord.

King and Crown is played by two users with buttons only, by five users with slash commands
only, and across a restart of the bot in the middle of a match. Every private reply must be
ephemeral, the table must be one public message edited in place, and no public message or
custom id may carry a secret card.
"""

from __future__ import annotations

import asyncio
import gc
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.app import KingBot
from bot.settings import Settings
from bot.ui.tracker import REPLACED
from tests.e2e_support import acknowledged, answer_ids, answer_text, fire_forged, said
from tests.e2e_turns import assert_one_turn_message_at_most, turn_messages
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.postgres import PostgresServer, postgres_server

pytestmark = pytest.mark.asyncio

CARD_WORDS = ("King", "Dragon", "Knight", "Witch", "Beggar")


@dataclass
class World:
    fake: FakeDiscord
    channel: FakeChannel
    users: list[FakeUser]
    db_url: str


@pytest_asyncio.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Court")
        channel = fake.add_channel(guild, "crown")
        users = [fake.add_user(name) for name in ("ann", "bob", "cat", "dan", "eve")]
        yield World(fake, channel, users, f"sqlite:///{tmp_path / 'bot.db'}")
        assert fake.unknown_routes == [], fake.unknown_routes


def make_bot(world: World) -> KingBot:
    return KingBot(
        Settings(
            token=world.fake.token,
            database_url=world.db_url,
            ai_delay=0,
            sync_commands=True,
            table_edit_seconds=0,
        )
    )


@pytest_asyncio.fixture
async def bot(world: World) -> AsyncIterator[KingBot]:
    async with world.fake.bot_running(make_bot(world)) as client:
        yield client  # type: ignore[misc]


def custom_ids(message: FakeMessage) -> list[str]:
    return [b.custom_id for b in message.buttons] + [s.custom_id for s in message.selects]


def assert_no_secret_ids(message: FakeMessage) -> None:
    for cid in custom_ids(message):
        assert re.fullmatch(r"kg:[a-z]+:\d+(:[0-9a-z._]*)*", cid), cid
        assert not any(word.lower() in cid.lower() for word in CARD_WORDS), cid
    for select in message.selects:
        for option in select.options:
            assert option.value.isdigit() or not any(w.lower() in option.value.lower() for w in CARD_WORDS)


def assert_table_keeps_secrets(
    table: FakeMessage, users: list[FakeUser], cards: dict[int, str], king: FakeUser
) -> None:
    """No line of the public table names a hidden player together with their card."""
    for line in table.text.splitlines():
        for user in users:
            if user is king:
                continue
            named = re.search(rf"\b{user.name}\b", line)
            assert not (named and cards[user.id] in line), f"secret on the table: {line!r}"


async def open_match(
    world: World, host: FakeUser, others: list[FakeUser], variant: str | None = None
) -> FakeMessage:
    fake = world.fake
    lobby = await fake.slash(host, world.channel, "play", game="crown")
    assert not lobby.ephemeral and lobby.response is not None
    table = lobby.response
    assert [b.label for b in table.buttons][:5] == ["Join", "Leave", "Add AI", "Start", "Cancel"]
    if variant:
        chosen = await fake.select(host, table, table.selects[0].custom_id, [variant])
        assert not chosen.ephemeral
    for user in others:
        joined = await fake.click(user, table, label="Join")
        assert joined.callback_type in (6, 7)
    started = await fake.click(host, table, label="Start")
    assert started.callback_type in (6, 7), started.text
    await fake.wait_for(lambda: "My hand" in [b.label for b in table.buttons], what="the table after Start")
    return table


async def test_two_users_play_defend_with_buttons_only(world: World, bot: KingBot) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    table = await open_match(world, ann, [bob])
    edits_at_start = table.edits
    assert "Waiting for" in table.text and "⏳ <t:" in table.text, "the status line and a live countdown"
    await fake.wait_for(  # the ping follows the table once the answers are out
        lambda: [m for m in fake.messages(world.channel) if m.id != table.id], what="the turn ping"
    )
    ping = [m for m in fake.messages(world.channel) if m.id != table.id]
    assert len(ping) == 1 and f"<@{ann.id}>" in ping[0].text and f"<@{bob.id}>" in ping[0].text, (
        "both are pinged once"
    )

    picks = {ann.id: "Pick King (5)", bob.id: "Pick Beggar (1)"}  # King thwarts Beggar
    for _round in range(2):
        for user in (ann, bob):
            if user is ann:
                spare = await fake.slash(ann, world.channel, "hand")  # an older hand, left open
                knight = spare.response.find_button("Pick Knight (3)").custom_id
            hand = await fake.click(user, table, label="My hand")
            assert hand.ephemeral, hand.text
            if user is ann:  # the newer hand retires it: no live buttons on a hand that is frozen
                old = spare.response
                await fake.wait_for(lambda old=old: REPLACED in old.text, what="the older hand retired")
                assert not old.buttons
            assert "Your cards (5)" in hand.text
            assert_no_secret_ids(hand.response)
            played = await hand.click(picks[user.id], user=user)
            assert played.ephemeral and "You chose: Pick" in said(played), said(played)
        assert_no_secret_ids(table)
        pings = [m for m in fake.messages(world.channel) if m.id != table.id]
        assert len(pings) <= 1, "at most one turn message per match besides the table"
        assert_one_turn_message_at_most(fake, world.channel)  # not even for a moment, at any step
    await fake.wait_for(lambda: "finished" in table.text, what="the finished table")
    assert table.edits > edits_at_start, "the table message is edited in place"
    assert "🏆 ann wins" in table.text and "ann wins the match 2 to 0" in table.text
    assert [b.label for b in table.buttons] == ["Rematch", "Replay", "Log"], (
        "no hand button once the match is over"
    )
    # A rated match (people only): the final scores show each player's change of skill.
    ann_line = next(line for line in table.text.splitlines() if line.startswith("🥇 ann"))
    bob_line = next(line for line in table.text.splitlines() if line.startswith("🥈 bob"))
    assert "skill +" in ann_line and "skill -" in bob_line, table.text
    # The turn message goes right after the finished table is shown (the table first).
    await fake.wait_for(
        lambda: [m.id for m in fake.messages(world.channel)] == [table.id],
        10,
        "the turn message gone at the end",
    )
    assert len(turn_messages(fake, world.channel)) >= 2, "each round had its own turn message"
    assert_one_turn_message_at_most(fake, world.channel)
    assert not any(m.ephemeral for m in fake.messages(world.channel))
    # An old hand's button (one Discord no longer let the bot retire) pressed after the end
    late = fire_forged(fake, ann, world.channel, knight, ephemeral=True)
    await acknowledged(fake, [late])
    assert "🏆 ann wins" in answer_text(late) and not answer_ids(late), "an old hand shows the result"
    log = await fake.click(bob, table, label="Log")
    assert log.ephemeral and "wins round 1" in log.text
    over = await fake.slash(bob, world.channel, "crown pick", card="K")
    assert over.ephemeral and "no active match" in over.text.lower()
    assert "/match replay" in over.text, "it says where a finished match can be watched"
    # Every component is a dynamic item, so discord.py keeps none of the views sent: a view
    # sent in an ephemeral answer would otherwise wait 15 minutes on a task of its own.
    assert not [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
    fake.assert_clean()


async def test_stale_hand_buttons_are_refused_with_a_fresh_hand(world: World, bot: KingBot) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    table = await open_match(world, ann, [bob], "tourney")
    old = await fake.click(ann, table, label="My hand")
    dragon = old.response.find_button("Pick Dragon (4)").custom_id
    await fake.click(ann, table, label="My hand")  # a newer hand: it, not the old one, keeps up
    await fake.wait_for(lambda: REPLACED in old.response.text, what="the old hand retired")
    assert not old.response.buttons
    picked = await fake.slash(ann, world.channel, "crown pick", card="K")  # her own move: her hand changes
    assert "out of date" not in said(picked) and "not one of your moves" not in said(picked), said(picked)
    # The old hand's button, as Discord keeps it on a hand the bot could no longer retire
    stale = fire_forged(fake, ann, world.channel, dragon, ephemeral=True)
    await acknowledged(fake, [stale])
    assert "out of date" in answer_text(stale), answer_text(stale)
    # Nothing more was played for Ann: her secret pick is still the King.
    fresh = await fake.slash(ann, world.channel, "hand")
    assert "Your secret pick: **King (5)**" in fresh.text, fresh.text
    # Another user cannot use Ann's buttons: they are not seated.
    intruder = await fake.click(world.users[2], table, label="My hand")
    assert intruder.ephemeral and "not seated" in intruder.text
    fake.assert_clean()


async def test_five_users_play_the_king_at_court_with_slash_commands(world: World, bot: KingBot) -> None:
    fake = world.fake
    users = world.users
    table = await open_match(world, users[0], users[1:], "atcourt")

    async def card_of(user: FakeUser) -> str:
        hand = await fake.slash(user, world.channel, "hand")
        assert hand.ephemeral
        found = re.search(r"team: (\w+)", hand.text)
        assert found, hand.text
        return found.group(1)

    cards = {u.id: await card_of(u) for u in users}
    by_card = {c: next(u for u in users if cards[u.id] == c) for c in CARD_WORDS}
    king = by_card["King"]
    assert any(king.name in line and "👑 King" in line for line in table.text.splitlines())
    assert_table_keeps_secrets(table, users, cards, king)

    # The Witch strikes: every card is shown, then the non-King cards are re-dealt in secret.
    witch = await fake.slash(by_card["Witch"], world.channel, "crown witch")
    assert witch.ephemeral and "You chose: Witch" in said(witch), said(witch)
    knight_before = by_card["Knight"]
    choices = await fake.autocomplete(knight_before, world.channel, "crown peek", focused="player", player="")
    assert choices and all(c["value"].startswith("peek:") for c in choices)
    peek = await fake.slash(knight_before, world.channel, "crown peek", player=choices[0]["value"])
    assert peek.ephemeral and "holds the" in peek.text
    cards = {u.id: await card_of(u) for u in users}
    by_card = {c: next(u for u in users if cards[u.id] == c) for c in CARD_WORDS}
    assert by_card["King"] == king
    # The Witch's reveal showed the old cards; the re-dealt ones stay secret.
    last_lines = table.text.split("dealt again")[-1]
    for user in users:
        if user is not king:
            assert f"{user.name} {cards[user.id]}" not in last_lines or "reveals every card" in last_lines

    # Not the King's move: refused with one sentence (the Dragon may act, by saying ready).
    refused = await fake.slash(by_card["Dragon"], world.channel, "crown end")
    assert refused.ephemeral and "cannot do that right now" in refused.text.lower()

    ended = await fake.slash(king, world.channel, "crown end")
    assert ended.ephemeral
    options = await fake.autocomplete(king, world.channel, "crown accuse", focused="player", player="")
    assert len(options) == 4
    dragon = by_card["Dragon"]
    target = next(o["value"] for o in options if dragon.name in o["name"])
    accused = await fake.slash(king, world.channel, "crown accuse", player=target)
    assert accused.ephemeral
    beggar = await fake.slash(by_card["Beggar"], world.channel, "crown beggar", choice="join")
    assert beggar.ephemeral and "You chose: Reveal the Beggar" in said(beggar), said(beggar)
    await fake.wait_for(lambda: "finished" in table.text, what="the verdict")
    assert "The Wicked win" not in table.text and "The Wise win" in table.text
    assert "🏆 The Wise win" in table.text and "Wicked" in table.text
    fake.assert_clean()


async def test_a_match_survives_a_restart_of_the_bot(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)):
        table = await open_match(world, ann, [bob])
        await fake.slash(ann, world.channel, "crown pick", card="K")
        await fake.slash(bob, world.channel, "crown pick", card="B")
        await fake.settle()
        assert "**ann** · 1 round won" in table.text and "**bob** · 0 rounds won" in table.text
        await fake.slash(ann, world.channel, "crown pick", card="K")

    async with fake.bot_running(make_bot(world)):
        hand = await fake.click(bob, table, label="My hand")  # the old table button still works
        assert hand.ephemeral and "Your cards" in hand.text
        done = await hand.click("Pick Beggar (1)", user=bob)
        assert done.ephemeral
        await fake.wait_for(lambda: "finished" in table.text, what="the finish after the restart")
        assert "ann wins the match 2 to 0" in table.text
    fake.assert_clean()


async def test_a_bot_that_owns_its_process_freezes_its_heap_once_ready(world: World) -> None:
    """``python -m bot`` (``freeze_heap=True``) moves what is alive when it is ready out of the
    garbage collector's way (no full collection walks it again, every player waiting); a bot
    made without it (in tests, several in one process) leaves the collector alone."""
    gc.unfreeze()
    try:
        async with world.fake.bot_running(make_bot(world)):
            assert gc.get_freeze_count() == 0
        settings = Settings(
            token=world.fake.token, database_url=world.db_url, ai_delay=0, table_edit_seconds=0
        )
        async with world.fake.bot_running(KingBot(settings, freeze_heap=True)) as client:
            await world.fake.wait_for(lambda: gc.get_freeze_count() > 0, what="the heap frozen once ready")
            frozen = gc.get_freeze_count()
            client.dispatch("ready")  # a reconnection: frozen once only
            await world.fake.settle()
            assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


async def test_lobby_refusals_and_rules(world: World, bot: KingBot) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    lobby = await fake.slash(ann, world.channel, "play", game="crown")
    table = lobby.response
    again = await fake.slash(bob, world.channel, "play", game="crown")
    assert again.ephemeral and "already has an active match" in again.text
    early = await fake.click(bob, table, label="Start")
    assert early.ephemeral and "Only the host" in early.text
    alone = await fake.click(ann, table, label="Start")
    assert alone.ephemeral and "needs" in alone.text
    ai = await fake.click(ann, table, label="Add AI")
    assert ai.callback_type in (6, 7)
    await fake.wait_for(lambda: "AI 1" in table.text, what="the AI seat")
    rules = await fake.slash(bob, world.channel, "rules", game="crown")
    assert rules.ephemeral and "five-card deck" in rules.text and "Section 1 of 7" in rules.text
    select = rules.response.selects[0]
    page = next(o.value for o in select.options if o.label == "Rulings of this bot")
    rulings = await fake.select(bob, rules.response, select.custom_id, [page])
    assert rulings.ephemeral and "Secret picks are final" in rules.response.text, "the page turns in place"
    cancel = await fake.click(bob, table, label="Cancel")
    assert cancel.ephemeral and "Only the host" in cancel.text
    cancelled = await fake.click(ann, table, label="Cancel")
    assert cancelled.callback_type in (6, 7)
    await fake.wait_for(
        lambda: "closed" in table.text or "cancelled" in table.text, what="the cancelled lobby"
    )
    fake.assert_clean()


async def test_the_turn_message_is_edited_when_only_some_have_moved(world: World, bot: KingBot) -> None:
    """Both are awaited and pinged once; when one has moved, the same message names the other
    alone (an edit, which notifies nobody again), and the next turn replaces it."""
    fake = world.fake
    ann, bob = world.users[:2]
    table = await open_match(world, ann, [bob])
    await fake.wait_for(  # the ping follows the table once the answers are out
        lambda: [m for m in fake.messages(world.channel) if m.id != table.id], what="the turn ping"
    )
    [ping] = [m for m in fake.messages(world.channel) if m.id != table.id]
    assert {ann.id, bob.id} <= set(ping.mention_ids)
    played = await fake.slash(ann, world.channel, "crown pick", card="K")
    assert "You chose" in said(played), said(played)
    await fake.wait_for(lambda: f"<@{ann.id}>" not in ping.text, what="the turn message to name bob alone")
    assert f"<@{bob.id}>" in ping.text and not ping.deleted
    assert [m for m in fake.messages(world.channel) if m.id != table.id] == [ping], "edited, not posted again"
    await fake.slash(bob, world.channel, "crown pick", card="B")  # the round ends: a new turn
    await fake.wait_for(lambda: ping.deleted or "finished" in table.text, what="the next turn to replace it")
    fake.assert_clean()


async def test_a_hand_message_updates_itself_when_the_players_turn_comes(world: World, bot: KingBot) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    table = await open_match(world, ann, [bob])
    hand = await fake.click(ann, table, label="My hand")
    played = await hand.click("Pick Dragon (4)", user=ann)
    assert "Nothing for you to do right now" in hand.response.text and not hand.response.buttons
    assert "*Waiting for bob to " in hand.response.text, "the table's line, as it stood then"
    edits = hand.response.edits
    await fake.slash(bob, world.channel, "crown pick", card="W")  # Dragon thwarts Witch: round 2 begins
    await fake.wait_for(
        lambda: hand.response.edits > edits and hand.response.buttons, what="ann's hand to update"
    )
    assert "**Your move:**" in hand.response.text and "You chose" not in hand.response.text
    # The reveal came with bob's move; ann, who picked first, reads it beside her next pick.
    assert "Last reveal (round 1): ann Dragon (4), bob Witch (2): ann wins round 1" in hand.response.text
    assert played.ephemeral and hand.response.ephemeral
    # The turn message names only who is awaited, and is replaced, never added to.
    pings = [m for m in fake.messages(world.channel) if m.id != table.id]
    assert len(pings) == 1 and f"<@{ann.id}>" in pings[0].text
    await hand.click("Pick Dragon (4)", user=ann)
    await fake.slash(bob, world.channel, "crown pick", card="W")
    await fake.wait_for(lambda: "finished" in table.text, what="the end")
    await fake.wait_for(lambda: "🏆 ann wins" in hand.response.text, what="the hand to show the result")
    assert not hand.response.buttons
    body = hand.response.text.split("\n", 1)[1].lstrip()
    assert body.startswith("**🏆 ann wins"), "the result leads the hand, above the echo of an earlier move"
    fake.assert_clean()


async def test_a_whole_match_and_a_restart_on_postgresql(
    world: World, postgres_server: PostgresServer
) -> None:
    """The same bot on a real PostgreSQL server: a match, a restart in the middle, the end."""
    fake = world.fake
    ann, bob = world.users[:2]
    world.db_url = postgres_server.database()
    async with fake.bot_running(make_bot(world)):
        table = await open_match(world, ann, [bob])
        await fake.slash(ann, world.channel, "crown pick", card="K")
        await fake.slash(bob, world.channel, "crown pick", card="B")
        await fake.settle()
    async with fake.bot_running(make_bot(world)) as bot:
        await fake.slash(ann, world.channel, "crown pick", card="K")
        done = await fake.slash(bob, world.channel, "crown pick", card="B")
        assert done.ephemeral
        await fake.wait_for(lambda: "🏆 ann wins" in table.text, what="the end on PostgreSQL")
        results = await bot.repo.results((await bot.repo.latest_in_channel(world.channel.id)).id)
        assert [(r.place, r.user_id) for r in sorted(results, key=lambda r: r.place)] == [
            (1, ann.id),
            (2, bob.id),
        ]
        board = await bot.leaderboard.board(world.channel.guild_id, "crown")
        assert [r.user_id for r in board.rows] == [ann.id, bob.id]
    fake.assert_clean()


__all__ = ["postgres_server"]


async def test_a_hand_the_match_did_not_change_still_plays(world: World, bot: KingBot) -> None:
    """Bob's secret pick moves the match on without changing anything Ann sees: the button of
    the hand she opened before means what it meant, so it plays (it is not refused as out of
    date, as it was every round for whoever picked second)."""
    fake = world.fake
    ann, bob = world.users[:2]
    table = await open_match(world, ann, [bob], "tourney")
    old = await fake.click(ann, table, label="My hand")
    await fake.slash(bob, world.channel, "crown pick", card="K")  # the match moves on
    played = await old.click("Pick King (5)", user=ann)
    assert played.ephemeral and "out of date" not in said(played), said(played)
    log = await fake.click(ann, table, label="Log")
    assert "Round 1 reveal: ann King (5), bob King (5)." in log.text, log.text
    fake.assert_clean()


async def test_whoever_picked_first_sees_the_reveal_in_their_hand(world: World, bot: KingBot) -> None:
    """The reveal's events come with the last pick, so only the last picker was told; the
    first picker's hand now shows the picks and who took the round until their next pick,
    and nothing of a pick before its reveal."""
    fake = world.fake
    ann, bob = world.users[:2]
    table = await open_match(world, ann, [bob], "tourney")
    hand = await fake.click(ann, table, label="My hand")
    await hand.click("Pick Witch (2)", user=ann)
    bobs = await fake.click(bob, table, label="My hand")
    assert "ann Witch" not in bobs.text and "reveal" not in bobs.text.lower(), bobs.text
    edits = hand.response.edits
    await fake.slash(bob, world.channel, "crown pick", card="D")
    await fake.wait_for(lambda: hand.response.edits > edits and hand.response.buttons, what="ann's hand")
    reveal = "Last reveal (round 1): ann Witch (2), bob Dragon (4): bob wins round 1"
    assert "**On the table**" in hand.response.text and reveal in hand.response.text, hand.response.text
    played = await hand.click("Pick King (5)", user=ann)
    assert "Last reveal" not in said(played), "gone once she has picked again"
    fake.assert_clean()
