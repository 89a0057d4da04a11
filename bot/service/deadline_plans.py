"""Deadline plans: what a state's next deadlines are (a rule timer and the turn timer), and
their stored form.

A match's deadlines are stored with it as JSON (``MatchRecord.deadline``) so that a restart
re-arms them with the time that was left; :class:`Deadlines` is their typed form. The
keeper that arms and fires them is :mod:`bot.service.deadlines`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.games.base import Game
from db.records import Seat


@dataclass(frozen=True, slots=True)
class RuleDeadline:
    """A rule timer: at ``at``, ``seat`` makes ``move`` (the game's TimedMove)."""

    at: float
    seat: int
    move: str
    reason: str

    def same_rule(self, other: RuleDeadline | None) -> bool:
        return other is not None and (self.seat, self.move, self.reason) == (
            other.seat,
            other.move,
            other.reason,
        )


@dataclass(frozen=True, slots=True)
class TurnDeadline:
    """The turn timer: ``seats`` are reminded at ``warn_at`` and timed out at ``at``."""

    at: float
    warn_at: float
    warned: bool
    seats: tuple[int, ...]

    @property
    def next_at(self) -> float:
        return self.at if self.warned else self.warn_at


@dataclass(frozen=True, slots=True)
class Deadlines:
    """Every deadline of one version of a match, as stored in ``MatchRecord.deadline``."""

    version: int
    rule: RuleDeadline | None = None
    turn: TurnDeadline | None = None

    @property
    def empty(self) -> bool:
        return self.rule is None and self.turn is None

    @property
    def next_at(self) -> float | None:
        times = [d.at for d in (self.rule,) if d] + [t.next_at for t in (self.turn,) if t]
        return min(times) if times else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version}
        if self.rule:
            out["rule"] = {
                "at": self.rule.at,
                "seat": self.rule.seat,
                "move": self.rule.move,
                "reason": self.rule.reason,
            }
        if self.turn:
            t = self.turn
            out["turn"] = {"at": t.at, "warn_at": t.warn_at, "warned": t.warned, "seats": list(t.seats)}
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> Deadlines | None:
        if not data:
            return None
        rule, turn = data.get("rule"), data.get("turn")
        return Deadlines(
            version=int(data["version"]),
            rule=RuleDeadline(float(rule["at"]), int(rule["seat"]), str(rule["move"]), str(rule["reason"]))
            if rule
            else None,
            turn=TurnDeadline(
                float(turn["at"]),
                float(turn["warn_at"]),
                bool(turn["warned"]),
                tuple(int(x) for x in turn["seats"]),
            )
            if turn
            else None,
        )


def stored(deadlines: Deadlines | None) -> tuple[float | None, dict[str, Any] | None]:
    """The (next time, JSON) pair the repository stores; (None, None) for no deadline."""
    if deadlines is None or deadlines.empty:
        return None, None
    return deadlines.next_at, deadlines.to_json()


class TurnSeconds(Protocol):
    """Where a server's turn timer is read (:class:`bot.service.preferences.SettingsBook`)."""

    async def turn_seconds(self, guild_id: int) -> int: ...


class DeadlinePlanner:
    """Works out a state's next deadlines; owns nothing but the clock it reads."""

    def __init__(self, settings: TurnSeconds, clock: Callable[[], float]) -> None:
        self.settings = settings
        self.clock = clock

    async def plan(
        self,
        game: Game,
        state: Any,
        version: int,
        seats: Sequence[Seat],
        guild_id: int,
        previous: Mapping[str, Any] | None = None,
    ) -> tuple[float | None, dict[str, Any] | None]:
        """The next deadlines of this state (a rule timer and/or the server's turn timer), as stored.

        A rule timer that was already running for the same move (for example the 5-minute
        questioning while the Witch strikes) keeps its deadline instead of starting again."""
        turn_seconds = await self.settings.turn_seconds(guild_id)
        now = self.clock()
        rule = turn = None
        timed = game.timer(state)
        if timed is not None:
            rule = RuleDeadline(now + timed.seconds, timed.seat, timed.move, timed.reason)
            before = Deadlines.from_json(previous)
            if before is not None and before.rule is not None and rule.same_rule(before.rule):
                rule = replace(rule, at=before.rule.at)
        humans = tuple(sorted(seat for seat in game.awaited(state) if not seats[seat].played_by_ai))
        if turn_seconds > 0 and humans:
            at = now + turn_seconds
            turn = TurnDeadline(at, at - min(60.0, turn_seconds / 4), False, humans)
        return stored(Deadlines(version, rule, turn))
