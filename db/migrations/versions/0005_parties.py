"""parties: several tables at once, winners moving on (the party, its tables per round, and
each person's party result)

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parties",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("message_id", sa.BigInteger, nullable=True),
        sa.Column("host_id", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("tables", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_parties_channel_status", "parties", ["channel_id", "status"])
    op.create_table(
        "party_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("party_id", sa.Integer, sa.ForeignKey("parties.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("seating", sa.Text, nullable=False),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=True),
        sa.Column("results", sa.Text, nullable=True),
        sa.UniqueConstraint("party_id", "round", "table_no", name="uq_party_tables_place"),
    )
    op.create_index("ix_party_tables_party_id", "party_tables", ["party_id"])
    op.create_index("ix_party_tables_match_id", "party_tables", ["match_id"])
    op.create_table(
        "party_results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("party_id", sa.Integer, sa.ForeignKey("parties.id"), nullable=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_party_results_party_id", "party_results", ["party_id"])
    op.create_index("ix_party_results_user", "party_results", ["guild_id", "user_id"])


def downgrade() -> None:
    op.drop_table("party_results")
    op.drop_table("party_tables")
    op.drop_table("parties")
