"""turn pings and card pictures (the match's current turn message, server and per-user settings); placings
break rating ties on the leaderboards

Every standing's average placing is computed from the stored results, in the order they
were stored, so the boards keep every finished match.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

from db.ratings import placing_score
from db.records import ResultRow

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("turn_message_id", sa.BigInteger, nullable=True))
    with op.batch_alter_table("guild_config") as batch:
        batch.add_column(sa.Column("turn_pings", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("text_only", sa.Boolean, nullable=True))
    op.create_table(
        "user_settings",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("turn_pings", sa.Boolean, nullable=True),
        sa.Column("text_only", sa.Boolean, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("standings") as batch:
        batch.add_column(sa.Column("place_score", sa.Float, nullable=False, server_default="0"))
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("skill_change", sa.Float, nullable=True))
    op.drop_index("ix_standings_rank", "standings")
    op.create_index(
        "ix_standings_rank",
        "standings",
        [
            "guild_id",
            "game_id",
            "season_id",
            sa.text("ordinal DESC"),
            sa.text("place_score DESC"),
            sa.text("wins DESC"),
            "played",
            "user_id",
        ],
    )
    _backfill_placings()


def _backfill_placings() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.text(
            "SELECT id, match_id, guild_id, game_id, season_id, user_id, is_ai, seat, place, score, team, "
            '"left" FROM results WHERE season_id IS NOT NULL ORDER BY id'
        )
    ).all()
    matches: dict[int, list[tuple[tuple[int, str, int], ResultRow]]] = defaultdict(list)
    for r in rows:
        board = (r.guild_id, r.game_id, r.season_id)
        matches[r.match_id].append(
            (board, ResultRow(r.seat, r.user_id, bool(r.is_ai), r.place, r.score, r.team, bool(r.left)))
        )
    sums: dict[tuple[tuple[int, str, int], int], tuple[float, int]] = {}
    for match in matches.values():
        results = [row for _board, row in match]
        for board, row in match:
            if row.user_id is None or row.is_ai:
                continue
            total, count = sums.get((board, row.user_id), (0.0, 0))
            sums[(board, row.user_id)] = (total + placing_score(row, results), count + 1)
    for ((guild_id, game_id, season_id), user_id), (total, count) in sums.items():
        conn.execute(
            sa.text(
                "UPDATE standings SET place_score = :place_score WHERE guild_id = :g AND game_id = :game "
                "AND season_id = :s AND user_id = :u"
            ),
            {"place_score": total / count, "g": guild_id, "game": game_id, "s": season_id, "u": user_id},
        )


def downgrade() -> None:
    op.drop_index("ix_standings_rank", "standings")
    op.create_index(
        "ix_standings_rank",
        "standings",
        [
            "guild_id",
            "game_id",
            "season_id",
            sa.text("ordinal DESC"),
            sa.text("wins DESC"),
            "played",
            "user_id",
        ],
    )
    with op.batch_alter_table("results") as batch:
        batch.drop_column("skill_change")
    with op.batch_alter_table("standings") as batch:
        batch.drop_column("place_score")
    op.drop_table("user_settings")
    with op.batch_alter_table("guild_config") as batch:
        batch.drop_column("text_only")
        batch.drop_column("turn_pings")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("turn_message_id")
