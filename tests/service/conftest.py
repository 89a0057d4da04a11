"""Shared fixtures of the service tier."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import MatchService
from db.repository import Repository
from tests.postgres import BACKENDS, database_url


@pytest.fixture(params=BACKENDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    """The repository on SQLite and on a real PostgreSQL server (tests/postgres.py)."""
    r = Repository(database_url(request, tmp_path))
    await r.migrate()
    yield r
    await r.close()


@pytest.fixture
async def svc(repo: Repository) -> AsyncIterator[MatchService]:
    """A service on ``repo`` whose AI seats move at once; closed after the test."""
    s = MatchService(repo, ai_delay=0)
    yield s
    await s.close()
