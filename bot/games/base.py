"""The engine protocol shared by every game.

Engines are pure: no Discord, no database, no asyncio, no wall clock and no global
``random``. Randomness comes from :class:`Rng`, a tiny splitmix64 generator whose whole
state is one integer stored inside the game state, so ``load(dump(s)) == s`` and a match
replays exactly from its seed and its move list.

Seats are integers ``0..n-1``. Text meant for people may name a seat as ``{p3}``; the UI
replaces such placeholders with display names (see :func:`seat_token`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

__all__ = [
    "SEAT_TOKEN_RE",
    "Event",
    "Game",
    "GameError",
    "IllegalMove",
    "InvalidOptions",
    "MatchOver",
    "Move",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Rng",
    "SeatResult",
    "TimedMove",
    "View",
    "seat_token",
]

S = TypeVar("S")

# ---------------------------------------------------------------------------------------
# Errors: each carries a sentence fit to show the player as it is.


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


# ---------------------------------------------------------------------------------------
# Values exchanged with the rest of the bot.


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move.

    ``code`` is a short, stable text form (used by slash commands, the move log and
    replays). ``path`` is the human label split into the steps a player picks one after
    another in the hand view (for example ``("Play Dragon", "Name gold")``); a one-step
    move has a one-element path. ``label`` is the whole human label.
    """

    code: str
    path: tuple[str, ...]

    @property
    def label(self) -> str:
        return ": ".join(self.path) if len(self.path) > 1 else self.path[0]

    @staticmethod
    def simple(code: str, label: str) -> Move:
        return Move(code, (label,))


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``seat`` None means everyone may see it."""

    text: str
    seat: int | None = None

    @property
    def public(self) -> bool:
        return self.seat is None


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (or the table, ``seat=None``) may see.

    ``public`` lines describe the table; ``private`` lines only this seat's secrets
    (hand, peeks). ``waiting`` says whose decision is awaited. ``data`` holds the same
    information in structured form for tests and AIs; it must obey the same secrecy.
    """

    seat: int | None
    waiting: str
    public: tuple[str, ...]
    private: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    place: int  # 1 = best; equal places for ties and teams
    score: int | None = None
    team: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    results: tuple[SeatResult, ...]
    summary: str


@dataclass(frozen=True, slots=True)
class TimedMove:
    """A rule deadline: after ``seconds`` in this state, ``seat`` makes ``move``.

    Used for rule timers such as a questioning period or a reaction window; the service
    stores the deadline and applies the move when it passes (unless the state moved on).
    """

    seconds: float
    seat: int
    move: str
    reason: str


@dataclass(frozen=True, slots=True)
class Option:
    """A lobby option: ``choices`` maps stored value -> label; the first choice is the
    default unless ``default`` is given. A ``multi`` option stores several choices joined
    by commas (for example the expansion cards left out), ``""`` for none."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    default: str | None = None
    multi: bool = False

    @property
    def default_value(self) -> str:
        return self.default if self.default is not None else self.choices[0][0]


# ---------------------------------------------------------------------------------------
# Deterministic randomness.

_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Rng:
    """splitmix64: the state is one 64-bit integer; every draw returns a new Rng."""

    state: int

    @staticmethod
    def from_seed(seed: int) -> Rng:
        return Rng((seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK)

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        rng = self
        while True:
            v, rng = rng.next64()
            if v <= limit:
                return v % n, rng

    def shuffled(self, items: Sequence[S]) -> tuple[tuple[S, ...], Rng]:
        """A Fisher-Yates shuffle of ``items`` as a new tuple."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def choice(self, items: Sequence[S]) -> tuple[S, Rng]:
        i, rng = self.below(len(items))
        return items[i], rng


SEAT_TOKEN_RE = re.compile(r"\{p(\d+)\}")


def seat_token(seat: int) -> str:
    """The placeholder the UI replaces with the seat's display name."""
    return f"{{p{seat}}}"


# ---------------------------------------------------------------------------------------
# The protocol every game module implements (see DESIGN.md).


@runtime_checkable
class Game(Protocol, Generic[S]):
    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    rules: str  # markdown help text including this project's rulings
    summary: str  # one line for menus

    def check_players(self, players: int, options: Mapping[str, str]) -> None:
        """Raise InvalidOptions with a sentence if the table cannot start."""

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> S: ...

    def to_act(self, state: S) -> frozenset[int]: ...

    def legal_moves(self, state: S, seat: int) -> list[Move]: ...

    def apply(self, state: S, seat: int, move: Move | str) -> tuple[S, list[Event]]: ...

    def view(self, state: S, seat: int | None) -> View: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def default_move(self, state: S, seat: int) -> Move: ...

    def timer(self, state: S) -> TimedMove | None: ...

    def ai_move(self, state: S, seat: int, rng: Rng) -> Move: ...

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> S: ...

    def card_count(self, state: S) -> int:
        """Cards counted where they lie now (for the conservation invariant)."""

    def resample(self, state: S, seat: int, rng: Rng) -> S:
        """A state that differs from ``state`` only in what ``seat`` cannot see.

        Hidden cards are redistributed among the places ``seat`` cannot see, keeping
        every count. ``view(state, seat) == view(resample(state, seat, r), seat)`` is the
        privacy invariant (OpenSpiel's information-state resampling)."""
