"""The service layer: games + database, never Discord."""

from bot.service.errors import ServiceError
from bot.service.matches import MatchService
from bot.service.snapshot import MoveResult, Snapshot, resolve_move
from db.records import MatchStatus

__all__ = ["MatchService", "MatchStatus", "MoveResult", "ServiceError", "Snapshot", "resolve_move"]
