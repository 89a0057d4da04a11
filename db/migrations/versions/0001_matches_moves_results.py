"""matches, moves and results

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("message_id", sa.BigInteger, nullable=True),
        sa.Column("host_id", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("state", sa.Text, nullable=True),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("deadline_at", sa.Float, nullable=True),
        sa.Column("deadline", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_matches_channel_status", "matches", ["channel_id", "status"])
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=True),
        sa.Column("code", sa.String(120), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("match_id", "version", name="uq_moves_match_version"),
    )
    op.create_index("ix_moves_match_id", "moves", ["match_id"])
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("season_id", sa.Integer, nullable=True),
        sa.Column("user_id", sa.BigInteger, nullable=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("is_ai", sa.Boolean, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("team", sa.String(32), nullable=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("has_ai", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_results_match_id", "results", ["match_id"])
    op.create_index("ix_results_board", "results", ["guild_id", "game_id", "season_id", "user_id"])
    op.create_index("ix_results_user", "results", ["guild_id", "user_id", "created_at"])


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("moves")
    op.drop_table("matches")
