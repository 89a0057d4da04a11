"""web pages: a server that turned its web pages on has an unguessable key, the address of its
pages (``/s/<key>/``); none while they are off

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("guild_config") as batch:
        batch.add_column(sa.Column("web_key", sa.String(64), nullable=True))
    op.create_index("uq_guild_config_web_key", "guild_config", ["web_key"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_guild_config_web_key", "guild_config")
    with op.batch_alter_table("guild_config") as batch:
        batch.drop_column("web_key")
