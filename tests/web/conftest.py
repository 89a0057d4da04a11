"""A server with results, champions and a finished match, its web pages turned on, and the
web application on a test client (on SQLite and on PostgreSQL)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import MatchService
from bot.service.web import WebPages
from bot.web.app import make_app
from db.records import MatchStatus, MatchUpdate, ResultRow, Seat
from db.repository import Repository
from tests import played
from tests.postgres import BACKENDS, database_url, postgres_server

__all__ = ["postgres_server"]

GUILD, OTHER = 5001, 6002
HOST = 100
ANN, BOB, CAT = 11, 12, 13
NAMES = {ANN: "Ann of the Hills", BOB: "Bob <b>", CAT: "Cat"}
_channels = count(1)


async def finish(repo: Repository, guild: int, places: dict[int, int], game: str = "four") -> int:
    """A finished match with these players and places, stored through the finishing move."""
    users = list(places)
    rows = tuple(ResultRow(i, u, False, places[u], places[u] * 3, None) for i, u in enumerate(users))
    m = await repo.create_match(
        guild_id=guild,
        channel_id=next(_channels),
        host_id=users[0],
        game_id=game,
        options={},
        seats=[Seat(u, NAMES[u]) for u in users],
        seed=1,
    )
    m = await repo.start_match(m.id, m.version, state={}, seats=m.seats, deadline_at=None, deadline=None)
    await repo.apply_move(
        MatchUpdate(m.id, m.version, {}, 0, users[0], "end", {}, status=MatchStatus.FINISHED, results=rows)
    )
    return m.id


async def play_out(svc: MatchService, guild: int, game_id: str = "dreams") -> int:
    """A real match: the host (Ann) plays their first legal move whenever asked, AI the rest."""
    return await played.play_out(
        svc, game_id, next(_channels), guild_id=guild, host_id=ANN, host_name=NAMES[ANN]
    )


@dataclass
class Site:
    repo: Repository
    service: MatchService
    client: TestClient
    key: str
    played: int  # a real finished match of the server (a replay)
    elsewhere: int  # a real finished match of another server

    def url(self, path: str = "") -> str:
        return f"/s/{self.key}/{path}"


async def build(repo: Repository) -> tuple[MatchService, str, int, int]:
    """The server's data: three players on Kingdom Four in season 1 (closed, with champions)
    and season 2, a real finished match, and another server's results."""
    svc = MatchService(repo, ai_delay=0)
    await finish(repo, GUILD, {ANN: 1, BOB: 2, CAT: 3})
    await finish(repo, GUILD, {BOB: 1, ANN: 2})
    await svc.settings.set_web(GUILD, True, is_admin=True)
    from bot.service.leaderboard import LeaderboardService

    await LeaderboardService(repo).start_season(GUILD, "Spring", is_admin=True)
    await finish(repo, GUILD, {ANN: 1, CAT: 2})
    await finish(repo, GUILD, {ANN: 1, BOB: 2, CAT: 3})
    await finish(repo, GUILD, {CAT: 1, ANN: 2})
    await finish(repo, OTHER, {ANN: 1, BOB: 2}, game="crown")
    played = await play_out(svc, GUILD)
    elsewhere = await play_out(svc, OTHER)
    key = await svc.settings.web_key(GUILD)
    assert key is not None
    return svc, key, played, elsewhere


@asynccontextmanager
async def running_site(url: str) -> AsyncIterator[Site]:
    repo = Repository(url)
    await repo.migrate()
    svc, key, played, elsewhere = await build(repo)
    client = TestClient(TestServer(make_app(WebPages(repo))))
    await client.start_server()
    try:
        yield Site(repo, svc, client, key, played, elsewhere)
    finally:
        await client.close()
        await svc.close()
        await repo.close()


@pytest.fixture(params=BACKENDS)
async def site(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Site]:
    async with running_site(database_url(request, tmp_path)) as found:
        yield found


@pytest.fixture
async def local_site(tmp_path: Path) -> AsyncIterator[Site]:
    """The site on SQLite only (for the browser)."""
    async with running_site(f"sqlite:///{tmp_path / 'bot.db'}") as found:
        yield found
