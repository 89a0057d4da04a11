"""Scenario tests of the example game (High Card): a model to copy for a new game's rules.

Each test builds a state by hand (``replace`` on a set-up state), plays moves through
``GAME.apply`` as the bot does, and checks the state, the events and the refusals'
sentences. The generic suites (properties, privacy, e2e, pins) cover the rest.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.base import IllegalMove, MatchOver, NotYourTurn
from bot.games.examples.highcard import GAME, HighCardState


def _state(**changes: object) -> HighCardState:
    """Two players, round 1, known hands."""
    base = GAME.setup(2, 1, {"rounds": "3"})
    state = replace(base, hands=(("1s", "4m", "9s"), ("2m", "7s", "10m")))
    return replace(state, **changes)  # type: ignore[arg-type]


def test_the_single_highest_card_takes_the_round() -> None:
    state, _ = GAME.apply(_state(), 0, "play:9s")
    assert GAME.to_act(state) == {1}, "simultaneous: the other still plays"
    state, events = GAME.apply(state, 1, "play:7s")
    assert state.taken == (1, 0) and state.round == 2
    assert "{p0} takes round 1." in [e.text for e in events]


def test_a_tie_for_highest_takes_nobody() -> None:
    state = _state(hands=(("7m",), ("7s",)))
    state, _ = GAME.apply(state, 0, "play:7m")
    state, events = GAME.apply(state, 1, "play:7s")
    assert state.taken == (0, 0) and "nobody" in events[-1].text


def test_refusals_say_why_and_change_nothing() -> None:
    state, _ = GAME.apply(_state(), 0, "play:1s")
    with pytest.raises(NotYourTurn, match="already played"):
        GAME.apply(state, 0, "play:4m")
    with pytest.raises(IllegalMove, match="not in your hand"):
        GAME.apply(state, 1, "play:1s")
    with pytest.raises(MatchOver):
        GAME.apply(replace(state, round=4), 1, "play:7s")


def test_passing_gives_two_cards_to_the_left_once_everyone_chose() -> None:
    state = GAME.setup(2, 1, {"pass": "on"})
    assert GAME.phase(state) == "pass" and GAME.to_act(state) == {0, 1}
    (move,) = GAME.legal_moves(state, 0)
    assert move.pick is not None and len(move.path) == 2, "a pick of two, in two steps"
    mine, theirs = state.hands[0][3:], state.hands[1][:2]
    with pytest.raises(IllegalMove, match="two cards"):
        GAME.apply(state, 0, f"pass:{mine[0]}")
    state, _ = GAME.apply(state, 0, move.choose(mine).code)
    state, events = GAME.apply(state, 1, f"pass:{'.'.join(theirs)}")
    assert GAME.phase(state) == "play"
    assert set(theirs) <= set(state.hands[0]) and set(mine) <= set(state.hands[1])
    assert any(e.seat == 0 and "receive" in e.text for e in events), "each is told privately"


def test_the_last_player_has_a_rule_timer_that_plays_the_lowest_card() -> None:
    state = _state()
    assert GAME.timer(state) is None, "two still to play"
    state, _ = GAME.apply(state, 1, "play:10m")
    timed = GAME.timer(state)
    assert timed is not None and timed.seat == 0 and timed.move == "play:1s"


def test_each_round_is_a_stage() -> None:
    state, _ = GAME.apply(_state(), 0, "play:9s")
    assert GAME.stage(state) == 1
    state, _ = GAME.apply(state, 1, "play:2m")
    assert GAME.stage(state) == 2


def test_a_state_saved_before_passing_existed_loads() -> None:
    data = dict(GAME.dump(_state()))
    del data["passing"]
    assert GAME.load(data) == _state()
