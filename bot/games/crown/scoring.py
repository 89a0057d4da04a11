"""How a King and Crown match is won: best of three, rounds won, and the outcome."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, Outcome, SeatResult, p
from bot.games.crown.cards import card_label
from bot.games.crown.judge import last_result
from bot.games.crown.state import CourtState, CrownState, PickState


def counts_rounds(state: CrownState) -> bool:
    """Whether the variant is won on rounds won (its score); defend at three or more is
    won by outlasting the others, and find and The King at Court have no rounds."""
    return isinstance(state, PickState) and (state.variant != "defend" or state.players == 2)


def best_of_three(state: PickState, events: list[Event]) -> PickState:
    """The match ends when a seat has won two rounds (support, defend with two)."""
    for s in range(2):
        if state.wins[s] >= 2:
            events.append(Event(f"{p(s)} wins the match {state.wins[s]} to {state.wins[1 - s]}."))
            return replace(state, phase="over", placing=tuple(1 if t == s else 2 for t in range(2)))
    return state


def last_reveal(state: PickState) -> str:
    """The picks of the last reveal and who took the round (public once revealed)."""
    shown = ", ".join(f"{p(s)} {card_label(c)}" for s, c in enumerate(state.last_picks) if c is not None)
    return f"Last reveal (round {state.last_round}): {shown}: {last_result(state)}"


def outcome(state: CrownState) -> Outcome | None:
    if state.phase != "over":
        return None
    rounds = counts_rounds(state)
    results = tuple(
        SeatResult(
            seat=s,
            place=state.placing[s],
            score=state.wins[s] if rounds and isinstance(state, PickState) else None,
            team=state.teams[s] if isinstance(state, CourtState) and state.teams else None,
        )
        for s in range(state.players)
    )
    summary = state.log[-1] if state.log else "The match is over."
    if isinstance(state, PickState) and state.last_picks:
        summary = f"{last_reveal(state)}. {summary}"  # the final reveal: the finished table shows no board
    return Outcome(results, summary)
