"""Alembic environment: the bot hands its own connection in (db/migrate.py)."""

from __future__ import annotations

from alembic import context

from db.models import SQLModel

target_metadata = SQLModel.metadata
connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - alembic CLI use needs a URL
    raise RuntimeError("Run migrations through db.migrate.upgrade (the bot does it at start).")

context.configure(
    connection=connection,
    target_metadata=target_metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
