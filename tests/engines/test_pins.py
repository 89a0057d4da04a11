"""Behaviour pins (recorded by ``python -m tests.pins.record`` from the code before the
one-shape redesign): every game and option set, one AI match with a fixed seed.

- The same seed and moves give the same match: replaying the recorded moves, everyone sees
  what they saw then, step by step, and the match ends with the same outcome.
- The AI chooses the same moves from the same states (the recorded moves are its choices).
- Matches saved by earlier code load and play on: each recorded ``dump`` loads, shows what
  it showed, and the rest of the match plays from it to the same end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.games import EXAMPLES, GAMES
from bot.games.base import Rng
from tests.pins.record import step_digest

HERE = Path(__file__).resolve().parents[1] / "pins"
ALL = {**GAMES, **EXAMPLES}


def cases() -> list[Any]:
    out = []
    for path in sorted(HERE.glob("*.json")):
        data = json.loads(path.read_text())
        for index, match in enumerate(data["matches"]):
            out.append(pytest.param(data["game"], match, id=f"{data['game']}-{index}"))
    return out


CASES = cases()


def outcome_of(game: Any, state: Any) -> Any:
    outcome = game.outcome(state)
    if outcome is None:
        return None
    return {
        "summary": outcome.summary,
        "results": [[r.seat, r.place, r.score, r.team] for r in outcome.results],
    }


def test_every_game_is_pinned() -> None:
    assert {case.values[0] for case in CASES} == set(ALL)


@pytest.mark.parametrize(("game_id", "match"), CASES)
def test_replay_gives_the_same_match(game_id: str, match: dict[str, Any]) -> None:
    game = ALL[game_id]
    players = match["players"]
    state = game.setup(players, match["seed"], match["options"])
    assert step_digest(game, state, [], players) == match["digests"][0]
    rng = Rng.from_seed(match["seed"] ^ 0x5DEECE66D)
    for step, (seat, code) in enumerate(match["moves"], start=1):
        actors = sorted(game.to_act(state))
        chosen, rng = rng.choice(actors)
        move_seed, rng = rng.next64()
        assert chosen == seat, f"move {step}: another seat acts"
        assert game.ai_move(state, seat, Rng.from_seed(move_seed)).code == code, (
            f"move {step}: the AI chose otherwise"
        )
        state, events = game.apply(state, seat, code)
        assert step_digest(game, state, events, players) == match["digests"][step], (
            f"move {step}: views differ"
        )
    assert outcome_of(game, state) == match["outcome"]


@pytest.mark.parametrize(("game_id", "match"), CASES)
def test_saved_states_load_and_play_on(game_id: str, match: dict[str, Any]) -> None:
    game = ALL[game_id]
    players = match["players"]
    for saved in match["saved"]:
        state = game.load(saved["state"])
        at = saved["at"]
        assert step_digest(game, state, [], players) == saved["views"], (
            f"state saved at move {at} shows otherwise"
        )
        for seat, code in match["moves"][at:]:
            state, _events = game.apply(state, seat, code)
        assert outcome_of(game, state) == match["outcome"]
        assert game.load(game.dump(state)) == state
