"""Find the King (2 players): the lord spreads the deck face down; the vassal reveals places.
The King wins for the vassal, the Knight obliges one more reveal, anything else wins for the lord."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, Move, Rng, p
from bot.games.crown.cards import DECK, KING, KNIGHT, NAME
from bot.games.crown.state import FindState


def setup(players: int, rng: Rng) -> FindState:
    lord, rng = rng.below(2)
    spread, rng = rng.shuffled(DECK)
    return FindState(
        players,
        rng,
        lord=lord,
        spread=spread,
        log=(f"{p(lord)} is the lord and spreads the deck face down; {p(1 - lord)} looks for the King.",),
    )


def vassal(state: FindState) -> int:
    return 1 - state.lord


def to_act(state: FindState) -> frozenset[int]:
    return frozenset({vassal(state)}) if state.phase == "find" else frozenset()


def legal_moves(state: FindState) -> list[Move]:
    return [
        Move(f"reveal:{i + 1}", (f"Reveal place {i + 1}",))
        for i in range(len(state.spread))
        if i not in state.revealed
    ]


def reveal(state: FindState, index: int, events: list[Event]) -> FindState:
    card = state.spread[index]
    seeker, lord = vassal(state), state.lord
    state = replace(state, revealed=state.revealed + (index,))
    # The first line echoes the move; the card is told on the next, so that the vassal's
    # own answer (which leaves out the echo) says what was found.
    events.append(Event(f"{p(seeker)} reveals place {index + 1}."))
    if card == KING:
        events.append(Event(f"The King! {p(seeker)} found it and wins!"))
        winner = seeker
    elif card == KNIGHT:
        events.append(Event(f"The Knight: {p(seeker)} reveals one more card."))
        return state
    else:
        king = state.spread.index(KING) + 1  # the match is over: where the King lay is told
        events.append(Event(f"The {NAME[card]}, not the King: {p(lord)} wins. The King lay in place {king}."))
        winner = lord
    return replace(state, phase="over", placing=tuple(1 if s == winner else 2 for s in range(2)))


def resample(state: FindState, rng: Rng) -> FindState:
    """The face-down places dealt again among themselves (nobody sees them). Once the
    match is over every place is turned up: nothing is hidden."""
    if state.phase == "over":
        return state
    hidden = [i for i in range(len(state.spread)) if i not in state.revealed]
    cards, _ = rng.shuffled(sorted((state.spread[i] for i in hidden), key=repr))
    spread = list(state.spread)
    for i, c in zip(hidden, cards):
        spread[i] = c
    return replace(state, spread=tuple(spread))
