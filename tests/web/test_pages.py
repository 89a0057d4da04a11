"""The web pages through aiohttp's test client: what each page shows, sorting and paging,
the rating curve from the stored results, and 404s that say nothing."""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

from bot.service.leaderboard import LeaderboardService
from bot.service.web import WebPages
from bot.ui.leaderboard import RULES_NOTE
from tests.web.conftest import ANN, CAT, GUILD, NAMES, OTHER, Site


async def text_of(site: Site, path: str, status: int = 200) -> str:
    response = await site.client.get(path)
    assert response.status == status, path
    return await response.text()


def rows(html: str) -> list[str]:
    """The player names of a board's rows, in order."""
    return re.findall(r'<td><a href="[^"]*/player/\d+">([^<]*)</a></td>', html)


async def test_a_board_lists_the_players_by_rank_with_their_stored_names(site: Site) -> None:
    html = await text_of(site, site.url("board/four"))
    assert "Kingdom Four leaderboard" in html
    assert "Spring (season 2, current)" in html
    page = await LeaderboardService(site.repo).board(GUILD, "four")  # the order /leaderboard shows
    assert rows(html) == [escape(NAMES[r.user_id]) for r in page.rows]
    assert "Bob &lt;b&gt;" in html and "Bob <b>" not in html


async def test_a_board_sorts_by_a_column_both_ways_and_pages(site: Site) -> None:
    by_wins = rows(await text_of(site, site.url("board/four?sort=wins&order=asc")))
    assert by_wins[-1] == "Ann of the Hills"  # two wins, the most
    by_played = rows(await text_of(site, site.url("board/four?sort=played")))
    assert by_played[0] == "Ann of the Hills"  # three matches
    assert by_played[1:] == sorted(by_played[1:], key=lambda n: n != "Cat")  # Cat's two before Bob's one
    old = await text_of(site, site.url("board/four?season=1"))
    assert "Season 1 (season 1, ended)" in old and rows(old)[0] == "Bob &lt;b&gt;"  # won the last match
    pages = WebPages(site.repo)
    second = await pages.board(GUILD, "four", None, 1, "skill", True)
    assert second.page.page == 0  # only one page: clamped to the last that exists
    assert "page=" not in (await text_of(site, site.url("board/four"))).split("pager")[1].split("</nav>")[0]


async def test_a_player_page_shows_the_record_skill_and_a_chart_of_the_rating(site: Site) -> None:
    html = await text_of(site, site.url(f"player/{ANN}"))
    assert "<h1>Ann of the Hills</h1>" in html
    assert "Kingdom Four" in html and "#1 of 3" in html
    assert "<svg" in html and "skill (a cautious estimate)" in html
    assert f"match/{site.played}" in html  # the real match, linked to its replay


async def test_the_pages_speak_of_skill_in_players_words_as_discord_does(site: Site) -> None:
    """No Greek letters: skill is told as /leaderboard tells it, its parts as an estimate and
    an uncertainty."""
    paths = ("", "board/four", "board/four?season=1", f"player/{ANN}", "seasons", f"match/{site.played}")
    for path in paths:
        html = await text_of(site, site.url(path))
        assert "μ" not in html and "σ" not in html, path
    board = await text_of(site, site.url("board/four"))
    assert str(escape(RULES_NOTE)) in board, "the board's note is /leaderboard's"
    player = await text_of(site, site.url(f"player/{ANN}"))
    assert "<th>Estimate</th><th>± uncertainty</th>" in player
    assert "a cautious estimate that rises as you play" in player


async def test_the_rating_curve_adds_up_to_the_standing(site: Site) -> None:
    page = await WebPages(site.repo).player(GUILD, ANN)
    assert page is not None
    current = next(c for c in page.curves if c.season.current and c.game_id == "four")
    board = next(b for b in page.stats.boards if b.season.current and b.game_id == "four")
    assert len(current.points) == 1 + board.standing.rated
    assert current.points[0][1] == pytest.approx(0.0)
    assert current.points[-1][1] == pytest.approx(board.standing.ordinal)


async def test_the_seasons_page_shows_the_champions_by_name(site: Site) -> None:
    html = await text_of(site, site.url("seasons"))
    assert "Season 1" in html and "Spring" in html
    assert re.search(r"🥇 <a href=\"[^\"]*/player/12\">Bob &lt;b&gt;</a>", html)


async def test_a_finished_match_replays_step_by_step_with_its_picture(site: Site) -> None:
    html = await text_of(site, site.url(f"match/{site.played}"))
    assert "Step 0 of" in html and "The deal" in html
    last = int(re.search(r"Step 0 of (\d+)", html).group(1))  # type: ignore[union-attr]
    one = await text_of(site, site.url(f"match/{site.played}?step=1"))
    assert "Step 1 of" in one and "Move 1 of" in one
    picture = await site.client.get(site.url(f"match/{site.played}/1.png"))
    assert picture.status == 200 and picture.content_type == "image/png"
    end = await text_of(site, site.url(f"match/{site.played}?step={last + 5}"))
    assert f"Step {last} of {last}" in end and "finished" in end


@pytest.mark.parametrize(
    "path",
    [
        "/s/AAAAAAAAAAAAAAAAAAAAAAAA/",
        "/s/short/",
        "/s/{key}/board/nosuchgame",
        "/s/{key}/board/four?season=99",
        "/s/{key}/player/999",
        "/s/{key}/match/999999",
        "/s/{key}/nothing",
        "/",
    ],
)
async def test_what_does_not_exist_is_a_404_with_nothing(site: Site, path: str) -> None:
    response = await site.client.get(path.format(key=site.key))
    assert response.status == 404
    assert await response.text() == ""


async def test_another_servers_match_and_a_turned_off_server_are_404(site: Site) -> None:
    assert (await site.client.get(site.url(f"match/{site.elsewhere}"))).status == 404
    assert (await site.client.get(site.url(f"match/{site.elsewhere}/1.png"))).status == 404
    assert (await site.client.get(site.url("match/1"))).status == 404  # stored results, no moves to replay
    response = await site.client.get(site.url(f"player/{ANN}"))
    assert response.status == 200
    await site.service.settings.set_web(GUILD, False, is_admin=True)
    for path in ("", "board/four", f"player/{ANN}", f"match/{site.played}"):
        response = await site.client.get(site.url(path))
        assert response.status == 404 and await response.text() == ""
    key = await site.service.settings.set_web(GUILD, True, is_admin=True)
    assert key is not None and key != site.key  # a new address: the old links stay dead
    assert (await site.client.get(f"/s/{key}/board/four")).status == 200
    assert await site.service.settings.web_key(OTHER) is None


async def test_static_files_are_cached_and_pages_are_not(site: Site) -> None:
    page = await site.client.get(site.url())
    assert page.headers["Cache-Control"] == "no-cache"
    assert page.headers["Referrer-Policy"] == "no-referrer"
    href = re.search(r'href="(/static/style.css\?v=\w+)"', await page.text())
    assert href is not None
    css = await site.client.get(href.group(1))
    assert css.status == 200 and "max-age=31536000" in css.headers["Cache-Control"]


async def test_only_manage_server_turns_the_pages_on(site: Site) -> None:
    from bot.service.errors import NotHost

    with pytest.raises(NotHost):
        await site.service.settings.set_web(OTHER, True, is_admin=False)
    assert CAT  # the third player is on every board
