"""Crown matches saved before the variant families load as their family's state.

The code before kept every variant in one 28-field state with ``-1`` for "none" and wrote all
its fields out. A state written that way (rebuilt here from today's state, field for field as
the old ``dump`` wrote it) loads to the same state, shows every seat the same, and plays on;
a saved log of several lines keeps only its last, the one the finished table shows. The
rebuilding is checked against the states that code really saved (``tests/pins/before``,
recorded at commit 0f51c3c, before the redesign): the same fields and values but the log.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import Rng
from bot.games.crown import GAME, CourtState, CrownState, FindState, PickState

UNION_DEFAULTS: dict[str, Any] = {
    "round": 1,
    "lord": -1,
    "wins": [],
    "hands": [],
    "chosen": [],
    "used": [],
    "out_round": [],
    "last_picks": [],
    "last_round": 0,
    "spread": [],
    "revealed": [],
    "cards": [],
    "aside": [],
    "king": -1,
    "witch_used": False,
    "peeker": -1,
    "shown": [],
    "peeked": -1,
    "accused": -1,
    "beggar_joined": -1,
    "ready": [],
    "placing": [],
    "teams": [],
}


def old_dump(state: CrownState) -> dict[str, Any]:
    """``state`` as the code before the families dumped it."""
    data = GAME.dump(state)
    del data["type"]
    old = {"variant": state.variant, **UNION_DEFAULTS}
    for key, value in data.items():
        old[key] = -1 if value is None and key in UNION_DEFAULTS else value
    return old


def states_along(variant: str, players: int, seed: int) -> list[CrownState]:
    chooser = random.Random(seed)
    state = GAME.setup(players, seed, {"variant": variant})
    seen = [state]
    while not GAME.is_over(state):
        seat = chooser.choice(sorted(GAME.to_act(state)))
        move = GAME.ai_move(state, seat, Rng.from_seed(chooser.getrandbits(32)))
        state, _ = GAME.apply(state, seat, move.code)
        seen.append(state)
    return seen


TABLES = [
    ("find", 2),
    ("defend", 2),
    ("defend", 4),
    ("support", 2),
    ("tourney", 2),
    ("atcourt", 3),
    ("atcourt", 5),
]


PINS = Path(__file__).resolve().parents[1] / "pins"


def test_a_save_from_before_loads_as_today_s_state_at_that_move() -> None:
    """Crown's moves are those recorded then (its rules have not changed since): today's pins
    replay them, and the state after the first ``at`` moves is the one the old code saved."""
    before = json.loads((PINS / "before" / "crown.json").read_text())["matches"]
    today = json.loads((PINS / "crown.json").read_text())["matches"]
    checked = 0
    for old, pin in zip(before, today, strict=True):
        assert (old["players"], old["seed"], old["options"]) == (pin["players"], pin["seed"], pin["options"])
        states = [GAME.setup(pin["players"], pin["seed"], pin["options"])]
        for seat, code in pin["moves"]:
            states.append(GAME.apply(states[-1], seat, code)[0])
        for saved in old["saved"]:
            state = states[saved["at"]]
            assert GAME.load(saved["state"]) == state
            assert old_dump(state) == {**saved["state"], "log": saved["state"]["log"][-1:]}
            checked += 1
    assert checked == 18


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_an_old_save_loads_as_its_family_and_plays_on(variant: str, players: int) -> None:
    family = {"find": FindState, "atcourt": CourtState}.get(variant, PickState)
    for seed in range(6):
        for state in states_along(variant, players, seed):
            loaded = GAME.load(old_dump(state))
            assert type(loaded) is family
            assert loaded == state
            for seat in (None, *range(players)):
                assert GAME.view(loaded, seat) == GAME.view(state, seat)


def test_an_old_save_with_a_long_log_keeps_its_last_line() -> None:
    """The state carries no history: only the last public line, which the finished match's
    summary shows, is kept from an old save's six."""
    state = states_along("atcourt", 5, 2)[-1]
    old = old_dump(state)
    old["log"] = [f"line {n}" for n in range(5)] + [state.log[-1]]
    loaded = GAME.load(old)
    assert loaded.log == state.log == (state.log[-1],)
    assert GAME.outcome(loaded) == GAME.outcome(state)


def test_a_state_does_not_grow_with_the_moves_played() -> None:
    for variant, players in TABLES:
        for state in states_along(variant, players, 4):
            assert len(state.log) <= 1
    long = replace(states_along("tourney", 2, 1)[3], log=("a", "b"))
    assert len(GAME.load(GAME.dump(long)).log) == 2  # today's form loads as it is
