"""The secret-pick variants (defend, support, tourney): each standing seat picks a card in
secret; when all have picked, the picks are revealed together and the variant judges the round
(:mod:`~bot.games.crown.defend`, :mod:`~bot.games.crown.support`, :mod:`~bot.games.crown.tourney`)."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, Move, Rng, p
from bot.games.crown import defend, support, tourney
from bot.games.crown.cards import DECK, card_label, known
from bot.games.crown.state import HISTORY, PickState


def setup(variant: str, players: int, rng: Rng) -> PickState:
    lord: int | None = None
    log: tuple[str, ...] = ("Everyone picks a card in secret.",)
    if variant == "support":
        lord, rng = rng.below(2)
        log = (f"{p(lord)} is the lord (wins on an even sum), {p(1 - lord)} the vassal (odd).",) + log
    zeros = (0,) * players
    return PickState(
        variant,
        players,
        rng,
        wins=zeros,
        hands=(DECK,) * players,
        chosen=(None,) * players,
        used=((),) * players,
        out_round=zeros,
        lord=lord,
        log=log[-HISTORY:],
    )


def standing(state: PickState, seat: int) -> bool:
    """Whether ``seat`` still plays (defend with three or more puts seats out)."""
    return not state.out_round or state.out_round[seat] == 0


def to_act(state: PickState) -> frozenset[int]:
    if state.phase != "pick":
        return frozenset()
    return frozenset(s for s in range(state.players) if state.chosen[s] is None and standing(state, s))


def legal_moves(state: PickState, seat: int) -> list[Move]:
    return [Move(f"pick:{c}", ("Pick " + card_label(c),)) for c in state.hands[seat]]


def pick(state: PickState, seat: int, card: str, events: list[Event]) -> PickState:
    chosen = list(state.chosen)
    chosen[seat] = card
    state = replace(state, chosen=tuple(chosen))
    events.append(Event(f"{p(seat)} has picked."))  # the view tells the picker their pick
    if to_act(state):
        return state
    return resolve_round(state, events)


def resolve_round(state: PickState, events: list[Event]) -> PickState:
    """Everyone has picked: reveal the picks together and judge the round by the variant."""
    picks = state.chosen
    seats = [s for s in range(state.players) if standing(state, s)]
    shown = ", ".join(f"{p(s)} {card_label(known(picks[s]))}" for s in seats)
    events.append(Event(f"Round {state.round} reveal: {shown}."))
    revealed = tuple(picks[s] if s in seats else None for s in range(state.players))
    cleared = replace(state, chosen=(None,) * state.players, last_picks=revealed, last_round=state.round)
    if state.variant == "defend":
        return defend.resolve(cleared, seats, picks, events)
    if state.variant == "support":
        return support.resolve(cleared, picks, events)
    return tourney.resolve(cleared, picks, events)


def card_count(state: PickState) -> int:
    return sum(len(h) for h in state.hands) + sum(len(u) for u in state.used)


def resample(state: PickState, seat: int, rng: Rng) -> PickState:
    """The others' secret picks, hidden until the reveal: any card they still hold."""
    chosen = list(state.chosen)
    for s in range(state.players):
        if s != seat and chosen[s] is not None:
            chosen[s], rng = rng.choice(state.hands[s])
    return replace(state, chosen=tuple(chosen))
