"""party tables remember their thread as soon as it is opened, before their match is created,
so a restart between the two seats the table in the same thread instead of opening another

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("party_tables") as batch:
        batch.add_column(sa.Column("channel_id", sa.BigInteger, nullable=True))
    # tables opened before this revision: their match knows the thread
    op.execute(
        "UPDATE party_tables SET channel_id = "
        "(SELECT matches.channel_id FROM matches WHERE matches.id = party_tables.match_id) "
        "WHERE match_id IS NOT NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("party_tables") as batch:
        batch.drop_column("channel_id")
