"""turn pings: the match's current turn message, server and per-user settings

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("turn_message_id", sa.BigInteger, nullable=True))
    with op.batch_alter_table("guild_config") as batch:
        batch.add_column(sa.Column("turn_pings", sa.Boolean, nullable=True))
    op.create_table(
        "user_settings",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("turn_pings", sa.Boolean, nullable=True),
        sa.Column("text_only", sa.Boolean, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("user_settings")
    with op.batch_alter_table("guild_config") as batch:
        batch.drop_column("turn_pings")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("turn_message_id")
