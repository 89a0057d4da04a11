"""High Card's moves: which a seat may make, and what they do.

- ``pass:<card>.<card>`` (the pass phase): a :class:`Pick` of two cards of the hand; its
  path has two steps, whom the cards go to and then which two (the hand shows the second
  as one multi-select).
- ``play:<card>`` (each round): one card face down; the reveal follows once all played.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, Move, Pick, p
from bot.games.examples.highcard.cards import by_number, card_name, number
from bot.games.examples.highcard.state import PASS, PLAY, HighCardState
from bot.games.examples.highcard.view import summary

Played = tuple[HighCardState, list[Event]]


def to_act(state: HighCardState) -> frozenset[int]:
    if state.over:
        return frozenset()
    if state.passing:
        return frozenset(s for s in range(state.players) if state.passing[s] is None)
    return frozenset(s for s in range(state.players) if state.chosen[s] is None)


def legal_moves(state: HighCardState, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    hand = state.hands[seat]
    if state.passing:
        pick = Pick(PASS, tuple((c, card_name(c)) for c in hand), least=2, most=2)
        left = (seat + 1) % state.players
        return [Move(pick.code(hand[:2]), (f"Pass to {p(left)}", "Two cards"), pick)]
    return [Move(f"{PLAY}:{c}", (f"Play the {card_name(c)}",)) for c in hand]


def why_illegal(state: HighCardState, code: str) -> str:
    if state.passing:
        return "Choose two cards of your hand to pass first."
    return "That card is not in your hand."


def pass_cards(state: HighCardState, seat: int, cards: tuple[str, ...]) -> Played:
    """``seat`` sets two cards aside for its left neighbour; once everyone has, they move."""
    passing = list(state.passing)
    passing[seat] = cards
    state = replace(state, passing=tuple(passing))
    events = [Event(f"{p(seat)} chooses two cards to pass."), Event(f"You pass {_names(cards)}.", seat)]
    if to_act(state):
        return state, events
    hands = []
    for s in range(state.players):
        given = state.passing[s] or ()
        received = state.passing[(s - 1) % state.players] or ()
        hands.append(by_number([c for c in state.hands[s] if c not in given] + list(received)))
    events.append(Event("The cards are passed to the left."))
    for s in range(state.players):
        events.append(Event(f"You receive {_names(state.passing[(s - 1) % state.players] or ())}.", s))
    return replace(state, hands=tuple(hands), passing=()), events


def play_card(state: HighCardState, seat: int, card: str) -> Played:
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    chosen = list(state.chosen)
    chosen[seat] = card
    state = replace(state, hands=tuple(hands), chosen=tuple(chosen))
    events = [Event(f"{p(seat)} plays a card face down.")]
    if to_act(state):
        return state, events
    return _reveal(state, events)


def _reveal(state: HighCardState, events: list[Event]) -> Played:
    shown = tuple(c for c in state.chosen if c is not None)
    best = max(number(c) for c in shown)
    top = [s for s, c in enumerate(state.chosen) if c is not None and number(c) == best]
    listing = ", ".join(f"{p(s)} {card_name(c)}" for s, c in enumerate(shown))
    events.append(Event(f"Round {state.round}: {listing}."))
    taken = list(state.taken)
    if len(top) == 1:
        taken[top[0]] += 1
        events.append(Event(f"{p(top[0])} takes round {state.round}."))
    else:
        events.append(Event(f"A tie for highest: nobody takes round {state.round}."))
    state = replace(
        state, round=state.round + 1, chosen=(None,) * state.players, taken=tuple(taken), last=shown
    )
    if state.over:
        events.append(Event(summary(state)))
    return state, events


def _names(cards: tuple[str, ...]) -> str:
    return " and ".join(f"the {card_name(c)}" for c in cards)
