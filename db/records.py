"""Plain values the repository returns (never live ORM rows)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class MatchStatus(StrEnum):
    """Where a match is in its life (stored as this text)."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    ABANDONED = "abandoned"  # cancelled, or a lobby everyone left

    @property
    def active(self) -> bool:
        return self in (MatchStatus.LOBBY, MatchStatus.RUNNING)

    @property
    def over(self) -> bool:
        return self in (MatchStatus.FINISHED, MatchStatus.ABANDONED)


@dataclass(frozen=True, slots=True)
class Seat:
    user_id: int | None  # None for an AI seat
    name: str
    ai: bool = False
    left: bool = False  # a human who left; the AI plays the seat
    missed: int = 0  # turn deadlines missed in a row
    level: str = "normal"  # an AI seat's level: easy, normal or hard (bot.games.search.LEVELS)

    def to_json(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "name": self.name,
            "ai": self.ai,
            "left": self.left,
            "missed": self.missed,
            "level": self.level,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Seat:
        return Seat(
            d.get("user_id"),
            d["name"],
            bool(d.get("ai")),
            bool(d.get("left")),
            int(d.get("missed", 0)),
            str(d.get("level") or "normal"),
        )

    @property
    def played_by_ai(self) -> bool:
        return self.ai or self.left


@dataclass(frozen=True, slots=True)
class MatchRecord:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game_id: str
    options: dict[str, str]
    status: MatchStatus
    seats: tuple[Seat, ...]
    version: int
    seed: int
    state: dict[str, Any] | None
    notes: dict[str, Any]  # see bot.service.snapshot: per-seat private notes and the public log
    deadline_at: float | None
    deadline: dict[str, Any] | None
    created_at: float
    updated_at: float
    finished_at: float | None = None
    turn_message_id: int | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    seat: int
    user_id: int | None
    is_ai: bool
    place: int
    score: int | None
    team: str | None
    left: bool = False
    skill_change: float | None = None  # set when the results are stored, for rated matches


@dataclass(frozen=True, slots=True)
class MoveRecord:
    version: int
    seat: int
    user_id: int | None
    code: str
    created_at: float


@dataclass(frozen=True, slots=True)
class MatchUpdate:
    """Everything one accepted move writes, in one transaction."""

    match_id: int
    expected_version: int
    state: dict[str, Any]
    seat: int
    user_id: int | None
    code: str
    notes: dict[str, Any]
    status: MatchStatus = MatchStatus.RUNNING
    seats: tuple[Seat, ...] | None = None
    deadline_at: float | None = None
    deadline: dict[str, Any] | None = None
    results: tuple[ResultRow, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class Preferences:
    """A user's settings, with the defaults filled in."""

    turn_pings: bool = True
    text_only: bool = False


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's display settings, with the defaults filled in."""

    turn_pings: bool = True
    text_only: bool = False  # no card pictures on this server
