"""Draws the README's picture of a player's web page again (``docs/images/web-player.png``):
``python -m tests.web.readme_screenshot``. A made-up server where Ann of the Hills played 38
matches of two games over two seasons, served as the bot serves it and shot in the system's
Chromium down to the rating chart's caption."""

from __future__ import annotations

import asyncio
import random
import tempfile

from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import async_playwright

from bot.service import MatchService
from bot.service.leaderboard import LeaderboardService
from bot.service.web import WebPages
from bot.web.app import make_app
from db.repository import Repository
from tests.web import conftest as c
from tests.web.browser import ARGS, chromium_path

OUT = "docs/images/web-player.png"
WIDTH = 1040


async def main() -> None:
    folder = tempfile.mkdtemp()
    repo = Repository(f"sqlite:///{folder}/shot.db")
    await repo.migrate()
    c.NAMES.update({14: "Dan", 15: "Eve", 16: "Fay"})
    rng = random.Random(4)
    players = [c.ANN, c.BOB, c.CAT, 14, 15, 16]

    def places(edge: float) -> dict[int, int]:
        """A match of 3 or 4 with Ann, who places better by ``edge``."""
        who = [c.ANN, *rng.sample(players[1:], rng.choice((3, 4)) - 1)]
        order = sorted(who, key=lambda u: rng.random() - (edge if u == c.ANN else 0))
        return {u: i + 1 for i, u in enumerate(order)}

    for _ in range(12):
        await c.finish(repo, c.GUILD, places(0.1))
    await LeaderboardService(repo).start_season(c.GUILD, "Spring", is_admin=True)
    for _ in range(18):
        await c.finish(repo, c.GUILD, places(0.35))
    for _ in range(8):
        await c.finish(repo, c.GUILD, places(0.2), game="dynasty")
    svc = MatchService(repo, ai_delay=0)
    key = await svc.settings.set_web(c.GUILD, True, is_admin=True)
    client = TestClient(TestServer(make_app(WebPages(repo))))
    await client.start_server()
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=chromium_path(), args=ARGS)
            page = await browser.new_page(viewport={"width": WIDTH, "height": 800})
            await page.goto(str(client.make_url(f"/s/{key}/player/{c.ANN}")))
            chart = page.locator("figure.chart")
            await chart.wait_for()
            box = await chart.bounding_box()
            assert box is not None
            clip = {"x": 0, "y": 0, "width": WIDTH, "height": box["y"] + box["height"] + 10}
            await page.screenshot(path=OUT, full_page=True, clip=clip)  # type: ignore[arg-type]
            await browser.close()
    finally:
        await client.close()
        await svc.close()
        await repo.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
