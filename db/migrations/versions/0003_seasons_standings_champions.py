"""seasons, standings and champions (leaderboards)

Results stored before this revision are put into a first season of their guild and the
standings are computed from them, so no finished match is lost from the leaderboards.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

from db.ratings import Tally, apply_match
from db.records import ResultRow

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

OPEN = sa.text("ended_at IS NULL")


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.UniqueConstraint("guild_id", "number", name="uq_seasons_guild_number"),
    )
    op.create_index(
        "uq_seasons_one_open", "seasons", ["guild_id"], unique=True, sqlite_where=OPEN, postgresql_where=OPEN
    )
    op.create_table(
        "standings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("season_id", sa.Integer, sa.ForeignKey("seasons.id"), nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("scored", sa.Integer, nullable=False),
        sa.Column("last_at", sa.Float, nullable=False),
        sa.UniqueConstraint("season_id", "game_id", "user_id", name="uq_standings_player"),
    )
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
    op.create_index("ix_standings_user", "standings", ["guild_id", "user_id"])
    op.create_table(
        "champions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("season_id", sa.Integer, sa.ForeignKey("seasons.id"), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.UniqueConstraint("season_id", "game_id", "place", name="uq_champions_place"),
    )
    op.create_index("ix_champions_guild", "champions", ["guild_id", "season_id"])
    _backfill()


def _backfill() -> None:
    """A first season for every guild that already has results, and its standings."""
    conn = op.get_bind()
    results = sa.table(
        "results",
        sa.column("id"),
        sa.column("match_id"),
        sa.column("guild_id"),
        sa.column("game_id"),
        sa.column("season_id"),
        sa.column("user_id"),
        sa.column("seat"),
        sa.column("is_ai"),
        sa.column("place"),
        sa.column("score"),
        sa.column("team"),
        sa.column("left"),
        sa.column("created_at"),
    )
    seasons = sa.table(
        "seasons",
        sa.column("id"),
        sa.column("guild_id"),
        sa.column("number"),
        sa.column("name"),
        sa.column("started_at"),
        sa.column("ended_at"),
    )
    standings = sa.table(
        "standings",
        *(
            sa.column(c)
            for c in (
                "guild_id",
                "game_id",
                "season_id",
                "user_id",
                "mu",
                "sigma",
                "ordinal",
                "rated",
                "played",
                "wins",
                "losses",
                "points",
                "scored",
                "last_at",
            )
        ),
    )
    firsts = conn.execute(
        sa.select(results.c.guild_id, sa.func.min(results.c.created_at)).group_by(results.c.guild_id)
    ).all()
    for guild_id, started in firsts:
        conn.execute(
            sa.insert(seasons).values(guild_id=guild_id, number=1, name="Season 1", started_at=started)
        )
        season_id = conn.execute(sa.select(seasons.c.id).where(seasons.c.guild_id == guild_id)).scalar_one()
        conn.execute(sa.update(results).where(results.c.guild_id == guild_id).values(season_id=season_id))
        rows = conn.execute(
            sa.select(results)
            .where(results.c.guild_id == guild_id)
            .order_by(results.c.created_at, results.c.match_id, results.c.seat)
        ).all()
        matches: dict[str, dict[int, list[tuple[float, ResultRow]]]] = defaultdict(dict)
        for r in rows:
            row = ResultRow(r.seat, r.user_id, bool(r.is_ai), r.place, r.score, r.team, bool(r.left))
            matches[r.game_id].setdefault(r.match_id, []).append((r.created_at, row))
        for game_id, by_match in matches.items():
            tallies: dict[int, Tally] = {}
            for seats in by_match.values():
                tallies.update(apply_match(tallies, [s for _, s in seats], seats[0][0]))
            if tallies:
                conn.execute(
                    sa.insert(standings),
                    [
                        {
                            "guild_id": guild_id,
                            "game_id": game_id,
                            "season_id": season_id,
                            "user_id": uid,
                            "mu": t.mu,
                            "sigma": t.sigma,
                            "ordinal": t.ordinal,
                            "rated": t.rated,
                            "played": t.played,
                            "wins": t.wins,
                            "losses": t.losses,
                            "points": t.points,
                            "scored": t.scored,
                            "last_at": t.last_at,
                        }
                        for uid, t in tallies.items()
                    ],
                )


def downgrade() -> None:
    op.drop_table("champions")
    op.drop_table("standings")
    op.drop_table("seasons")
    op.execute("UPDATE results SET season_id = NULL")
