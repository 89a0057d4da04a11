"""Rule errors: each carries one sentence fit to show the player as it is."""

from __future__ import annotations


class GameError(Exception):
    """Base of every rule error; ``str(err)`` is one sentence for the player."""


class IllegalMove(GameError):
    """The move is not allowed now; the message says why."""


class NotYourTurn(GameError):
    """The seat may not act at this moment."""


class MatchOver(GameError):
    """The match has finished; no more moves."""


class InvalidOptions(GameError):
    """Lobby options or player count the game cannot be set up with."""
