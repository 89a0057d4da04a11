"""Repository: migrations, one transaction per move, stale versions, channel exclusivity."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from db.records import MatchUpdate, ResultRow, Seat
from db.repository import ChannelBusy, Repository, StaleVersion, normalise_url
from tests.postgres import BACKENDS, database_url, postgres_server


@pytest.fixture(params=BACKENDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path):
    """The repository on SQLite and on a real PostgreSQL server (tests/postgres.py)."""
    r = Repository(database_url(request, tmp_path))
    await r.migrate()
    yield r
    await r.close()


async def _running(repo: Repository, channel: int = 2):
    m = await repo.create_match(
        guild_id=1, channel_id=channel, host_id=3, game_id="crown", options={"variant": "defend"},
        seats=[Seat(3, "Ann"), Seat(None, "AI 1", ai=True)], seed=7,
    )
    return await repo.start_match(m.id, m.version, state={"n": 0}, seats=m.seats, deadline_at=None, deadline=None)


def test_urls_get_async_drivers() -> None:
    assert normalise_url("sqlite:///x.db").startswith("sqlite+aiosqlite")
    assert normalise_url("postgresql://u:p@h/db").startswith("postgresql+asyncpg://u:p@h/db")


async def test_migrations_are_idempotent_and_wal(repo: Repository, tmp_path: Path) -> None:
    await repo.migrate()  # a second start applies nothing and loses nothing
    if not repo.is_sqlite:
        return  # the rest reads the SQLite file
    con = sqlite3.connect(tmp_path / "bot.db")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
    assert {"matches", "moves", "results", "alembic_version"} <= tables


async def test_one_active_match_per_channel(repo: Repository) -> None:
    await _running(repo)
    with pytest.raises(ChannelBusy):
        await repo.create_match(guild_id=1, channel_id=2, host_id=4, game_id="crown", options={}, seats=[], seed=1)
    other = await repo.create_match(guild_id=1, channel_id=9, host_id=4, game_id="crown", options={}, seats=[], seed=1)
    assert other.status == "lobby"


async def test_move_is_one_transaction_with_version_and_log(repo: Repository) -> None:
    m = await _running(repo)
    after = await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "pick:K", {"0": ["You picked"]}))
    assert after.version == m.version + 1
    assert after.state == {"n": 1}
    assert after.notes == {"0": ["You picked"]}
    moves = await repo.moves(m.id)
    assert [(mv.version, mv.seat, mv.code) for mv in moves] == [(after.version, 0, "pick:K")]


async def test_stale_version_is_refused_and_writes_nothing(repo: Repository) -> None:
    m = await _running(repo)
    await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "a", {}))
    with pytest.raises(StaleVersion):
        await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 99}, 1, None, "b", {}))
    now = await repo.get_match(m.id)
    assert now is not None and now.state == {"n": 1}
    assert [mv.code for mv in await repo.moves(m.id)] == ["a"]


async def test_concurrent_moves_on_one_version_apply_exactly_once(repo: Repository) -> None:
    m = await _running(repo)
    attempts = [
        repo.apply_move(MatchUpdate(m.id, m.version, {"n": i}, 0, 3, f"m{i}", {})) for i in range(10)
    ]
    outcomes = await asyncio.gather(*attempts, return_exceptions=True)
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(isinstance(o, StaleVersion) for o in outcomes if isinstance(o, Exception))
    assert len(await repo.moves(m.id)) == 1


async def test_finishing_move_stores_results(repo: Repository) -> None:
    m = await _running(repo)
    rows = (ResultRow(0, 3, False, 1, 2, None), ResultRow(1, None, True, 2, 0, None))
    done = await repo.apply_move(
        MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "x", {}, status="finished", results=rows)
    )
    assert done.status == "finished" and done.finished_at is not None
    assert await repo.results(m.id) == list(rows)
    assert await repo.active_in_channel(2) is None


async def test_state_survives_reopening_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    r1 = Repository(url)
    await r1.migrate()
    m = await _running(r1)
    await r1.close()
    r2 = Repository(url)
    await r2.migrate()
    again = await r2.get_match(m.id)
    assert again == m
    assert [x.id for x in await r2.matches_with_status("running")] == [m.id]
    await r2.close()


__all__ = ["postgres_server"]  # the session fixture, used through database_url
