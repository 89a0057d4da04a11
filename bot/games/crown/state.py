"""The states of King and Crown: one frozen dataclass per variant family.

- :class:`FindState`: Find the King (the lord's face-down spread, the vassal's reveals).
- :class:`PickState`: the secret-pick variants (defend, support, tourney): everyone picks a
  card in secret, then all are revealed together.
- :class:`CourtState`: The King at Court (one card per seat, hidden roles, one accusation).

The kit's codec stores them tagged by class name; :func:`upgrade_saved` turns a state saved by the
code of before (one class holding every variant's fields, ``-1`` for "none") into its family's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar

from bot.games.base import Event, Rng

VARIANTS = ("find", "defend", "support", "tourney", "atcourt")
PICK_VARIANTS = ("defend", "support", "tourney")
PLAYERS = {"find": (2, 2), "defend": (2, 8), "support": (2, 2), "tourney": (2, 2), "atcourt": (3, 5)}
VARIANT_CHOICES = (
    ("defend", "Defend the King (2+)"),
    ("find", "Find the King (2)"),
    ("support", "Support the King (2)"),
    ("tourney", "Tourney for the King (2)"),
    ("atcourt", "The King at Court (3-5)"),
)
# The table's title: the variant's name without the player counts the lobby's choice shows.
TITLE = {key: label.split(" (")[0] for key, label in VARIANT_CHOICES}

# The public lines a state keeps: only the last one is ever shown (the finished match's
# summary), so a state does not grow with the moves played (issue 47).
HISTORY = 1


@dataclass(frozen=True, slots=True)
class FindState:
    """Find the King: the lord's deck lies in five face-down places."""

    variant: ClassVar[str] = "find"
    players: int
    rng: Rng
    lord: int  # the lord's seat; the other seat is the vassal, who reveals
    spread: tuple[str, ...]
    phase: str = "find"  # find | over
    revealed: tuple[int, ...] = ()  # the places revealed so far, in order
    placing: tuple[int, ...] = ()  # 1 = best, set when over
    log: tuple[str, ...] = ()  # the last public line


@dataclass(frozen=True, slots=True)
class PickState:
    """Defend, support and tourney: rounds of secret picks revealed together."""

    variant: str  # defend | support | tourney
    players: int
    rng: Rng
    wins: tuple[int, ...]  # rounds won per seat
    hands: tuple[tuple[str, ...], ...]  # each seat's cards still available
    chosen: tuple[str | None, ...]  # this round's secret picks (None: not yet)
    used: tuple[tuple[str, ...], ...]  # tourney: the cards set aside
    out_round: tuple[int, ...]  # defend 3+: the round a seat went out (0: standing)
    phase: str = "pick"  # pick | over
    round: int = 1
    lord: int | None = None  # support: the lord's seat (wins on an even sum)
    last_picks: tuple[str | None, ...] = ()  # the last reveal (public): each seat's pick, None if out
    last_round: int = 0  # the round of the last reveal (0: none yet)
    placing: tuple[int, ...] = ()  # 1 = best, set when over
    log: tuple[str, ...] = ()  # the last public line


@dataclass(frozen=True, slots=True)
class CourtState:
    """The King at Court: one secret card per seat, the King's revealed."""

    variant: ClassVar[str] = "atcourt"
    players: int
    rng: Rng
    cards: tuple[str, ...]  # each seat's card
    aside: tuple[str, ...]  # the cards nobody was dealt
    king: int  # the King's seat
    phase: str = "question"  # question | accuse | beggar | over
    witch_used: bool = False
    peeker: int | None = None  # who held the Knight when the Witch struck
    shown: tuple[str, ...] = ()  # the cards as the Witch revealed them (public)
    peeked: int | None = None  # whom the peeker looked at
    accused: int | None = None
    beggar_joined: int | None = None  # the Beggar's seat, if they joined the Wicked
    ready: tuple[int, ...] = ()  # questioning: the seats that said they are done (sorted)
    placing: tuple[int, ...] = ()  # 1 = best, set when over
    teams: tuple[str, ...] = ()  # each seat's team, set when over
    log: tuple[str, ...] = ()  # the last public line


CrownState = FindState | PickState | CourtState
STATE_TYPES = (FindState, PickState, CourtState)
AnyState = TypeVar("AnyState", FindState, PickState, CourtState)


def logged(state: AnyState, events: list[Event]) -> AnyState:
    """``state`` keeping the last public line of ``events`` (the summary of a finished match)."""
    public = tuple(e.text for e in events if e.seat is None)
    if not public:
        return state
    return replace(state, log=(state.log + public)[-HISTORY:])


def upgrade_saved(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stored state in today's form: one saved before the families (no class tag, every
    variant's fields, ``-1`` for "none") becomes its family's state, keeping what it shows."""
    if "type" in data:
        return data
    variant = data["variant"]

    def seat(key: str) -> int | None:
        value = data.get(key, -1)
        return None if value is None or value < 0 else int(value)

    common = {
        "players": data["players"],
        "rng": data["rng"],
        "phase": data["phase"],
        "placing": data["placing"],
        "log": list(data["log"])[-HISTORY:],
    }
    if variant == "find":
        return {
            "type": FindState.__name__,
            **common,
            "lord": data["lord"],
            "spread": data["spread"],
            "revealed": data["revealed"],
        }
    if variant == "atcourt":
        return {
            "type": CourtState.__name__,
            **common,
            "cards": data["cards"],
            "aside": data["aside"],
            "king": data["king"],
            "witch_used": data["witch_used"],
            "peeker": seat("peeker"),
            "shown": data.get("shown", []),  # stored before the reveal was kept: none
            "peeked": seat("peeked"),
            "accused": seat("accused"),
            "beggar_joined": seat("beggar_joined"),
            "ready": data.get("ready", []),  # stored before readiness: nobody ready yet
            "teams": data["teams"],
        }
    return {
        "type": PickState.__name__,
        **common,
        "variant": variant,
        "round": data["round"],
        "lord": seat("lord"),
        "wins": data["wins"],
        "hands": data["hands"],
        "chosen": data["chosen"],
        "used": data["used"],
        "out_round": data["out_round"],
        # stored before the last reveal was kept: none shown until the next
        "last_picks": data.get("last_picks", []),
        "last_round": data.get("last_round", 0),
    }
