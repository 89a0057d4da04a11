"""A server's players as its pages show them: the name each had at their latest match, and
the skill they had after each rated match (from the stored results' skill changes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from db.leaderboard_records import RS, rs_table
from db.rows import MT, seats_of


@dataclass(frozen=True, slots=True)
class RatedResult:
    """One rated match of a player: the board it counted on and how far it moved their skill."""

    match_id: int
    game_id: str
    season_id: int | None
    created_at: float
    skill_change: float


def player_names(conn: Connection, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
    """Each player's name as their seat had it in their latest match of this server (the
    players with no match here are left out)."""
    if not user_ids:
        return {}
    latest = conn.execute(
        select(RS.user_id, func.max(RS.match_id))
        .where(RS.guild_id == guild_id, RS.user_id.in_(list(user_ids)))
        .group_by(RS.user_id)
    ).all()
    match_of = {int(user): int(match) for user, match in latest}
    if not match_of:
        return {}
    seats = dict(conn.execute(select(MT.id, MT.seats).where(MT.id.in_(sorted(set(match_of.values()))))).all())
    names: dict[int, str] = {}
    for user, match_id in match_of.items():
        for seat in seats_of(seats.get(match_id) or "[]"):
            if seat.user_id == user and not seat.ai:
                names[user] = seat.name
                break
    return names


def rated_results(conn: Connection, guild_id: int, user_id: int) -> list[RatedResult]:
    """The player's rated results in this server, in the order they were stored and applied
    (as ``board_matches`` reads them; index ix_results_user finds the player's rows)."""
    rows = conn.execute(
        select(RS.match_id, RS.game_id, RS.season_id, RS.created_at, RS.skill_change)
        .select_from(rs_table)
        .where(RS.guild_id == guild_id, RS.user_id == user_id, RS.skill_change.is_not(None))
        .order_by(RS.id)
    ).all()
    return [RatedResult(r.match_id, r.game_id, r.season_id, r.created_at, r.skill_change) for r in rows]
