"""A whole party through the fake Discord: /party, its lobby, two tables in threads of the
channel, two rounds with the winners moving on, the standings message edited in place, the
party winner, /stats; and a restart in the middle of a round that loses nothing."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3

import pytest

from bot.app import KingBot
from bot.service import Snapshot
from bot.ui.table import TablePublisher
from db.records import MatchStatus
from tests.e2e_support import (
    World,
    bot_lacks,
    custom_id_is_safe,
    custom_ids,
    error_records,
    leave_for_good,
    make_bot,
    quiet,
    world,
)
from tests.fakediscord import BotProcess, FakeChannel, FakeDiscord, FakeMessage, FakeUser, Perm

pytestmark = pytest.mark.asyncio
__all__ = ["world"]


async def open_party(world: World, host: FakeUser, others: list[FakeUser], *, ais: int) -> FakeMessage:
    """/party game:dynasty with one-hand classic matches, two tables, two rounds; Start."""
    fake = world.fake
    opened = await fake.slash(host, world.channel, "party", game="dynasty")
    assert opened.response is not None and not opened.ephemeral, opened.text
    party = opened.response
    assert "party" in party.text and "Join" in [b.label for b in party.buttons]
    for key, value in (("rounds", "2"), ("tables", "2")):
        select = next(s for s in party.selects if s.custom_id.endswith(f":{key}"))
        chosen = await fake.select(host, party, select.custom_id, [value])
        assert chosen.callback_type in (6, 7), chosen.text
    panel = await fake.click(host, party, label="Game options")
    assert panel.ephemeral and panel.response is not None, panel.text
    for key, value in (("deck", "classic"), ("hands", "1")):
        select = next(s for s in panel.response.selects if s.custom_id.endswith(f":{key}"))
        chosen = await fake.select(host, panel.response, select.custom_id, [value])
        assert chosen.callback_type in (6, 7), chosen.text
    for user in others:
        joined = await fake.click(user, party, label="Join")
        assert joined.callback_type in (6, 7), joined.text
    for _ in range(ais):
        added = await fake.click(host, party, label="Add AI")
        assert added.callback_type in (6, 7), added.text
    assert all(custom_id_is_safe(c) for c in custom_ids(party)), custom_ids(party)
    started = await fake.click(host, party, label="Start")
    assert started.callback_type in (5, 6, 7), started.text
    await fake.wait_for(lambda: "round 1 of 2" in party.text, what="round 1 on the party message")
    return party


def threads_of(fake: FakeDiscord, world: World) -> list[FakeChannel]:
    return [c for c in world.guild.channels.values() if c.parent_id == world.channel.id]


def table_in(fake: FakeDiscord, thread: FakeChannel) -> FakeMessage | None:
    """The table message of a thread (the bot's message with a My hand, Rematch or Log button)."""
    for message in fake.messages(thread):
        if {"My hand", "Rematch", "Log"} & {b.label for b in message.buttons}:
            return message
    return None


def askable(table: FakeMessage, people: list[FakeUser]) -> list[FakeUser]:
    """Whom to ask for moves at a table: its seated people, the one the table marks as awaited
    (▶) first (everyone, in order, if the table shows no seat of theirs)."""

    def shown(pattern: str) -> bool:
        return re.search(pattern, table.text, re.MULTILINE) is not None

    seated = [u for u in people if shown(rf"^(?:▶ )?\**{re.escape(u.name)}\** · ")]
    awaited = [u for u in seated if shown(rf"^▶ \**{re.escape(u.name)}\** · ")]
    return awaited + [u for u in seated if u not in awaited] if seated else list(people)


async def legal_moves(fake: FakeDiscord, user: FakeUser, thread: FakeChannel) -> list[dict[str, str]]:
    """/move's autocomplete for ``user`` in ``thread``. Answering it is all the bot does, so
    the fake waits 5 ms of quiet after the answer rather than the 50 ms it gives a move."""
    saved = fake.quiet, fake.external_quiet
    fake.quiet = fake.external_quiet = 0.005
    try:
        return await fake.autocomplete(user, thread, "move", focused="move", move="")
    finally:
        fake.quiet, fake.external_quiet = saved


async def play_tables(
    fake: FakeDiscord,
    world: World,
    people: list[FakeUser],
    party: FakeMessage,
    until: str | None,
    passes: int = 3000,
) -> None:
    """The people make their first listed move by /move in every thread (the autocomplete
    lists a player's legal moves only when it is their turn), until ``until`` shows on the
    party message (None: for ``passes`` passes over the threads). Each pass asks a table's
    seated people, the one it shows awaited first, until one of them moves there (a round
    trip to the bot for each: asking everyone everywhere made a party's rounds minutes long)."""
    for _ in range(passes):
        if until is not None and until in party.text:
            return
        moved = False
        for thread in threads_of(fake, world):
            table = table_in(fake, thread)
            if table is None or "My hand" not in [b.label for b in table.buttons]:
                continue
            for user in askable(table, people):
                choices = await legal_moves(fake, user, thread)
                if not choices:
                    continue
                await fake.slash(user, thread, "move", move=choices[0]["value"])
                moved = True
                break
        if not moved:
            await asyncio.sleep(0.02)
    if until is None:
        return
    raise AssertionError(f"{until!r} never showed: {party.text}")


async def test_a_two_table_two_round_party_of_people_and_ai(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    fake = world.fake
    fake.external_quiet = 0.05
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        assert "party" in [c["name"] for c in fake.commands]
        party = await open_party(world, ann, [bob], ais=2)
        assert len(threads_of(fake, world)) == 2  # a thread per table
        await fake.wait_for(
            lambda: all(table_in(fake, t) for t in threads_of(fake, world)), what="tables in the threads"
        )
        assert [b.label for b in party.buttons] == ["Leave", "Cancel"]
        await play_tables(fake, world, [ann, bob], party, "🏆")
        await quiet(fake, bot)
        assert len(threads_of(fake, world)) == 4  # two rounds of two tables
        assert re.search(r"🏆 .+ (wins the party|share the party win) with", party.text), party.text
        assert re.search(r"\*\*-?\d+\*\* \(-?\d+ \+ -?\d+\)", party.text), party.text  # round by round
        assert party.buttons == []
        first = party.text.split("🥇")[1].split("·")[0].strip()
        assert first in ("ann", "bob"), party.text  # an AI is never the party winner
        winner = ann if first == "ann" else bob
        stats = await fake.slash(winner, world.channel, "stats")
        assert "Parties: 1 party played, 1 won." in stats.text, stats.text
        for thread in threads_of(fake, world):
            table = table_in(fake, thread)
            # the party seats the next round itself: a finished table offers its replay and log, no rematch
            assert table is not None and [b.label for b in table.buttons] == ["Replay", "Log"], table.buttons
            # Its footer says where the party goes on, true when read after the party moved on.
            if "round 1" in thread.name:
                assert "(round 1 of 2): the party's message has the standings; round 2 starts" in table.text
            else:
                assert re.search(
                    r"A table of party #\d+(, which is over: the party's message has the final standings"
                    r"|'s last round: the party's message shows the final standings once every table)",
                    table.text,
                ), table.text
    fake.assert_clean()
    assert error_records(caplog.records) == []


async def test_a_table_of_ai_seats_that_ends_before_its_first_post_still_shows_in_its_thread(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table of AI seats alone plays at once; its first change may reach the table
    publisher only after its end (Discord slow to take the post). Forced here: the first
    publish of such a table waits for the end. Its thread still gets the finished table, with
    who won and its Log, and the party goes on."""
    caplog.set_level(logging.WARNING)
    fake = world.fake
    fake.external_quiet = 0.05
    (ann,) = world.users[:1]
    held: list[int] = []
    original = TablePublisher.publish

    async def publish_late(self: TablePublisher, snap: Snapshot) -> None:
        if snap.record.message_id is None and all(seat.ai for seat in snap.seats):
            while not (snap := await self.service.get(snap.id)).status.over:
                await asyncio.sleep(0.01)
            held.append(snap.id)
        await original(self, snap)

    monkeypatch.setattr(TablePublisher, "publish", publish_late)
    async with fake.bot_running(make_bot(world)) as bot:
        party = await open_party(world, ann, [], ais=3)  # four seats at two tables: one of AI seats alone
        await fake.wait_for(lambda: bool(held), what="the AI table's end")
        await fake.wait_for(
            lambda: all(table_in(fake, t) for t in threads_of(fake, world)), what="tables in the threads"
        )
        ai_thread = next(t for t in threads_of(fake, world) if "ann" not in table_in(fake, t).text)
        table = table_in(fake, ai_thread)
        assert "wins" in table.text and [b.label for b in table.buttons] == ["Replay", "Log"], (
            table.text,
            table.buttons,
        )
        assert len([m for m in fake.messages(ai_thread) if m.buttons]) == 1, "one table, posted once"
        await play_tables(fake, world, [ann], party, "🏆")
        await quiet(fake, bot)
        assert "🏆" in party.text, party.text
    fake.assert_clean()
    assert error_records(caplog.records) == []


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    fake = world.fake
    fake.external_quiet = 0.05
    ann, bob, cat, dan = world.users[:4]
    bot: KingBot
    async with fake.bot_running(make_bot(world)) as bot:
        party = await open_party(world, ann, [bob, cat, dan], ais=0)
        await fake.wait_for(
            lambda: all(table_in(fake, t) for t in threads_of(fake, world)), what="tables in the threads"
        )
        await quiet(fake, bot)
    # The bot is down in the middle of round 1: nobody has finished a table.
    assert "round 1 of 2" in party.text
    async with fake.bot_running(make_bot(world)) as bot:
        await quiet(fake, bot)
        assert len(threads_of(fake, world)) == 2  # nothing opened twice
        await play_tables(fake, world, [ann, bob, cat, dan], party, "round 2 of 2")
        assert len(threads_of(fake, world)) == 4
        await play_tables(fake, world, [ann, bob, cat, dan], party, "🏆")
        assert "🏆" in party.text
    fake.assert_clean()
    assert error_records(caplog.records) == []


async def test_sigkill_in_the_middle_of_a_round_and_the_party_goes_on(world: World) -> None:
    """The bot process is killed (no shutdown) while people play round 1; started again, it
    opens nothing twice, the party goes on to its winner, and every table is stored once."""
    fake = world.fake
    db = world.tmp_path / "bot.db"
    env = {"DATABASE_URL": f"sqlite:///{db}", "AI_DELAY": "0", "TABLE_EDIT_SECONDS": "0", "LOG_LEVEL": "INFO"}
    fake.external_quiet = 0.05
    ann, bob, cat, dan, eve = world.users
    people = [ann, bob, cat, dan, eve]

    async def start() -> BotProcess:
        before = fake.active_session
        proc = await fake.start_bot_process("bot", env=env)
        await fake.wait_for(
            lambda: fake.active_session not in (None, before) and bool(fake.commands),
            30,
            "the bot process to connect",
        )
        return proc

    proc = await start()
    outputs = []
    try:
        party = await open_party(world, ann, [bob, cat, dan, eve], ais=0)
        await fake.wait_for(
            lambda: all(table_in(fake, t) for t in threads_of(fake, world)), what="tables in the threads"
        )
        await play_tables(fake, world, people, party, None, passes=3)
        assert "round 1 of 2" in party.text
        await proc.kill()
        outputs.append(proc.output())
        proc.cleanup()

        proc = await start()
        await play_tables(fake, world, people, party, "🏆")
        assert len(threads_of(fake, world)) == 4
        with sqlite3.connect(db) as conn:
            rows = conn.execute(
                "SELECT round, table_no, match_id, results IS NOT NULL FROM party_tables"
            ).fetchall()
            assert sorted((r, t) for r, t, _m, _d in rows) == [(1, 0), (1, 1), (2, 0), (2, 1)]
            assert all(done for *_rest, done in rows)
            assert len({m for _r, _t, m, _d in rows}) == 4
            assert conn.execute("SELECT status FROM parties").fetchall() == [("finished",)]
            # One winner, or several tied on the best score (a tie shares the place and the win).
            assert conn.execute("SELECT COUNT(*) FROM party_results").fetchone() == (5,)
            firsts = conn.execute("SELECT score, won FROM party_results WHERE place = 1").fetchall()
            assert firsts and len({score for score, _won in firsts}) == 1 and all(won for _s, won in firsts)
            assert conn.execute("SELECT SUM(won) FROM party_results").fetchone() == (len(firsts),)
        await proc.terminate()
        outputs.append(proc.output())
        for out in outputs:
            assert "Traceback" not in out, out[-3000:]
            assert " ERROR " not in out, out[-3000:]
    finally:
        if proc.running:
            await proc.kill()
        proc.cleanup()


async def test_leave_and_cancel_in_the_partys_channel_mean_the_party(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    fake = world.fake
    fake.external_quiet = 0.05
    ann, bob, cat, dan = world.users[:4]
    async with fake.bot_running(make_bot(world)) as bot:
        party = await open_party(world, ann, [bob, cat, dan], ais=0)
        await fake.wait_for(
            lambda: all(table_in(fake, t) for t in threads_of(fake, world)), what="tables in the threads"
        )
        left = await leave_for_good(fake, bob, world.channel)
        assert left.ephemeral and "You left the party" in left.text, left.text
        await fake.wait_for(lambda: "bob (left, ranked last)" in party.text, what="bob ranked last")
        refused = await fake.slash(cat, world.channel, "cancel")
        assert refused.ephemeral and "Only the host" in refused.text, refused.text
        party_id = (await bot.service.parties.in_channel(world.channel.id)).id
        cancelled = await fake.slash(ann, world.channel, "cancel")
        assert cancelled.ephemeral and cancelled.text == (
            f"Party #{party_id} was cancelled, with its running matches."
        ), cancelled.text
        await fake.wait_for(lambda: "cancelled" in party.text, what="the party cancelled")
        await quiet(fake, bot)
        for thread in threads_of(fake, world):
            table = table_in(fake, thread)
            assert table is None or "My hand" not in [b.label for b in table.buttons]
        assert party.buttons == []
    fake.assert_clean()
    assert error_records(caplog.records) == []


async def test_leaving_a_running_party_asks_first(world: World) -> None:
    """/leave in the party's channel, and the party message's Leave, ask before the AI takes
    the seat: Stay changes nothing; Leave party ranks the player last."""
    fake = world.fake
    fake.external_quiet = 0.05
    ann, bob, cat, dan = world.users[:4]
    async with fake.bot_running(make_bot(world)) as bot:
        party = await open_party(world, ann, [bob, cat, dan], ais=0)
        party_id = (await bot.service.parties.in_channel(world.channel.id)).id
        question = f"Leave party #{party_id}? The AI takes your seat and you are ranked last."
        asked = await fake.slash(bob, world.channel, "leave")
        assert asked.ephemeral and asked.text == question, asked.text
        assert [b.label for b in asked.buttons] == ["Leave party", "Stay"]
        stayed = await asked.click("Stay")
        assert stayed.callback_type == 7 and stayed.buttons == []
        assert stayed.text == f"Nothing changed: you keep your seat in party #{party_id}.", stayed.text
        button = await fake.click(cat, party, label="Leave")
        assert button.ephemeral and button.text == question, button.text
        second = await fake.click(cat, party, label="Leave")  # a second question, answered last
        await quiet(fake, bot)
        assert "(left, ranked last)" not in party.text, "asking changed nothing"
        left = await button.click("Leave party")
        assert left.callback_type == 7 and left.buttons == []
        assert left.text == "You left the party; the AI plays your seat and you are ranked last."
        await fake.wait_for(lambda: "cat (left, ranked last)" in party.text, what="cat ranked last")
        assert "bob (left" not in party.text
        stayed = await second.click("Stay")
        assert stayed.text == f"You already left party #{party_id}; the AI plays your seat.", stayed.text
        await fake.slash(ann, world.channel, "cancel")
        await quiet(fake, bot)
    fake.assert_clean()


async def test_leave_in_a_tables_thread_means_the_party(world: World) -> None:
    """/leave typed in a party table's thread asks about the party (leaving the table alone
    left the player listed at the party as still playing), and confirming ranks them last."""
    fake = world.fake
    fake.external_quiet = 0.05
    ann, bob, cat, dan = world.users[:4]
    async with fake.bot_running(make_bot(world)) as bot:
        party = await open_party(world, ann, [bob, cat, dan], ais=0)
        party_id = (await bot.service.parties.in_channel(world.channel.id)).id
        await fake.wait_for(lambda: bool(threads_of(fake, world)), what="a table's thread")
        thread = threads_of(fake, world)[0]
        await fake.wait_for(lambda: table_in(fake, thread) is not None, what="the table in its thread")
        snap = await bot.service.active_in_channel(thread.id)
        assert snap is not None
        seated = next(u for u in (ann, bob, cat, dan) if snap.seat_of(u.id) is not None)
        asked = await fake.slash(seated, thread, "leave")
        assert asked.ephemeral and asked.text.startswith(f"Leave party #{party_id}?"), asked.text
        left = await asked.click("Leave party")
        assert left.text == "You left the party; the AI plays your seat and you are ranked last.", left.text
        await fake.wait_for(lambda: f"{seated.name} (left, ranked last)" in party.text, what="ranked last")
        await fake.slash(ann, world.channel, "cancel")
        await quiet(fake, bot)
    fake.assert_clean()


async def test_a_party_needs_the_thread_permissions_and_says_which_are_missing(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        with bot_lacks(world, Perm.CREATE_PUBLIC_THREADS):
            refused = await fake.slash(ann, world.channel, "party", game="dynasty")
            assert refused.ephemeral
            assert refused.text == (
                "I cannot host a party in this channel: I am missing the Create Public Threads permission here."
            )
            assert await bot.service.parties.in_channel(world.channel.id) is None
        # Opened while the bot could, then the permission is taken away before Start: the
        # host is told, and nothing is seated.
        opened = await fake.slash(ann, world.channel, "party", game="dynasty")
        assert opened.response is not None, opened.text
        party = opened.response
        await fake.click(bob, party, label="Join")
        with bot_lacks(world, Perm.CREATE_PUBLIC_THREADS):
            started = await fake.click(ann, party, label="Start")
            assert started.ephemeral
            assert started.text == (
                "I cannot seat the party's tables: I am missing the Create Public Threads permission here."
            )
            snap = await bot.service.parties.in_channel(world.channel.id)
            assert snap is not None and snap.status == MatchStatus.LOBBY
            assert threads_of(fake, world) == []
    fake.assert_clean()


async def test_the_host_adds_ai_players_at_each_level_and_their_tables_play_at_it(world: World) -> None:
    """The party's lobby offers the three AI levels (the host only); the roster says each AI
    player's level, and its seat at its table shows and plays it."""
    fake = world.fake
    fake.external_quiet = 0.05
    ann, bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        opened = await fake.slash(ann, world.channel, "party", game="dynasty")
        assert opened.response is not None, opened.text
        party = opened.response
        labels = [b.label for b in party.buttons]
        assert {"Add easy AI", "Add AI", "Add hard AI"} <= set(labels) and "Remove AI" not in labels, labels
        refused = await fake.click(bob, party, label="Add hard AI")
        assert refused.ephemeral and "Only the host" in refused.text, refused.text
        for user in (bob, cat):
            await fake.click(user, party, label="Join")
        for label in ("Add hard AI", "Add easy AI"):
            added = await fake.click(ann, party, label=label)
            assert added.callback_type in (6, 7), added.text
        await fake.wait_for(lambda: "AI 2 (easy AI)" in party.text, what="the AI players on the roster")
        assert "AI 1 (hard AI)" in party.text and "Remove AI" in [b.label for b in party.buttons]
        assert all(custom_id_is_safe(c) for c in custom_ids(party)), custom_ids(party)
        started = await fake.click(ann, party, label="Start")
        assert started.callback_type in (5, 6, 7), started.text
        await fake.wait_for(
            lambda: len([t for t in threads_of(fake, world) if table_in(fake, t)]) == 2, what="two tables"
        )
        shown = "\n".join(
            table.text for t in threads_of(fake, world) if (table := table_in(fake, t)) is not None
        )
        # a table of AI players alone may be over already: its end screen says "AI 1 · 42 · hard AI"
        assert re.search(r"AI 1\**(?: \(| ·[^\n]*?)hard AI", shown), shown
        assert re.search(r"AI 2\**(?: \(| ·[^\n]*?)easy AI", shown), shown
        snap = await bot.service.parties.in_channel(world.channel.id)
        assert snap is not None
        for table in snap.round_tables():
            assert table.match_id is not None
            seats = (await bot.service.get(table.match_id)).seats
            assert all(s.level == {"AI 1": "hard", "AI 2": "easy"}.get(s.name, "normal") for s in seats), (
                seats
            )
        await fake.slash(ann, world.channel, "cancel")
        await quiet(fake, bot)


async def test_each_table_thread_names_its_players_and_a_wrong_thread_points_to_theirs(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Four people and an AI: every thread opens with the round, the table and its players
    (mentions, one ping each per round); /move in another table's thread names the player's
    own table; round 2's threads name their players once, and the finished party marks its
    AI player as not ranked."""
    caplog.set_level(logging.WARNING)
    fake = world.fake
    fake.external_quiet = 0.05
    people = world.users[:4]
    async with fake.bot_running(make_bot(world)) as bot:
        party = await open_party(world, people[0], people[1:], ais=1)
        await fake.wait_for(
            lambda: all(table_in(fake, t) for t in threads_of(fake, world)), what="tables in the threads"
        )

        def intros(round_no: int) -> dict[int, str]:
            """thread id -> its first message, for the round's threads."""
            return {
                t.id: fake.messages(t)[0].text
                for t in threads_of(fake, world)
                if f"round {round_no} ·" in t.name and fake.messages(t)
            }

        first = intros(1)
        assert len(first) == 2 and all("Round 1 of 2 · table" in text for text in first.values()), first
        for user in people:
            named = [tid for tid, text in first.items() if f"<@{user.id}>" in text]
            assert len(named) == 1, (user.name, first)
        user = people[0]
        mine = next(tid for tid, text in first.items() if f"<@{user.id}>" in text)
        other = next(t for t in threads_of(fake, world) if t.id != mine)
        wrong = await fake.slash(user, other, "move", move="d")
        assert wrong.ephemeral and "You play at round 1 · table" in wrong.text, wrong.text
        assert f"<#{mine}>" in wrong.text, wrong.text
        await play_tables(fake, world, people, party, "🏆")
        await quiet(fake, bot)
        second = intros(2)
        assert len(second) == 2, second
        for user in people:
            pings = sum(text.count(f"<@{user.id}>") for text in second.values())
            assert pings == 1, (user.name, second)
        ai_row = next(line for line in party.text.splitlines() if "AI 1" in line)
        assert "not ranked" in ai_row, party.text
    fake.assert_clean()
    assert error_records(caplog.records) == []
