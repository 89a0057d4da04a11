"""The models and the migrations agree: after every migration, Alembic's autogenerate finds no
difference between the database and the SQLModel tables, on SQLite and on PostgreSQL (a model
column bound narrower than its migrated column, say a 62-bit seed as a 32-bit INTEGER, would
show up here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import db.models  # noqa: F401 - registers the tables on SQLModel.metadata
from db.repository import Repository
from tests.postgres import BACKENDS, database_url, postgres_server

__all__ = ["postgres_server"]


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "compare_server_default": False}
    )
    return list(compare_metadata(context, SQLModel.metadata))


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request, tmp_path)


@pytest.mark.asyncio
async def test_autogenerate_finds_nothing_to_change_after_the_migrations(url: str) -> None:
    repo = Repository(url)
    try:
        await repo.migrate()
        differences = await repo.write(_differences)
    finally:
        await repo.close()
    assert differences == [], differences
