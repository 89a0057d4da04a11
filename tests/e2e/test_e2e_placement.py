"""A component acts only where it was posted (issue 47): a lobby's and a party's buttons and
selects, pressed with their custom id from another channel or another server, are refused
with one sentence and leave the lobby or party as it was; in their own channel they work.
A leaderboard's paging and a replay's buttons and select belong to their server (a replay
may be posted in any of its channels): from another server they are refused the same way."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ui.placement import ELSEWHERE
from tests.e2e_support import World, custom_ids, fire_forged, make_bot, open_match, quiet, replies, world
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from tests.played import play_out


async def answered(fake: FakeDiscord, bot: Any, record: InteractionRecord) -> None:
    """A forged click answered: its callback may start after the bot looked idle."""
    await fake.wait_for(lambda: record.callback_type is not None, what="the answer to the click")
    await quiet(fake, bot)


pytestmark = pytest.mark.asyncio
__all__ = ["world"]


async def test_a_lobbys_buttons_act_only_in_its_own_channel(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    side = fake.add_channel(world.guild, "side-room")
    away = fake.add_channel(fake.add_guild("Elsewhere"), "tables")
    async with fake.bot_running(make_bot(world)) as bot:
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        assert lobby.response is not None
        snap = await bot.service.active_in_channel(world.channel.id)
        before = [seat.user_id for seat in snap.seats]
        for channel, user, action in ((side, bob, "join"), (away, bob, "join"), (away, ann, "cancel")):
            record = fire_forged(fake, user, channel, f"kg:lobby:{snap.id}:{action}")
            await answered(fake, bot, record)
            answer = replies(fake, record)
            assert len(answer) == 1 and answer[0].ephemeral, answer
            assert "another channel" in answer[0].text and "Something went wrong" not in answer[0].text
        after = await bot.service.get(snap.id)
        assert [seat.user_id for seat in after.seats] == before and not after.status.over
        joined = await lobby.click("Join", user=bob)  # in its own channel it works
        assert joined.callback_type in (6, 7), joined.text
        assert bob.id in [seat.user_id for seat in (await bot.service.get(snap.id)).seats]
    fake.assert_clean()


async def test_a_hand_asked_for_in_another_channel_plays_there(world: World) -> None:
    """/hand in another channel of the server shows the player's hand privately; its move
    buttons act (only the bot can put them on that private message), while the table's
    buttons stay bound to the match's channel."""
    fake = world.fake
    ann, bob = world.users[:2]
    side = fake.add_channel(world.guild, "side-room")
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="crown")
        hand = await fake.slash(ann, side, "hand")
        assert hand.ephemeral and hand.response is not None, hand.text
        before = (await bot.service.active_in_channel(world.channel.id)).version
        button = next(b for b in hand.response.buttons if b.custom_id.startswith("kg:m:"))
        played = await fake.click(ann, hand.response, custom_id=button.custom_id)
        assert "another channel" not in played.text, played.text
        await quiet(fake, bot)
        snap = await bot.service.get((await bot.repo.latest_in_channel(world.channel.id)).id)
        assert snap.version > before, "the move from the private hand was played"
        assert table.id != hand.response.id
    fake.assert_clean()


async def refused_everywhere(
    world: World,
    bot: Any,
    message: FakeMessage,
    users: list[FakeUser],
    channels: list[FakeChannel],
    sentence: str,
) -> None:
    """Every button and select of ``message`` pressed by each of ``users`` with its custom id
    on a message in each of ``channels``: one ephemeral answer, ``sentence``, to the presser,
    and neither ``message`` nor the message pressed is edited."""
    fake = world.fake
    edits = message.edits
    selects = {s.custom_id for s in message.selects}
    ids = custom_ids(message)
    assert ids, message
    for custom_id in ids:
        for channel in channels:
            for user in users:
                kind = 3 if custom_id in selects else 2
                record = fire_forged(fake, user, channel, custom_id, component_type=kind)
                await answered(fake, bot, record)
                answer = replies(fake, record)
                assert len(answer) == 1, (custom_id, channel.name, answer)
                assert answer[0].ephemeral and answer[0].visible_to == user.id, (custom_id, answer)
                assert answer[0].text == sentence, (custom_id, channel.name, answer[0].text)
                pressed = fake.message(record.source_message_id or 0)
                assert pressed.edits == 0, (custom_id, channel.name, "the pressed message was edited")
    assert message.edits == edits, "the component's own message was edited"


