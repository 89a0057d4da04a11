"""The state of a Kingdom of Dreams match: the five piles, the hands, an attack under way.

Frozen, changed only by producing new values; the random generator is part of it, so a
match replays from its seed and moves. The kit's codec saves and loads it
(``Dreams.state_types``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import Rng
from bot.games.dreams.cards import KINDS, kind, of_kind, total_value

RUNNING, KING_BOUGHT, TURN_CAP, SAFETY_VALVE = "", "king", "cap", "valve"
SAFETY_TURNS = 150  # turns per player after which any match ends on value (a stall valve)

# Move kinds (the part of a code before the first ":").
COIN_MOVE, BUY, SELL, ATTACK_MOVE, COUNTER, SHUFFLE, PEEK = (
    "coin",
    "buy",
    "sell",
    "attack",
    "counter",
    "shuffle",
    "peek",
)
# The phases: a seat's turn, and an attack waiting for the defender's counter.
TURN, ANSWER = "turn", "answer"


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
