"""End to end through the fake Discord: turn timers, leaving and removing players, races,
refusals of bad input, and the move-log export.

Nothing lost, nothing stuck, nothing leaked: every test here drives the unmodified bot through
the real discord.py client and checks what players receive and what the database keeps.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.games import GAMES
from tests.e2e_support import (
    World,
    acknowledged,
    answer_text,
    custom_ids,
    error_records,
    fire_command,
    fire_component,
    fire_forged,
    make_bot,
    open_match,
    quiet,
    replies,
    world,
)
from tests.fakediscord import FakeMessage, Perm
from tests.fakediscord.models import text_of

pytestmark = pytest.mark.asyncio
__all__ = ["world"]
MATCH_LOGGERS = {f"bot.service.{m}" for m in ("core", "lobby", "matches", "deadlines", "ai_seats")} | {"bot.ui.table"}


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
        assert await bot.service.turn_seconds(world.guild.id) == 86400  # stored, not cached
    fake.assert_clean()


async def test_turn_timer_warns_plays_the_default_then_the_ai_takes_the_seat(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world, turn_seconds=1)) as bot:
        table = await open_match(world, ann, [], options={"variant": "tourney"}, ais=1)
        match_id = (await bot.service.active_in_channel(world.channel.id)).id
        await fake.wait_for(lambda: "finished" in table.text, 15, "the match to end without ann")
        await quiet(fake, bot)
        everything = fake.messages(world.channel, include_deleted=True)
        reminders = [m for m in everything if "⏰" in m.content]
        assert reminders, "a reminder mentions the player before the deadline"
        assert f"<@{ann.id}>" in reminders[0].content and ann.id in reminders[0].mention_ids
        assert not any(m.ephemeral for m in reminders)
        pings = [m for m in everything if m.id != table.id]
        assert all(m.deleted for m in pings), "turn messages and reminders replace each other and go at the end"
        texts = "\n".join((await bot.service.get(match_id)).log())
        assert "ran out of time; the default move was made for them" in texts
        assert "missed 3 deadlines in a row and has left; the AI plays their seat" in texts
        assert "left (the AI finished for them)" in table.text and "🏆 AI 1 wins" in table.text
        moves = await bot.repo.moves(match_id)
        ann_moves = [m for m in moves if m.seat == 0]
        assert [m.user_id for m in ann_moves[:3]] == [None, None, None], "three default moves"
        snap = await bot.service.get(match_id)
        assert snap.seats[0].left and snap.status == "finished"
        results = await bot.repo.results(match_id)
        assert results[0].left and results[0].user_id == ann.id, "the absent player takes a loss"
        late = await fake.slash(ann, world.channel, "hand")
        assert late.ephemeral
    fake.assert_clean()


async def test_a_move_resets_the_missed_count(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world, turn_seconds=1)) as bot:
        await open_match(world, ann, [], options={"variant": "tourney"}, ais=1)
        match_id = (await bot.service.active_in_channel(world.channel.id)).id

        async def missed() -> int:
            return (await bot.service.get(match_id)).seats[0].missed

        for _ in range(60):
            if await missed() >= 1:
                break
            await asyncio.sleep(0.05)
        assert await missed() == 1
        played = await fake.slash(ann, world.channel, "move", move=(await bot.service.get(match_id)).legal_moves(0)[0].code)
        assert played.ephemeral and "You played: Pick" in played.text, played.text
        assert await missed() == 0
        await bot.service.cancel(match_id, ann.id, is_admin=True)
    fake.assert_clean()


# --- leaving and removing players ---------------------------------------------------------------


async def test_host_leaving_a_lobby_hands_it_on_and_leave_in_a_match_hands_the_seat_to_the_ai(world: World) -> None:
    fake = world.fake
    ann, bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        table = lobby.response
        await fake.click(bob, table, label="Join")
        await fake.click(cat, table, label="Join")
        left = await fake.slash(ann, world.channel, "leave")
        assert left.ephemeral and "You left the lobby" in left.text
        await fake.wait_for(lambda: "bob is the host now" in table.text or "(host)" in table.text, what="new host")
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap.record.host_id == bob.id and [s.name for s in snap.seats] == ["bob", "cat"]
        not_host = await fake.click(ann, table, label="Start")
        assert not_host.ephemeral and "Only the host" in not_host.text
        started = await fake.click(bob, table, label="Start")
        assert started.callback_type in (6, 7), started.text
        await fake.wait_for(lambda: "My hand" in [b.label for b in table.buttons], what="the table")
        left = await fake.slash(cat, world.channel, "leave")
        assert left.ephemeral and "the AI plays your seat" in left.text
        again = await fake.slash(cat, world.channel, "hand")
        assert again.ephemeral
        move = await fake.slash(cat, world.channel, "move", move="pick:K")
        assert move.ephemeral and "left this match" in move.text
        await quiet(fake, bot)
        snap = await bot.service.get(snap.id)
        assert snap.seats[1].left and "left, AI plays" in table.text
        await bot.service.cancel(snap.id, bob.id, is_admin=False)
    fake.assert_clean()


async def test_host_or_manage_server_removes_a_player_who_takes_a_loss(world: World) -> None:
    fake = world.fake
    ann, bob, cat, dan, eve = world.users
    fake.set_permissions(eve, manage_guild=True)
    async with fake.bot_running(make_bot(world)) as bot:
        # In a lobby the seat simply goes.
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        table = lobby.response
        for user in (bob, cat, dan):
            await fake.click(user, table, label="Join")
        refused = await fake.slash(bob, world.channel, "match kick", user=cat)
        assert refused.ephemeral and "Only the host can remove a player" in refused.text
        kicked = await fake.slash(ann, world.channel, "match kick", user=dan)
        assert kicked.ephemeral and "removed from the lobby" in kicked.text
        await fake.wait_for(lambda: "dan" not in table.text.split("Options")[0], what="dan gone from the lobby")
        self_kick = await fake.slash(ann, world.channel, "match kick", user=ann)
        assert self_kick.ephemeral and "/leave" in self_kick.text
        nobody = await fake.slash(ann, world.channel, "match kick", user=eve)
        assert nobody.ephemeral and "no seat" in nobody.text
        await fake.select(ann, table, table.selects[0].custom_id, ["tourney"])
        await fake.click(ann, table, label="Leave")  # ann leaves: bob hosts a two-player tourney
        await fake.wait_for(lambda: "bob is the host now" in table.text or "(host)" in table.text, what="new host")
        assert (await bot.service.active_in_channel(world.channel.id)).record.host_id == bob.id
        await fake.click(bob, table, label="Start")
        await fake.wait_for(lambda: "My hand" in [b.label for b in table.buttons], what="the table")
        match_id = (await bot.service.active_in_channel(world.channel.id)).id

        # In a running match: Manage Server (not seated, not host) removes cat; the AI plays on.
        removed = await fake.slash(eve, world.channel, "match kick", user=cat)
        assert removed.ephemeral and "the AI plays their seat" in removed.text, removed.text
        gone = await fake.slash(cat, world.channel, "move", move="pick:K")
        assert gone.ephemeral and "AI plays your seat" in gone.text
        hand = await fake.click(bob, table, label="My hand")
        while True:
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            if 0 not in snap.to_act():
                await quiet(fake, bot)
                continue
            played = await fake.slash(bob, world.channel, "move", move=snap.legal_moves(0)[0].code)
            assert played.ephemeral
            await quiet(fake, bot)
        results = await bot.repo.results(match_id)
        assert results[1].user_id == cat.id and results[1].left and not results[1].is_ai
        assert hand.ephemeral
        assert "cat was removed from the match; the AI plays their seat." in history(table)
    fake.assert_clean()


# --- races --------------------------------------------------------------------------------------


async def _one_move_per_version(bot, match_id: int) -> None:
    moves = await bot.repo.moves(match_id)
    versions = [m.version for m in moves]
    assert len(versions) == len(set(versions)), f"two moves for one version: {versions}"


async def test_a_double_click_plays_once_and_the_second_click_gets_a_fresh_hand(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], options={"variant": "tourney"})
        match_id = (await bot.service.active_in_channel(world.channel.id)).id
        hand = await fake.click(ann, table, label="My hand")
        button = hand.find_button("Pick King (5)")
        first, second = await asyncio.gather(
            fake.click(ann, hand.response, button.custom_id), fake.click(ann, hand.response, button.custom_id)
        )
        texts = sorted([answer_text(first.record), answer_text(second.record)], key=lambda t: "You played" not in t)
        assert "You played: Pick King (5)" in texts[0]
        assert "out of date" in texts[1] or "moved first" in texts[1], texts[1]
        assert first.ephemeral and second.ephemeral
        moves = await bot.repo.moves(match_id)
        assert [m.code for m in moves] == ["pick:K"]
        await _one_move_per_version(bot, match_id)
    fake.assert_clean()


async def test_two_players_clicking_at_once_apply_one_move_per_version(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], options={"variant": "tourney"})
        match_id = (await bot.service.active_in_channel(world.channel.id)).id
        refused_total = 0
        for _round in range(12):
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            hands = await asyncio.gather(*(fake.click(u, table, label="My hand") for u in (ann, bob)))
            clicks = []
            for user, hand in zip((ann, bob), hands):
                moves = [b for b in hand.buttons if b.custom_id.startswith("kg:m:")]
                if moves:
                    clicks.append(fake.click(user, hand.response, moves[0].custom_id))
            results = await asyncio.gather(*clicks)
            played = [r for r in results if "You played" in answer_text(r.record)]
            refused = [r for r in results if "You played" not in answer_text(r.record)]
            assert len(played) >= 1, [answer_text(r.record) for r in results]
            for r in refused:
                text = answer_text(r.record)
                assert r.ephemeral
                assert "moved first" in text or "out of date" in text, text
                assert "Your hand:" in text, "a fresh hand comes with it"
            refused_total += len(refused)
            await quiet(fake, bot)
        await _one_move_per_version(bot, match_id)
        assert refused_total >= 1, "simultaneous clicks at one version: exactly one applies"
        await fake.wait_for(lambda: "finished" in table.text or "in play" in table.text, what="the table")
    fake.assert_clean()


async def test_an_old_button_is_never_applied_to_the_new_state(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], options={"variant": "tourney"})
        match_id = (await bot.service.active_in_channel(world.channel.id)).id
        old_hand = await fake.click(ann, table, label="My hand")
        await fake.slash(ann, world.channel, "move", move="pick:K")
        await fake.slash(bob, world.channel, "move", move="pick:B")
        await quiet(fake, bot)
        before = await bot.service.get(match_id)
        # Ann no longer holds the King; position 0 of her old list was the King.
        stale = await old_hand.click("Pick Dragon (4)", user=ann)
        assert stale.ephemeral and "out of date" in stale.text
        after = await bot.service.get(match_id)
        assert after.version == before.version and after.record.state == before.record.state
        await bot.service.cancel(match_id, ann.id, is_admin=False)
    fake.assert_clean()


# --- bad input ----------------------------------------------------------------------------------


async def test_bad_input_gets_one_ephemeral_sentence_and_changes_nothing(world: World, caplog) -> None:
    caplog.set_level(logging.INFO)
    fake = world.fake
    ann, bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], options={"variant": "tourney"})
        snap = await bot.service.active_in_channel(world.channel.id)
        before = (snap.version, snap.record.state)
        mid, ver = snap.id, snap.version
        ch = world.channel
        gone = "That button is no longer valid."
        stale = "out of date"
        cases = [
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
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:{ver}:0.999.3", ephemeral=True), "not available any more"),
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:{ver + 5}:0", ephemeral=True), stale),
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:{max(ver - 1, 0)}:0", ephemeral=True), stale),
            (fire_forged(fake, ann, ch, f"kg:m:{mid}:999999999:0", ephemeral=True), stale),
            (fire_forged(fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=["77"], ephemeral=True), "not available"),
            (fire_forged(fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=["-1"], ephemeral=True), "not available"),
            (fire_forged(fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=["x"], ephemeral=True), "not available"),
            (fire_forged(fake, ann, ch, f"kg:ms:{mid}:{ver}:", component_type=3, values=[], ephemeral=True), "not available"),
            (fire_forged(fake, ann, ch, f"kg:lobby:{mid}:start"), "lobby is closed"),
            (fire_forged(fake, cat, ch, f"kg:lobby:{mid}:join"), "lobby is closed"),
            (fire_forged(fake, cat, ch, f"kg:lobby:{mid}:zzz"), "not one of ours"),
            (fire_forged(fake, bob, ch, f"kg:opt:{mid}:variant", component_type=3, values=["poker"]), "lobby is closed"),
            (fire_forged(fake, bob, ch, f"kg:lb:{world.guild.id}:nogame:1:1:n"), ""),
            # options no menu offers: unknown cards, out-of-range numbers, unknown choices
            (fire_command(fake, ann, ch, "move", [{"name": "move", "type": 3, "value": "Joker"}]), "not one of your moves"),
            (fire_command(fake, ann, ch, "move", [{"name": "move", "type": 3, "value": "pick:Q"}]), "not one of your moves"),
            (fire_command(fake, ann, ch, "move", [{"name": "move", "type": 3, "value": ""}]), "Choose which one"),
            (fire_command(fake, ann, ch, "crown pick", [{"name": "card", "type": 3, "value": "Joker"}]), "not one of your moves"),
            (fire_command(fake, cat, ch, "crown pick", [{"name": "card", "type": 3, "value": "K"}]), "not seated"),
            (fire_command(fake, ann, ch, "crown reveal", [{"name": "place", "type": 3, "value": "9"}]), "cannot do that right now"),
            (fire_command(fake, ann, ch, "crown beggar", [{"name": "choice", "type": 3, "value": "dance"}]), "cannot do that right now"),
            (fire_command(fake, ann, ch, "play", [{"name": "game", "type": 3, "value": "poker"}]), "not one this option accepts"),
            (fire_command(fake, ann, ch, "rules", [{"name": "game", "type": 3, "value": "poker"}]), "not one this option accepts"),
            (fire_command(fake, ann, ch, "config", [{"name": "turn_timer", "type": 3, "value": "-5"}]), "not one this option accepts"),
            (fire_command(fake, ann, ch, "match log", [{"name": "match_id", "type": 4, "value": 10**15}]), "no longer exists"),
            (fire_command(fake, ann, ch, "match log", [{"name": "match_id", "type": 4, "value": -3}]), "no longer exists"),
            (fire_command(fake, ann, ch, "match log"), "once the match is over"),
            (fire_command(fake, ann, ch, "leaderboard", [{"name": "game", "type": 3, "value": "poker"}]), "not one this option accepts"),
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
            assert first.strip().endswith((".", "!", "?")) and first.count(". ") == 0, (rec.description, first)
        after = await bot.service.get(snap.id)
        assert (after.version, after.record.state) == before, "bad input changed the match"
        assert error_records(caplog.records) == []
    fake.assert_clean()


async def test_another_games_command_in_this_channel_is_refused(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        await open_match(world, ann, [bob], options={"variant": "tourney"})
        snap = await bot.service.active_in_channel(world.channel.id)
        others = [c for c in fake.commands if c["name"] in GAMES and c["name"] != "crown"]
        if not others:
            pytest.skip("only one game with its own commands is registered")
        for cmd in others:
            sub = next((o for o in cmd.get("options", []) if o.get("type") == 1), None)
            if sub is None:
                continue
            options = [
                {"name": o["name"], "type": o["type"], "value": (o.get("choices") or [{"value": "x"}])[0]["value"]}
                for o in sub.get("options", [])
                if o.get("required") and o["type"] == 3
            ]
            rec = fire_command(fake, ann, world.channel, f"{cmd['name']} {sub['name']}", options)
            await acknowledged(fake, [rec])
            (answer,) = replies(fake, rec)
            assert answer.ephemeral and "The match in this channel is King and Crown" in answer.text, answer.text
        assert (await bot.service.get(snap.id)).version == snap.version
    fake.assert_clean()


async def test_a_deleted_table_message_is_posted_again(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], options={"variant": "tourney"})
        fake._delete_message(table)
        hand = await fake.slash(ann, world.channel, "hand")
        assert hand.ephemeral
        played = await hand.click("Pick King (5)", user=ann)
        assert played.ephemeral and "You played" in played.text
        await quiet(fake, bot)
        tables = [m for m in fake.messages(world.channel) if any(b.label == "My hand" for b in m.buttons)]
        assert len(tables) == 1 and tables[0].id != table.id
        new_table = tables[0]
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap.record.message_id == new_table.id
        again = await fake.click(bob, new_table, label="My hand")
        assert again.ephemeral and "Pick" in " ".join(b.label for b in again.buttons)
    # The one refusal: the edit that told the bot the table was gone.
    assert [(m, e["code"]) for m, _, e in fake.rejections] == [("PATCH", 10008)]
    fake.rejections.clear()
    fake.assert_clean()


async def test_missing_channel_permissions_are_named_in_one_sentence(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    muted = fake.add_channel(world.guild, "read-only")
    bot_role = world.guild.roles[world.guild.bot_role_id]
    everyone = world.guild.everyone_role
    old = (bot_role.permissions, everyone.permissions)
    bot_role.permissions &= ~(Perm.SEND_MESSAGES | Perm.EMBED_LINKS)
    everyone.permissions &= ~(Perm.SEND_MESSAGES | Perm.EMBED_LINKS)
    try:
        async with fake.bot_running(make_bot(world)) as bot:
            refused = await fake.slash(ann, muted, "play", game="crown")
            assert refused.ephemeral
            assert refused.text == (
                "I cannot host a match in this channel: I am missing the Send Messages and Embed Links permission here."
            )
            assert await bot.service.active_in_channel(muted.id) is None
    finally:
        bot_role.permissions, everyone.permissions = old
    fake.assert_clean()


# --- the move log -------------------------------------------------------------------------------


async def test_the_move_log_is_exported_once_the_match_is_over_by_host_or_manage_server(world: World, caplog) -> None:
    caplog.set_level(logging.INFO)
    fake = world.fake
    ann, bob, cat, dan = world.users[:4]
    fake.set_permissions(dan, manage_guild=True)
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob], options={"variant": "defend"})
        early = await fake.slash(ann, world.channel, "match log")
        assert early.ephemeral and "once the match is over" in early.text
        for _ in range(2):
            await fake.slash(ann, world.channel, "crown pick", card="K")
            await fake.slash(bob, world.channel, "crown pick", card="B")
        await fake.wait_for(lambda: "finished" in table.text, what="the end")
        match_id = (await bot.service.repo.latest_in_channel(world.channel.id)).id
        stranger = await fake.slash(cat, world.channel, "match log")
        assert stranger.ephemeral and "Only the host" in stranger.text
        loser = await fake.slash(bob, world.channel, "match log", match_id=match_id)
        assert loser.ephemeral and "Only the host" in loser.text
        for user in (ann, dan):
            exported = await fake.slash(user, world.channel, "match log")
            assert exported.ephemeral and f"Move log of match #{match_id} (4 moves)" in exported.text
            (attachment,) = exported.response.attachments
            assert attachment["filename"] == f"match-{match_id}.json" and attachment["size"] > 100
        elsewhere = fake.add_channel(world.guild, "elsewhere")
        other = await fake.slash(ann, elsewhere, "match log", match_id=match_id)
        assert other.ephemeral and "no longer exists" in other.text
        data = await bot.service.export_log(channel_id=world.channel.id, match_id=None, user_id=ann.id, is_admin=False)
        # Seed + moves replay the match exactly: the bug report is enough to reproduce it.
        game = GAMES[data["game"]]
        state = game.setup(len(data["seats"]), data["seed"], data["options"])
        for move in data["moves"]:
            state, _ = game.apply(state, move["seat"], move["move"])
        final = await bot.service.get(match_id)
        assert game.dump(state) == final.record.state
        assert [m["by"] for m in data["moves"]] == ["player"] * 4
        # Every log line about a match names it, so a bug report can be matched to its log.
        service_lines = [r.getMessage() for r in caplog.records if r.name in MATCH_LOGGERS]
        about = [line for line in service_lines if "restored" not in line]
        assert about and all(line.startswith(f"match {match_id}:") for line in about), about
        assert all(str(match_id) in cid for cid in custom_ids(table))
    fake.assert_clean()
