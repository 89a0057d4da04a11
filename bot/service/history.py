"""What is kept of finished matches: skill changes and the move log of a bug report."""

from __future__ import annotations

from typing import Any

from bot.service import errors
from db.records import MatchStatus
from db.repository import Repository


class MatchHistory:
    """Reads finished matches back; owns nothing but the repository it reads."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def skill_changes(self, match_id: int) -> dict[int, float]:
        """Seat -> change of skill (μ − 3σ) by this finished match, for the rated players."""
        return {
            row.seat: row.skill_change
            for row in await self.repo.results(match_id)
            if row.skill_change is not None
        }

    async def export_log(
        self, *, channel_id: int, match_id: int | None, user_id: int, is_admin: bool
    ) -> dict[str, Any]:
        """The move log of a finished match, for a bug report: seed + moves replay it exactly."""
        if match_id is None:
            record = await self.repo.latest_in_channel(channel_id)
            if record is None:
                raise errors.MatchNotFound()
        else:
            record = await self.repo.get_match(match_id)
            if record is None or record.channel_id != channel_id:
                raise errors.MatchNotFound()
        if user_id != record.host_id and not is_admin:
            raise errors.NotHost("export the move log (or someone with Manage Server)")
        if record.status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            raise errors.NotRunning("The move log can be exported once the match is over.")
        moves = await self.repo.moves(record.id)
        return {
            "match": record.id,
            "game": record.game_id,
            "options": record.options,
            "seed": record.seed,
            "status": record.status,
            "seats": [{"name": seat.name, "ai": seat.ai, "left": seat.left} for seat in record.seats],
            "moves": [
                {
                    "version": move.version,
                    "seat": move.seat,
                    "move": move.code,
                    "by": "player" if move.user_id else "bot",
                    "at": move.created_at,
                }
                for move in moves
            ],
        }
