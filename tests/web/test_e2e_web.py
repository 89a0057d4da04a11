"""The running bot serves the pages (``WEB_PORT``) beside the fake Discord: nothing for a
server until someone with Manage Server turns them on, then the pages, and links from
``/leaderboard``, ``/config`` and the finished table; off again, nothing."""

from __future__ import annotations

import re

import aiohttp

from bot.app import KingBot
from bot.settings import Settings
from tests.e2e.test_e2e_leaderboard import World, play_defend, world

__all__ = ["world"]
WEB_URL = "https://kings.test/games"


def make_bot(world: World) -> KingBot:
    return KingBot(
        Settings(
            token=world.fake.token,
            database_url=world.db_url,
            ai_delay=0,
            sync_commands=True,
            table_edit_seconds=0,
            web_port=0,  # a free port
            web_url=WEB_URL,
        )
    )


async def test_pages_are_served_for_a_server_that_turned_them_on(world: World) -> None:
    fake = world.fake
    async with fake.bot_running(make_bot(world)) as bot, aiohttp.ClientSession() as http:
        assert bot.web is not None and bot.web.port
        local = f"http://127.0.0.1:{bot.web.port}"
        await play_defend(world, world.channel, world.ann, world.bob)
        board = await fake.slash(world.bob, world.channel, "leaderboard", game="crown")
        assert board.response is not None and "url" not in board.response.embeds[0]  # off by default
        shown = await fake.slash(world.bob, world.channel, "config")
        assert "**off**" in shown.text
        refused = await fake.slash(world.bob, world.channel, "config", web=True)
        assert refused.ephemeral and "Manage Server" in refused.text

        on = await fake.slash(world.ann, world.channel, "config", web=True)
        assert on.ephemeral
        found = re.search(rf"{re.escape(WEB_URL)}/s/([\w-]{{24}})/", on.text)
        assert found is not None, on.text
        key = found.group(1)
        board = await fake.slash(world.bob, world.channel, "leaderboard", game="crown")
        assert board.response is not None
        assert board.response.embeds[0]["url"] == f"{WEB_URL}/s/{key}/board/crown?season=1"
        await play_defend(world, world.channel, world.bob, world.ann)
        latest = await bot.repo.latest_in_channel(world.channel.id)
        assert latest is not None
        match_id = latest.id
        table = next(m for m in fake.messages(world.channel) if f"#{match_id}: finished" in m.text)
        assert table.embeds[0]["url"] == f"{WEB_URL}/s/{key}/match/{match_id}"

        async with http.get(f"{local}/s/{key}/board/crown") as response:
            assert response.status == 200
            assert "King and Crown leaderboard" in await response.text()
        async with http.get(f"{local}/s/{key}/match/{match_id}?step=99") as response:
            assert response.status == 200 and "finished" in await response.text()

        await fake.slash(world.ann, world.channel, "config", web=False)
        async with http.get(f"{local}/s/{key}/board/crown") as response:
            assert response.status == 404 and await response.text() == ""
    fake.assert_clean()
