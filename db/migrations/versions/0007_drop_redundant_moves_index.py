"""the moves table loses its index on match_id alone: the unique (match_id, version) index
already serves every lookup by match, so the second one only cost each move's insert a
B-tree update

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_moves_match_id", table_name="moves")


def downgrade() -> None:
    op.create_index("ix_moves_match_id", "moves", ["match_id"])
