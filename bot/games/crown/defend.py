"""Defend the King: a revealed card thwarted by another loses. With two players the round
goes to the card that thwarts the other (best of three); with more, every thwarted player is
out, and the last one standing wins."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, join_names, p
from bot.games.crown.cards import NAME, known
from bot.games.crown.judge import thwarted
from bot.games.crown.scoring import best_of_three
from bot.games.crown.state import PickState


def resolve(
    state: PickState, standing: list[int], picks: tuple[str | None, ...], events: list[Event]
) -> PickState:
    """The round's reveal judged (``state`` has the picks cleared already)."""
    losers = thwarted(standing, picks)
    if state.players == 2:
        if not losers:
            events.append(Event("No card thwarts the other: pick again."))
            return state
        winner = 1 - losers[0]
        wins = list(state.wins)
        wins[winner] += 1
        events.append(
            Event(
                f"{NAME[known(picks[winner])]} thwarts {NAME[known(picks[losers[0]])]}: "
                f"{p(winner)} wins round {state.round}."
            )
        )
        return best_of_three(replace(state, wins=tuple(wins), round=state.round + 1), events)
    if not losers or len(losers) == len(standing):
        why = "nobody" if not losers else "everybody"
        events.append(Event(f"That would put {why} out: pick again."))
        return state
    out = list(state.out_round)
    for s in losers:
        out[s] = state.round
    events.append(Event(f"Thwarted and out: {join_names([p(s) for s in losers])}."))
    state = replace(state, out_round=tuple(out), round=state.round + 1)
    left = [s for s in range(state.players) if out[s] == 0]
    if len(left) > 1:
        return state
    champ = left[0]
    events.append(Event(f"{p(champ)} is the last one standing and wins."))
    # A seat's place is one more than the number of seats that lasted longer, so
    # players who went out in the same round share their placing.
    placing = tuple(
        1 if s == champ else 1 + sum(1 for t in range(state.players) if t == champ or out[t] > out[s])
        for s in range(state.players)
    )
    return replace(state, phase="over", placing=placing)
