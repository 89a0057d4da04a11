"""The pages in a real browser (headless Chromium): a leaderboard, a player's page with its
chart, and a replay stepped to its end, checked by what a person sees; a screenshot of each
is kept under test-artifacts/."""

from __future__ import annotations

from typing import Any

from tests.web.browser import browser_page, screenshot_path
from tests.web.conftest import ANN, NAMES, Site

__all__ = ["browser_page"]


async def test_a_leaderboard_sorts_when_a_column_is_clicked(local_site: Site, browser_page: Any) -> None:
    page = browser_page
    await page.goto(str(local_site.client.make_url(local_site.url("board/four"))))
    assert await page.locator("h1").inner_text() == "Kingdom Four leaderboard"
    names = await page.locator("table.board tbody td:nth-child(2)").all_inner_texts()
    assert sorted(names) == sorted(NAMES.values())
    assert await page.get_by_text("Bob <b>").count() == 1  # the stored name, shown as text
    await page.screenshot(path=screenshot_path("leaderboard"), full_page=True)
    await page.get_by_role("link", name="Played").click()
    await page.wait_for_url("**sort=played**")
    assert (await page.locator("table.board tbody td:nth-child(2)").all_inner_texts())[0] == NAMES[ANN]
    await page.get_by_role("link", name=NAMES[ANN]).click()
    await page.wait_for_url(f"**/player/{ANN}")
    assert await page.locator("h1").inner_text() == NAMES[ANN]


async def test_a_player_page_draws_the_rating_chart(local_site: Site, browser_page: Any) -> None:
    page = browser_page
    await page.goto(str(local_site.client.make_url(local_site.url(f"player/{ANN}"))))
    assert await page.locator("h1").inner_text() == NAMES[ANN]
    chart = page.locator("figure.chart svg")
    await chart.wait_for()
    box = await chart.bounding_box()
    assert box is not None and box["width"] > 400 and box["height"] > 150  # drawn, not empty
    assert await chart.locator(".series").count() >= 2  # the current and the past season
    assert await page.get_by_text("Kingdom Four · Spring, current").count() >= 1  # the legend
    rows = await page.locator("table.record tbody tr").all_inner_texts()
    assert any("Kingdom Four" in r and "Spring (current)" in r for r in rows)
    await page.screenshot(path=screenshot_path("player"), full_page=True)


async def test_a_replay_steps_forward_and_back_to_its_end(local_site: Site, browser_page: Any) -> None:
    page = browser_page
    await page.goto(str(local_site.client.make_url(local_site.url(f"match/{local_site.played}"))))
    at = page.locator(".steps .at")
    assert (await at.inner_text()).startswith("Step 0 of")
    last = int((await at.inner_text()).split(" of ")[1].split(" ")[0])
    await page.get_by_role("link", name="Next ▶").click()
    await page.wait_for_url("**step=1")
    assert (await at.inner_text()).startswith("Step 1 of")
    picture = page.locator("img.picture")
    await picture.wait_for()
    assert await picture.evaluate("img => img.complete && img.naturalWidth > 0")  # the picture loaded
    await page.screenshot(path=screenshot_path("replay-step-1"), full_page=True)
    await page.get_by_role("link", name="◀ Back").click()
    await page.wait_for_url("**step=0")
    for _ in range(last):  # forward, one step at a time, to the end
        async with page.expect_navigation():
            await page.get_by_role("link", name="Next ▶").click()
    assert await at.inner_text() == f"Step {last} of {last} · The whole match"
    assert "finished" in await page.locator("h1").inner_text()
    assert await page.get_by_text("Final scores").count() == 1
    assert await page.locator(".steps a.next").get_attribute("aria-disabled") == "true"
    await page.screenshot(path=screenshot_path("replay-end"), full_page=True)
