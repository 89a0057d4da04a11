"""table marks: the version a match's table shows and whom its turn message pinged, so that a
restart edits no table that shows the match already and pings nobody twice

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_marks",
        sa.Column("match_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("shown", sa.Integer, nullable=True),
        sa.Column("pinged", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("table_marks")
