"""/help through the fake Discord: an ephemeral guide whose every page its buttons reach,
within Discord's limits, still answering after a restart; the lobby and the bot's first
message in a new server point to it."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from bot.games import EXAMPLES, GAMES
from bot.ui.help import WELCOME, in_words, pages
from bot.ui.party import party_games
from tests.e2e_support import World, custom_id_is_safe, custom_ids, error_records, make_bot, world
from tests.fakediscord.models import walk_components

pytestmark = pytest.mark.asyncio
__all__ = ["world"]


def embed_size(embed: dict[str, Any]) -> int:
    """Discord's count for the 6,000-character limit of a message's embeds."""
    fields = embed.get("fields") or []
    return (
        len(embed.get("title") or "")
        + len(embed.get("description") or "")
        + len((embed.get("footer") or {}).get("text") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    )


def check_limits(message: Any) -> None:
    [embed] = message.embeds
    assert len(embed.get("title") or "") <= 256
    assert len(embed.get("description") or "") <= 4096
    assert embed_size(embed) <= 6000
    components = list(walk_components(message.components))
    interactive = [c for c in components if c.get("type") != 1]
    rows = [c for c in components if c.get("type") == 1]
    assert len(interactive) <= 25 and len(rows) <= 5
    assert all(len(row.get("components") or []) <= 5 for row in rows)
    ids = custom_ids(message)
    assert len(ids) == len(set(ids)), "custom ids are unique within the message"
    assert all(len(c) <= 100 and custom_id_is_safe(c) for c in ids), ids
    assert all(len(b.label or "") <= 80 for b in message.buttons)


async def test_every_page_of_the_guide_is_reachable_by_its_buttons(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    fake = world.fake
    ann, bob = world.users[:2]
    expected = pages()
    async with fake.bot_running(make_bot(world)):
        assert "help" in [c["name"] for c in fake.commands]
        guide = await fake.slash(ann, world.channel, "help")
        assert guide.ephemeral, "only the one who asked sees the guide"
        message = guide.response
        assert message.visible_for(ann.id) and not message.visible_for(bob.id)
        assert "Guide: Getting started" in message.text and f"Page 1 of {len(expected)}" in message.text
        assert "/help" in message.text and "/play" in message.text
        seen: dict[int, str] = {0: message.text}
        # Walk the pages by the buttons, from every page to every page it offers.
        to_visit = [0]
        while to_visit:
            page = to_visit.pop()
            if f"Page {page + 1} of" not in message.text:
                await fake.click(ann, message, f"kg:help:{page}")
            for button in list(message.buttons):
                target = int(button.custom_id.rsplit(":", 1)[1])
                if button.disabled:
                    assert target == page, "the current page's button is the disabled one"
                    continue
                turned = await fake.click(ann, message, button.custom_id)
                assert turned.callback_type == 7, "the page turns in place (no new message)"
                assert f"Page {target + 1} of {len(expected)}" in message.text
                assert message.ephemeral
                check_limits(message)
                if target not in seen:
                    seen[target] = message.text
                    to_visit.append(target)
                # back to the page being walked
                back = await fake.click(ann, message, f"kg:help:{page}")
                assert back.callback_type == 7 and f"Page {page + 1} of" in message.text
        assert sorted(seen) == list(range(len(expected))), "every page is reachable"
        titles = [page.title for page in expected]
        for index, text in seen.items():
            assert f"Guide: {titles[index]}" in text
        for game in GAMES.values():
            [index] = [i for i, p in enumerate(expected) if p.title == game.name]
            assert f"/rules game:{game.id}" in seen[index], game.id
            assert game.name in seen[1], "the games at a glance name every game"
        for topic in (
            "Playing a turn",
            "AI levels",
            "Parties",
            "Leaderboards and seasons",
            "Server settings",
        ):
            assert topic in titles
        assert not [m for m in fake.messages(world.channel) if not m.ephemeral], "nothing public"
    fake.assert_clean()
    assert error_records(caplog.records) == []


async def test_the_guide_counts_the_games_of_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sixth game needs no edit of the guide: the count in words, the games page and a page
    of its own all follow the registry (here with the example game added to it)."""
    assert (in_words(5), in_words(6), in_words(12)) == ("five", "six", "12")
    now = in_words(len(GAMES))
    before = pages()
    assert before[1].title == f"The {now} games at a glance"
    assert f"deals {now} King card games" in before[0].text and f"I deal {now} King card games" in WELCOME
    [parties] = [p for p in before if p.title == "Parties"]
    assert all(GAMES[g].name in parties.text for g in party_games()), "the party games, from the registry"
    example = EXAMPLES["highcard"]
    monkeypatch.setitem(GAMES, example.id, example)
    after = pages()
    more = in_words(len(GAMES))
    assert more != now and len(after) == len(before) + 1
    assert (after[1].label, after[1].title) == (f"The {more} games", f"The {more} games at a glance")
    assert f"deals {more} King card games" in after[0].text
    assert f"**{example.name}**" in after[1].text
    [page] = [p for p in after if p.title == example.name]
    assert f"/rules game:{example.id}" in page.text and example.summary in page.text


async def test_the_guide_answers_after_a_restart_and_the_lobby_points_to_it(world: World) -> None:
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world)):
        guide = await fake.slash(ann, world.channel, "help")
        lobby = await fake.slash(ann, world.channel, "play", game="four")
        assert "/help" in lobby.text, "the lobby's text points to the guide"
    async with fake.bot_running(make_bot(world)):
        turned = await fake.click(ann, guide.response, "kg:help:3")
        assert turned.callback_type == 7 and "Page 4 of" in guide.response.text
    fake.assert_clean()


async def test_a_server_that_adds_the_bot_gets_one_message_pointing_to_help(world: World) -> None:
    fake = world.fake
    async with fake.bot_running(make_bot(world)):
        # A new server, with a channel, announced to the running bot as a join.
        broadcast = fake._broadcast
        fake._broadcast = lambda *args, **kwargs: None  # type: ignore[method-assign]
        try:
            guild = fake.add_guild("Newcomers")
            channel = fake.add_channel(guild, "general")
        finally:
            fake._broadcast = broadcast  # type: ignore[method-assign]
        joined = fake._guild_create_payload(guild)
        del joined["unavailable"]  # as Discord sends a join (a guild coming back says False)
        fake._broadcast("GUILD_CREATE", joined)
        await fake.wait_for(lambda: bool(fake.messages(channel)), what="the welcome message")
        [hello] = fake.messages(channel)
        assert "/help" in hello.text and not hello.ephemeral
        assert json.dumps(hello.components) == "[]"
        await fake.settle()
        assert len(fake.messages(channel)) == 1
    fake.assert_clean()
