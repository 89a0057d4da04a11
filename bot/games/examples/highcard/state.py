"""The state of a High Card match: frozen, its random generator inside, saved by the kit's
codec (``HighCard.state_types``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import Rng

PASS, PLAY, OVER = "pass", "play", "over"  # the phases; PASS and PLAY are also the move kinds


@dataclass(frozen=True, slots=True)
class HighCardState:
    rng: Rng
    rounds: int  # rounds to play
    round: int  # the round being played, from 1
    hands: tuple[tuple[str, ...], ...]
    chosen: tuple[str | None, ...]  # this round's face-down cards
    taken: tuple[int, ...]  # rounds taken per seat
    stock: tuple[str, ...]  # cards nobody was dealt (hidden from everyone)
    last: tuple[str, ...] = ()  # the cards shown at the last reveal, per seat
    # The pass before the first round (the lobby's "pass" option): each seat's two cards
    # once chosen (None: not yet); empty when there is no pass, or once it is done. A
    # field added with a default: saves from before it load as matches without a pass.
    passing: tuple[tuple[str, ...] | None, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.round > self.rounds

    @property
    def phase(self) -> str:
        return OVER if self.over else PASS if self.passing else PLAY
