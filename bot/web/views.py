"""The pages of a server: its home, leaderboards, players, seasons and finished matches.

/s/<key>/                       the games' boards and the seasons
/s/<key>/board/<game>           a board: ?season=N&page=P&sort=COLUMN&order=asc|desc
/s/<key>/player/<user id>       a player's record, skill and rating chart
/s/<key>/seasons                every season and its champions
/s/<key>/match/<id>             a finished match's replay: ?step=N
/s/<key>/match/<id>/<step>.png  the table's picture at that step
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from bot.games import GAMES
from bot.images import table_png
from bot.service import MatchStatus
from bot.service.errors import ServiceError
from bot.service.web import SORTS, WebPages
from bot.ui import render
from bot.ui.leaderboard import RULES_NOTE, points_text
from bot.ui.replay import move_lines, section_window
from bot.web import text
from bot.web.chart import rating_chart
from bot.web.keys import PAGES, ROOT, TEMPLATES

PICTURE_CACHE = "private, max-age=86400"  # a finished match's table never changes


def add_routes(app: web.Application) -> None:
    app.router.add_get("/s/{key}/", home)
    app.router.add_get("/s/{key}/board/{game}", board)
    app.router.add_get("/s/{key}/player/{user:[0-9]{1,20}}", player)
    app.router.add_get("/s/{key}/seasons", seasons)
    app.router.add_get("/s/{key}/match/{match:[0-9]{1,12}}", match)
    app.router.add_get("/s/{key}/match/{match:[0-9]{1,12}}/{step:[0-9]{1,6}}.png", picture)


def _pages(request: web.Request) -> WebPages:
    return request.app[PAGES]


async def _guild(request: web.Request) -> int:
    guild = await _pages(request).guild_of(request.match_info["key"])
    if guild is None:
        raise web.HTTPNotFound()
    return guild


def _number(request: web.Request, name: str, default: int | None = None) -> int | None:
    raw = request.query.get(name, "")
    return int(raw) if raw.isdigit() and len(raw) < 10 else default


def _page(request: web.Request, template: str, title: str, **values: Any) -> web.Response:
    base = f"{request.app[ROOT]}/s/{request.match_info['key']}"
    html = (
        request.app[TEMPLATES].get_template(template).render(title=title, base=base, **values, **text.FILTERS)
    )
    return web.Response(text=html, content_type="text/html")


async def home(request: web.Request) -> web.Response:
    guild = await _guild(request)
    summaries = (await _pages(request).seasons(guild)).summaries
    games = sorted(GAMES.values(), key=lambda g: g.name)
    return _page(request, "home.html", "Leaderboards", games=games, seasons=summaries)


async def board(request: web.Request) -> web.Response:
    guild = await _guild(request)
    pages = _pages(request)
    page = _number(request, "page", 1) or 1
    try:
        named = await pages.board(
            guild,
            request.match_info["game"],
            _number(request, "season"),
            page - 1,
            request.query.get("sort", "skill"),
            request.query.get("order", "desc") != "asc",
        )
    except ServiceError:  # no such game or season
        raise web.HTTPNotFound() from None
    all_seasons = await pages.season_list(guild)
    return _page(
        request,
        "board.html",
        f"{named.page.game_name} leaderboard",
        board=named,
        seasons=all_seasons,
        sorts=SORTS,
        points_text=points_text,
        skill_note=RULES_NOTE,  # the words /leaderboard says skill in
    )


async def player(request: web.Request) -> web.Response:
    guild = await _guild(request)
    found = await _pages(request).player(guild, int(request.match_info["user"]))
    if found is None:
        raise web.HTTPNotFound()
    chart = await asyncio.to_thread(rating_chart, found.curves) if found.curves else None
    return _page(
        request,
        "player.html",
        found.name,
        page=found,
        chart=chart,
        points_text=points_text,
        skill_note=RULES_NOTE,
    )


async def seasons(request: web.Request) -> web.Response:
    guild = await _guild(request)
    found = await _pages(request).seasons(guild)
    return _page(request, "seasons.html", "Seasons and champions", page=found, by_game=text.by_game)


async def match(request: web.Request) -> web.Response:
    guild = await _guild(request)
    replay = await _pages(request).replay(guild, int(request.match_info["match"]))
    if replay is None:
        raise web.HTTPNotFound()
    number = replay.clamp(_number(request, "step", 0) or 0)
    step = replay.step(number)
    embed = render.table_embed(step.snapshot)
    pictured = step.snapshot.status == MatchStatus.RUNNING and await _pages(request).pictures(guild)
    return _page(
        request,
        "match.html",
        f"{replay.game.name} #{replay.id}",
        replay=replay,
        step=step,
        table=text.embed_parts(embed),
        moves=text.markdown(move_lines(replay, step)),
        section=replay.section_of(number),
        sections=section_window(replay, number),
        picture=pictured,
    )


async def picture(request: web.Request) -> web.Response:
    guild = await _guild(request)
    replay = await _pages(request).replay(guild, int(request.match_info["match"]))
    number = int(request.match_info["step"])
    if replay is None or number > replay.last or not await _pages(request).pictures(guild):
        raise web.HTTPNotFound()
    step = replay.step(number)
    if step.snapshot.status != MatchStatus.RUNNING:
        raise web.HTTPNotFound()
    png = await asyncio.to_thread(table_png, replay.game.id, step.view)
    if png is None:
        raise web.HTTPNotFound()
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": PICTURE_CACHE})
