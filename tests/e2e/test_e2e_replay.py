"""Replays, end to end: ``/match replay`` posts a finished match's table step by step, the
end screen's Replay opens one only its presser sees; First, Back, Next and Last step through,
a select jumps to a hand, and only the match's players may show every hand."""

from __future__ import annotations

import pytest

from bot.images import table_png
from tests.e2e.test_e2e_rematch import one_sentence, play_to_the_end
from tests.e2e_support import (
    World,
    acknowledged,
    answer_text,
    custom_id_is_safe,
    custom_ids,
    fire_forged,
    make_bot,
    open_match,
    quiet,
    world,
)
from tests.fakediscord import FakeMessage
from tests.played import play_out

pytestmark = pytest.mark.asyncio
UPDATE_MESSAGE, EPHEMERAL = 7, 64
__all__ = ["world"]


def labels(message: FakeMessage) -> dict[str, bool]:
    """Each button's label -> whether it can be pressed."""
    return {b.label: not b.disabled for b in message.buttons}


def field(message: FakeMessage, name: str) -> str | None:
    for embed in message.embeds:
        for f in embed.get("fields", ()):
            if f["name"] == name or f["name"].startswith(name):
                return f["value"]
    return None


async def test_the_end_screen_offers_a_replay_that_steps_through_the_match(world: World) -> None:
    fake = world.fake
    ann, bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "defend"}, ais=1)
        match_id = (await bot.service.active_in_channel(world.channel.id)).id
        await play_to_the_end(world, bot, table, [ann, bob])
        await quiet(fake, bot)
        assert "Replay" in labels(table)

        # The end screen's Replay: only its presser sees it, from the deal.
        own = await fake.click(cat, table, label="Replay")
        assert own.ephemeral, own.text
        viewer = own.response
        assert viewer is not None and "Replay:" in viewer.text and "The deal" in viewer.text
        assert labels(viewer) == {
            "First": False,
            "Back": False,
            "Next": True,
            "Last": True,
            "Show hands": True,
        }
        assert all(custom_id_is_safe(cid) for cid in custom_ids(viewer))

        # /match replay: the same, for the channel.
        posted = await fake.slash(ann, world.channel, "match replay")
        assert not posted.ephemeral and posted.response is not None, posted.text
        public = posted.response
        replay = await bot.service.replays.get(match_id)
        assert f"The deal ({replay.last} moves follow)" in public.text

        stepped = await fake.click(bob, public, label="Next")
        assert stepped.record.acknowledged and not stepped.followups
        assert f"Move 1 of {replay.last}" in public.text and public.text.count(f"1 of {replay.last}") == 1
        for event in replay.step(1).events:
            assert public.text.count(event) == 1, "the move's events once, not again as Last moves"
        drawn = table_png("crown", replay.step(1).view) is not None
        assert bool(public.attachments) == drawn, "a running step shows the table's picture, if drawn"

        await fake.click(bob, public, label="Last")
        assert "finished" in public.text and "🏆" in public.text
        assert labels(public)["Next"] is False and labels(public)["Last"] is False
        await fake.click(bob, public, label="Back")
        assert f"Move {replay.last - 1} of {replay.last}" in public.text
        await fake.click(bob, public, label="First")
        assert "The deal" in public.text

        # Hands stay hidden until a player of the match shows them.
        assert field(public, "Hands") is None
        outsider = await fake.click(cat, public, label="Show hands")
        assert outsider.ephemeral and one_sentence(outsider.text) and "Only the players" in outsider.text
        assert field(public, "Hands") is None
        await fake.click(bob, public, label="Show hands")
        hands = field(public, "Hands")
        assert hands is not None and "ann" in hands and "bob" in hands
        await fake.click(cat, public, label="Next")  # shown hands stay shown for whoever steps
        assert field(public, "Hands") is not None and "Move 1" in public.text
        await fake.click(cat, public, label="Hide hands")
        assert field(public, "Hands") is None


async def test_a_replay_jumps_to_a_hand_and_refuses_what_it_cannot_show(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        # a King's Court match with many rounds, played by the service
        match_id = await play_out(
            bot.service, "court", world.channel.id, guild_id=world.guild.id, host_id=ann.id, host_name="ann"
        )
        offered = await fake.autocomplete(bob, world.channel, "match replay", focused="match_id", match_id="")
        assert offered and offered[0]["value"] == match_id and "King's Court" in offered[0]["name"]
        posted = await fake.slash(bob, world.channel, "match replay", match_id=match_id)
        public = posted.response
        assert public is not None and not posted.ephemeral
        replay = await bot.service.replays.get(match_id)
        sections = replay.sections()
        assert len(sections) > 1
        select = public.find_select(f"kg:rps:{match_id}:0")
        assert len(select.options) == min(len(sections), 25)
        await fake.select(bob, public, select.custom_id, [str(sections[1].first)])
        assert f"Move {sections[1].first} of" in public.text and sections[1].label in public.text

        # Refusals: one sentence each, nothing posted.
        missing = await fake.slash(bob, world.channel, "match replay", match_id=99_999)
        assert missing.ephemeral and "no match #99999" in missing.text
        lobby = await bot.service.open_lobby(
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            host_id=ann.id,
            host_name="ann",
            game_id="crown",
        )
        unfinished = await fake.slash(bob, world.channel, "match replay", match_id=lobby.id)
        assert (
            unfinished.ephemeral
            and one_sentence(unfinished.text)
            and "once the match is over" in unfinished.text
        )

        # A replay's buttons act in any channel of its server, and in no other server.
        side = fake.add_channel(world.guild, "side-room")
        away = fake.add_channel(fake.add_guild("Elsewhere"), "tables")
        here = fire_forged(fake, bob, side, f"kg:rp:{match_id}:0:0:n")
        there = fire_forged(fake, bob, away, f"kg:rp:{match_id}:0:0:n")
        picked = fire_forged(fake, bob, away, f"kg:rps:{match_id}:0", component_type=3, values=["0"])
        await acknowledged(fake, [here, there, picked])
        assert here.callback_type == UPDATE_MESSAGE and f"Move 1 of {replay.last}" in answer_text(here)
        for refused in (there, picked):
            flags = ((refused.callback or {}).get("data") or {}).get("flags", 0)
            assert flags & EPHEMERAL and "another server" in answer_text(refused), answer_text(refused)
