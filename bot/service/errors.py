"""Service errors: each carries one sentence fit to show the player (ephemerally)."""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal from the service; ``str(err)`` is the sentence for the player."""


class MatchNotFound(ServiceError):
    def __init__(self, text: str = "That match no longer exists.") -> None:
        super().__init__(text)


class ChannelBusy(ServiceError):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            f"This channel already has an active match (#{match_id}); finish or cancel it first, "
            "or start one in another channel."
        )
        self.match_id = match_id


class NotSeated(ServiceError):
    def __init__(self, text: str = "You are not seated in this match.") -> None:
        super().__init__(text)


class NotHost(ServiceError):
    def __init__(self, what: str) -> None:
        super().__init__(f"Only the host can {what}.")


class LobbyError(ServiceError):
    """Joining, leaving, options or starting went wrong (full, already seated, not open...)."""


class NotRunning(ServiceError):
    """The match is not running (still a lobby, finished or cancelled)."""


class StaleVersion(ServiceError):
    """The button or command was made for an older state of the match."""

    def __init__(self) -> None:
        super().__init__("That button is out of date: the match has moved on.")


class UnknownMove(ServiceError):
    """The text given to a slash command names no legal move."""


class NotPractice(ServiceError):
    """A hint asked for in a rated match."""

    def __init__(self) -> None:
        super().__init__(
            "Hints are for practice matches only: this match is rated (try /learn, or Practice in a lobby)."
        )


class NothingToHint(ServiceError):
    """A hint asked for when the seat has no move to make."""

    def __init__(self) -> None:
        super().__init__("There is nothing to hint right now: you have no move to make.")
