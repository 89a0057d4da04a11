"""Matches saved by the code before the one-shape redesign (issue 46) load and play on.

``tests/pins/before/<game>.json`` holds the saved states of the behaviour pins as main
recorded them at commit 0f51c3c, before the redesign: for every game and option set, a few
states of one AI match, each ``dump`` of that code kept as it was written. Re-recording the
pins (``tests/pins/record.py``) never touches them. Each state loads with today's code,
shows the table and every seat, and plays on to a finished match. The moves from there may
differ from the old recording: issue 47 changed King's Court and King's Dynasty rules on
purpose, so only the end is checked, not the old outcome.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.games import EXAMPLES, GAMES
from bot.games.base import Rng
from tests.pins import record

BEFORE = Path(__file__).resolve().parents[1] / "pins" / "before"
ALL = {**GAMES, **EXAMPLES}
MAX_MOVES = 10_000  # a dynasty match played to a score limit takes about 4,000


def cases() -> list[Any]:
    out = []
    for path in sorted(BEFORE.glob("*.json")):
        data = json.loads(path.read_text())
        assert data["recorded_at"] == "0f51c3c"
        for index, match in enumerate(data["matches"]):
            out.append(pytest.param(data["game"], match, id=f"{data['game']}-{index}"))
    return out


CASES = cases()


def test_every_game_has_saves_from_before() -> None:
    assert {case.values[0] for case in CASES} == set(ALL)
    assert sum(len(case.values[1]["saved"]) for case in CASES) == 394


def test_recording_the_pins_never_writes_the_saves_from_before() -> None:
    for game_id in ALL:
        assert record.pin_path(game_id).parent == record.HERE != BEFORE
    with pytest.raises(ValueError, match="saved by the code before"):
        record.pin_path("before/crown")


@pytest.mark.parametrize(("game_id", "match"), CASES)
def test_a_match_saved_before_the_redesign_loads_and_plays_to_its_end(
    game_id: str, match: dict[str, Any]
) -> None:
    game = ALL[game_id]
    players = match["players"]
    for saved in match["saved"]:
        at = saved["at"]
        state = game.load(saved["state"])
        assert game.load(game.dump(state)) == state, f"state saved at move {at}"
        for seat in (None, *range(players)):
            view = game.view(state, seat)
            assert view.seat == seat and view.waiting and view.scores, f"state saved at move {at}"
        rng = Rng.from_seed(match["seed"] + at)
        for _ in range(MAX_MOVES):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            move_seed, rng = rng.next64()
            move = game.ai_move(state, seat, Rng.from_seed(move_seed))
            state, _events = game.apply(state, seat, move.code)
        outcome = game.outcome(state)
        assert outcome is not None, f"state saved at move {at} does not reach an end"
        assert sorted(result.seat for result in outcome.results) == list(range(players))