async def test_a_partys_buttons_and_selects_act_only_in_its_own_channel(world: World) -> None:
    fake = world.fake
    ann, bob, cat = world.users[:3]
    side = fake.add_channel(world.guild, "side-room")
    away = fake.add_channel(fake.add_guild("Elsewhere"), "tables")
    async with fake.bot_running(make_bot(world)) as bot:
        opened = await fake.slash(ann, world.channel, "party", game="dynasty")
        party_message = opened.response
        assert party_message is not None and not opened.ephemeral, opened.text
        await fake.click(cat, party_message, label="Join")
        await quiet(fake, bot)
        party_id = int(custom_ids(party_message)[0].split(":")[2])
        before = (await bot.service.parties.get(party_id)).record
        labels = {b.label for b in party_message.buttons}
        assert {"Join", "Leave", "Add AI", "Start", "Cancel", "Game options"} <= labels, labels
        assert {s.custom_id.rsplit(":", 1)[1] for s in party_message.selects} >= {"tables", "rounds"}
        # the host (who could start, cancel or set options), a stranger and a seated player
        await refused_everywhere(world, bot, party_message, [ann, bob, cat], [side, away], ELSEWHERE["party"])
        after = (await bot.service.parties.get(party_id)).record
        assert after == before and [p.name for p in after.players] == ["ann", "cat"]
        joined = await fake.click(bob, party_message, label="Join")  # in its own channel it works
        assert joined.callback_type in (6, 7), joined.text
        await quiet(fake, bot)
        assert [p.name for p in (await bot.service.parties.get(party_id)).players] == ["ann", "cat", "bob"]
    fake.assert_clean()


async def test_a_leaderboards_paging_acts_only_in_its_own_server(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    side = fake.add_channel(world.guild, "side-room")
    away = fake.add_channel(fake.add_guild("Elsewhere"), "tables")
    async with fake.bot_running(make_bot(world)) as bot:
        bot.leaderboard.page_size = 1
        for host in (ann, bob):
            await play_out(
                bot.service,
                "crown",
                world.channel.id,
                guild_id=world.guild.id,
                host_id=host.id,
                host_name=host.name,
            )
        await quiet(fake, bot)
        board = await fake.slash(ann, world.channel, "leaderboard", game="crown")
        message = board.response
        assert message is not None and "Page 1/2" in message.text, board.text
        shown = message.text
        await refused_everywhere(world, bot, message, [ann, bob], [away], ELSEWHERE["server"])
        assert message.text == shown
        # another channel of its server may page it: the board is the server's, shown where pressed
        nxt = message.find_button("Next ›")
        paged = fire_forged(fake, bob, side, nxt.custom_id)
        await answered(fake, bot, paged)
        assert paged.callback_type == 7 and message.text == shown and message.edits == 0
        assert "Page 2/2" in fake.message(paged.source_message_id or 0).text
        own = await fake.click(bob, message, label="Next ›")  # in its own channel it pages
        assert own.callback_type == 7 and "Page 2/2" in message.text
    fake.assert_clean()


async def test_a_replays_buttons_and_select_act_only_in_its_own_server(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    away = fake.add_channel(fake.add_guild("Elsewhere"), "tables")
    async with fake.bot_running(make_bot(world)) as bot:
        match_id = await play_out(
            bot.service, "court", world.channel.id, guild_id=world.guild.id, host_id=ann.id, host_name="ann"
        )
        await quiet(fake, bot)
        posted = await fake.slash(ann, world.channel, "match replay", match_id=match_id)
        public = posted.response
        assert public is not None and not posted.ephemeral, posted.text
        await fake.click(ann, public, label="Next")  # First and Back enabled too
        await quiet(fake, bot)
        labels = {b.label for b in public.buttons}
        assert {"First", "Back", "Next", "Last", "Show hands"} <= labels and public.selects, labels
        shown = public.text
        # a player of the match (who may show its hands) and someone else
        await refused_everywhere(world, bot, public, [ann, bob], [away], ELSEWHERE["replay"])
        end_screen = fire_forged(fake, bob, away, f"kg:replay:{match_id}")
        await answered(fake, bot, end_screen)
        answer = replies(fake, end_screen)
        assert len(answer) == 1 and answer[0].ephemeral and answer[0].text == ELSEWHERE["replay"], answer
        assert public.text == shown and "Move 1 of" in shown
    fake.assert_clean()
