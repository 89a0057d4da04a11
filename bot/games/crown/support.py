"""Support the King (2 players): an even sum of the two picks wins the round for the lord,
an odd one for the vassal; best of three."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, p
from bot.games.crown.cards import VALUE, known
from bot.games.crown.judge import parity_winner
from bot.games.crown.scoring import best_of_three
from bot.games.crown.state import PickState


def lord_of(state: PickState) -> int:
    assert state.lord is not None, "support always has a lord"
    return state.lord


def resolve(state: PickState, picks: tuple[str | None, ...], events: list[Event]) -> PickState:
    """The round's reveal judged (``state`` has the picks cleared already)."""
    lord = lord_of(state)
    total = sum(VALUE[known(picks[s])] for s in range(2))
    winner = parity_winner(lord, picks)
    wins = list(state.wins)
    wins[winner] += 1
    parity = "even" if total % 2 == 0 else "odd"
    events.append(Event(f"The sum is {total}, {parity}: {p(winner)} wins round {state.round}."))
    return best_of_three(replace(state, wins=tuple(wins), round=state.round + 1), events)
