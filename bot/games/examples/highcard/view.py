"""What each seat of a High Card match sees: the round, the last reveal, the rounds taken,
its own hand and face-down card (or the cards it chose to pass)."""

from __future__ import annotations

from typing import Any

from bot.games.base import CardGroup, ScoreLine, View, join_names, p, plural
from bot.games.examples.highcard.cards import card_name
from bot.games.examples.highcard.state import HighCardState


def view(state: HighCardState, seat: int | None) -> View:
    board = [f"Round {min(state.round, state.rounds)} of {state.rounds}"]
    if state.passing:
        board.append("Everyone passes two cards to the left first.")
    if state.last:
        board.append("Last shown: " + ", ".join(card_name(c) for c in state.last))
    scores = tuple(
        ScoreLine(
            s,
            (plural(state.taken[s], "round"), f"{len(state.hands[s])} cards"),
            _marks(state, s),
        )
        for s in range(state.players)
    )
    hand: tuple[CardGroup, ...] = ()
    private: tuple[str, ...] = ()
    data: dict[str, Any] = {"round": state.round, "taken": list(state.taken), "last": list(state.last)}
    if seat is not None:
        hand = (CardGroup("", tuple(card_name(c) for c in state.hands[seat])),)
        mine = state.chosen[seat]
        if mine is not None:
            private = (f"Face down: **{card_name(mine)}**",)
        if state.passing and state.passing[seat]:
            private = (f"To pass: **{' and '.join(card_name(c) for c in state.passing[seat] or ())}**",)
        data["hand"] = list(state.hands[seat])
    return View(
        seat, waiting(state), board=tuple(board), scores=scores, hand=hand, private=private, data=data
    )


def _marks(state: HighCardState, seat: int) -> tuple[str, ...]:
    if state.over:
        return ()
    if state.passing:
        return ("passed ✓",) if state.passing[seat] is not None else ()
    return ("played ✓",) if state.chosen[seat] is not None else ()


def waiting(state: HighCardState) -> str:
    if state.over:
        return summary(state)
    if state.passing:
        left = [p(s) for s in range(state.players) if state.passing[s] is None]
        return f"Waiting for {join_names(left)} to pass two cards."
    left = [p(s) for s in range(state.players) if state.chosen[s] is None]
    return f"Waiting for {join_names(left)} to play a card."


def summary(state: HighCardState) -> str:
    best = max(state.taken)
    names = " and ".join(p(s) for s, t in enumerate(state.taken) if t == best)
    return f"{names} took most rounds ({best})."
