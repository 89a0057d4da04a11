"""The normal AI of King and Crown: a random legal move, with the manners of The King at Court."""

from __future__ import annotations

from bot.games.base import Move, Rng
from bot.games.crown import atcourt
from bot.games.crown.state import CourtState, CrownState


def choose(state: CrownState, seat: int, moves: list[Move], rng: Rng) -> Move:
    """One of ``moves`` (``seat``'s legal moves, not empty)."""
    if isinstance(state, CourtState) and state.phase == "question":
        # The AI does not question. As King it ends questioning (the service asks only
        # once the others are ready, see waits); as the former Knight it looks at a
        # card first; as the Witch it strikes half the time; then it says it is ready.
        if seat == state.king:
            return moves[0]
        peeks = [m for m in moves if m.kind == "peek"]
        if peeks:
            move, _ = rng.choice(peeks)
            return move
    move, _ = rng.choice(moves)
    return move


def waits(state: CrownState, seat: int) -> bool:
    """In questioning an AI King does not end it, and an AI Witch does not strike (nor
    give up her strike), while another player has not said they are ready: the people
    at the table first look at their cards and question. The 5-minute rule timer and
    the turn timer still end it when someone never says ready."""
    if not isinstance(state, CourtState) or state.phase != "question":
        return False
    asking = atcourt.asking(state)
    if seat == state.king:
        return bool(asking)
    return seat == atcourt.witch_seat(state) and bool(asking - {seat})
