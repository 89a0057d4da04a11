"""The service layer: games + database, never Discord."""

from bot.service.errors import ServiceError
from bot.service.matches import MatchService, MoveResult, Snapshot, resolve_move

__all__ = ["MatchService", "MoveResult", "ServiceError", "Snapshot", "resolve_move"]
