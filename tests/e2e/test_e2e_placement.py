"""A component acts only where it was posted (issue 47): a lobby's Join and Cancel, pressed
with its custom id from another channel or another server, are refused with one sentence
and leave the lobby as it was; in its own channel they work."""

from __future__ import annotations

import pytest

from tests.e2e_support import World, fire_forged, make_bot, open_match, quiet, replies, world

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
            await quiet(fake, bot)
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
