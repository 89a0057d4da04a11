"""The state of a Kingdom Four match: hands, the field, the draw pile, captures and totals.

Frozen, changed only by producing new values; the random generator is part of it, so a
match replays from its seed and moves. The kit's codec saves and loads it (``Four.state_types``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import Rng

PLAY, TAKE, OVER = "play", "take", "over"  # the phases; PLAY and TAKE are also the move kinds
HAND_SIZE = {3: 9, 4: 7}
FIELD_SIZE = {3: 10, 4: 8}


@dataclass(frozen=True, slots=True)
class FourState:
    rng: Rng
    wild: bool
    deals: int  # how many times each player deals
    hand_no: int  # the hand being played, from 1
    dealer: int
    turn: int
    phase: str  # play | take | over
    hands: tuple[tuple[str, ...], ...]
    field: tuple[str, ...]  # in the order the cards arrived
    pile: tuple[str, ...]  # the draw pile, top first
    captured: tuple[tuple[str, ...], ...]  # this hand's captures, per seat
    totals: tuple[int, ...]
    pending: str = ""  # the flipped card whose match the player is choosing
    last_hand: tuple[int, ...] = ()  # each seat's points in the hand before
    last_taken: tuple[tuple[str, ...], ...] = ()  # each seat's captures in the hand before (privately)
    redeals: int = 0  # redeals of the current hand (a whole group in the field)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def hands_total(self) -> int:
        return self.players * self.deals
