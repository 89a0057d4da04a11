"""Tourney for the King (2 players): five rounds, each card used once, the higher card wins;
a tie goes to the higher sum of unused cards, else the round is drawn. Most rounds wins."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, p
from bot.games.crown.cards import VALUE, known
from bot.games.crown.judge import tourney_taker
from bot.games.crown.state import PickState


def resolve(state: PickState, picks: tuple[str | None, ...], events: list[Event]) -> PickState:
    """The round's reveal judged (``state`` has the picks cleared already)."""
    a, b = known(picks[0]), known(picks[1])
    used = (state.used[0] + (a,), state.used[1] + (b,))
    hands = (
        tuple(c for c in state.hands[0] if c != a),
        tuple(c for c in state.hands[1] if c != b),
    )
    wins = list(state.wins)
    taker = tourney_taker(picks, hands)
    if VALUE[a] != VALUE[b]:
        why = "the higher card"
    else:
        rest = [sum(VALUE[c] for c in h) for h in hands]
        mine, theirs = (rest[0], rest[1]) if taker != 1 else (rest[1], rest[0])
        why = f"a tie, decided by unused cards ({mine} against {theirs})"
    if taker is None:
        events.append(Event(f"Round {state.round} is drawn: same card and unused cards add up the same."))
    else:
        wins[taker] += 1
        events.append(Event(f"{p(taker)} wins round {state.round} with {why}."))
    state = replace(state, hands=hands, used=used, wins=tuple(wins), round=state.round + 1)
    if state.hands[0]:
        return state
    if wins[0] == wins[1]:
        events.append(Event(f"The tourney ends {wins[0]} to {wins[1]}: a draw."))
        return replace(state, phase="over", placing=(1, 1))
    champ = 0 if wins[0] > wins[1] else 1
    events.append(Event(f"{p(champ)} wins the tourney {max(wins)} to {min(wins)}."))
    return replace(state, phase="over", placing=tuple(1 if s == champ else 2 for s in range(2)))
