"""The state of a Kingdom of Dreams match: the five piles, the hands, an attack under way.

Frozen, changed only by producing new values; the random generator is part of it, so
``load(dump(s)) == s`` and a match replays from its seed and moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.base import Rng
from bot.games.dreams.cards import KINDS, kind, of_kind, total_value

RUNNING, KING_BOUGHT, TURN_CAP, SAFETY_VALVE = "", "king", "cap", "valve"


@dataclass(frozen=True, slots=True)
class DreamsState:
    rng: Rng
    turn: int  # the seat whose turn it is (the attacker while an attack waits for its counter)
    hands: tuple[tuple[str, ...], ...]  # every card a seat holds, sorted
    coin_pile: tuple[str, ...]  # face down, top first
    trump_pile: tuple[str, ...]  # face down, top first
    attack_pile: tuple[str, ...]  # face down, bought at random
    jack_pile: tuple[str, ...]  # face up
    queen_pile: tuple[str, ...]  # face up
    king_pile: tuple[str, ...]  # face up: the one King until someone buys it
    peeked: tuple[bool, ...]  # per seat: a peek at the trump pile that is still valid
    defender: int = -1  # an attack waits for this seat's counter (-1: none)
    attack_card: str = ""  # the attacking card, shown to everyone (still in the attacker's hand)
    refused: tuple[int, ...] = ()  # sale prices the bank could not pay this turn
    turns: int = 0  # turns completed
    turn_cap: int = 0  # turns per player before the match ends on value (0: off)
    last_attack: str = ""  # the last attack and its result, for the table
    winner: int = -1
    ended: str = RUNNING  # why the match ended: king | cap | valve
    final_values: tuple[int, ...] = ()  # each seat's total value when the match ended on a cap

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.ended != RUNNING

    @property
    def attacking(self) -> bool:
        return self.defender >= 0

    def count(self, seat: int, wanted: str) -> int:
        return sum(1 for c in self.hands[seat] if kind(c) == wanted)

    def holding(self, seat: int, wanted: str) -> tuple[str, ...]:
        return of_kind(self.hands[seat], wanted)

    def counts(self, seat: int) -> dict[str, int]:
        """What everyone may know of a seat: how many cards of each kind it holds."""
        return {k: self.count(seat, k) for k in KINDS}

    def value_of(self, seat: int) -> int:
        return total_value(self.hands[seat])


_TUPLES = ("coin_pile", "trump_pile", "attack_pile", "jack_pile", "queen_pile", "king_pile", "refused")
_PLAIN = ("turn", "defender", "attack_card", "turns", "turn_cap", "last_attack", "winner", "ended")


def dump(state: DreamsState) -> dict[str, Any]:
    out: dict[str, Any] = {"rng": state.rng.state, "hands": [list(h) for h in state.hands]}
    out.update({name: list(getattr(state, name)) for name in _TUPLES})
    out.update({name: getattr(state, name) for name in _PLAIN})
    out["peeked"] = list(state.peeked)
    out["final_values"] = list(state.final_values)
    return out


def load(data: Mapping[str, Any]) -> DreamsState:
    piles = {name: tuple(str(c) for c in data[name]) for name in _TUPLES if name != "refused"}
    return DreamsState(
        rng=Rng(int(data["rng"])),
        turn=int(data["turn"]),
        hands=tuple(tuple(h) for h in data["hands"]),
        peeked=tuple(bool(p) for p in data["peeked"]),
        defender=int(data["defender"]),
        attack_card=str(data["attack_card"]),
        refused=tuple(int(v) for v in data["refused"]),
        turns=int(data["turns"]),
        turn_cap=int(data["turn_cap"]),
        last_attack=str(data["last_attack"]),
        winner=int(data["winner"]),
        ended=str(data["ended"]),
        final_values=tuple(int(v) for v in data["final_values"]),
        **piles,
    )
