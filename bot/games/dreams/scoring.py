"""How a Kingdom of Dreams match ends and is placed: the King bought, or most value when
the turn cap (or the stall valve) is reached; and the standing the search AI values a
cut-short rollout by."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.base import Outcome, SeatResult, join_names, p, plural, ranked
from bot.games.dreams.cards import JACK, QUEEN
from bot.games.dreams.state import KING_BOUGHT, SAFETY_TURNS, TURN_CAP, DreamsState


def summary(state: DreamsState) -> str:
    """The end in one sentence."""
    if state.ended == KING_BOUGHT:
        held = "; ".join(
            f"{p(s)} held {_royals(state.counts(s))}" for s in range(state.players) if s != state.winner
        )
        return f"{p(state.winner)} buys the King and wins! {held}."
    best = max(state.final_values)
    leaders = " and ".join(p(s) for s, v in enumerate(state.final_values) if v == best)
    why = (
        f"The turn cap ({state.turn_cap} turns each) is reached"
        if state.ended == TURN_CAP
        else f"The match stalled ({SAFETY_TURNS} turns each)"
    )
    return f"{why}: {leaders} {'wins' if ' and ' not in leaders else 'share first place'} with the most value ({best})."


def outcome(state: DreamsState) -> Outcome | None:
    if not state.over:
        return None
    if state.ended == KING_BOUGHT:
        results = tuple(SeatResult(s, 1 if s == state.winner else 2) for s in range(state.players))
    else:
        values = state.final_values
        results = tuple(
            SeatResult(s, 1 + sum(1 for v in values if v > values[s]), values[s])
            for s in range(state.players)
        )
    return Outcome(results, summary(state))


def standing(state: DreamsState) -> Outcome | None:
    """The turn cap's ruling applied now: most total value wins."""
    if state.over:
        return outcome(state)
    return ranked([state.value_of(s) for s in range(state.players)])


def _royals(counts: Mapping[str, int]) -> str:
    """A seat's Queens and Jacks as the end of a match says them: "1 Queen and 2 Jacks"."""
    royals = [plural(counts[kind], name) for kind, name in ((QUEEN, "Queen"), (JACK, "Jack")) if counts[kind]]
    return join_names(royals) if royals else "no Jack or Queen"
