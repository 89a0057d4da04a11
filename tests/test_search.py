"""The search AI (bot/games/search.py): legal, deterministic, within budget, and blind to
what its seat cannot see; AI levels in simulate."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.games import EXAMPLES, GAMES
from bot.games.base import Game, Outcome, Rng, SeatResult, find_move
from bot.games.search import level_move, place_value, search_move
from bot.simulate import seat_levels, simulate

ALL = {**GAMES, **EXAMPLES}
ROLLOUTS = 24


def quick_options(game: Game[Any]) -> dict[str, str]:
    opts = {o.key: o.default_value for o in game.options}
    opts.update(game.hints.quick)
    return opts


def decisions(game: Game[Any], seed: int, every: int = 7, most: int = 4) -> Iterator[tuple[Any, int]]:
    """Some states of a match played by the game's AI where a seat has a choice to make."""
    players = game.hints.players or game.min_players
    state = game.setup(players, seed, quick_options(game))
    rng = Rng.from_seed(seed)
    found = step = 0
    while game.outcome(state) is None and found < most and step < 2_000:
        seat, rng = rng.choice(sorted(game.to_act(state)))
        if step % every == 0 and len(game.legal_moves(state, seat)) > 1:
            found += 1
            yield state, seat
        _, rng = rng.next64()
        state, _ = game.apply(state, seat, game.ai_move(state, seat, rng))
        step += 1


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_search_move_is_legal_and_deterministic(game_id: str) -> None:
    game = ALL[game_id]
    for state, seat in decisions(game, 11):
        first = search_move(game, state, seat, seed=5, rollouts=ROLLOUTS)
        again = search_move(game, state, seat, seed=5, rollouts=ROLLOUTS)
        assert first.move.code == again.move.code and first.values == again.values
        assert find_move(game.legal_moves(state, seat), first.move.code) is not None
        assert first.rollouts <= ROLLOUTS
        game.apply(state, seat, first.move)  # raises if illegal


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_search_never_sees_what_its_seat_cannot(game_id: str) -> None:
    """Two states that differ only in what the seat cannot see give the same move."""
    game = ALL[game_id]
    for n, (state, seat) in enumerate(decisions(game, 23)):
        for k in range(2):
            other = game.resample(state, seat, Rng.from_seed(100 * n + k))
            assert game.view(other, seat) == game.view(state, seat)
            mine = search_move(game, state, seat, seed=9, rollouts=ROLLOUTS)
            theirs = search_move(game, other, seat, seed=9, rollouts=ROLLOUTS)
            assert (mine.move.code, mine.values) == (theirs.move.code, theirs.values)


def test_search_respects_the_budget_and_the_stop_check() -> None:
    game = GAMES["dynasty"]
    state, seat = next(decisions(game, 3, every=1))
    assert search_move(game, state, seat, seed=1, rollouts=10).rollouts <= 10
    calls = 0

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > 5

    result = search_move(game, state, seat, seed=1, rollouts=10_000, stop=stop)
    assert result.rollouts <= 5
    assert find_move(game.legal_moves(state, seat), result.move.code) is not None
    stopped_at_once = search_move(game, state, seat, seed=1, rollouts=10_000, stop=lambda: True)
    assert stopped_at_once.rollouts == 0
    assert find_move(game.legal_moves(state, seat), stopped_at_once.move.code) is not None  # the game AI's choice


def test_place_value() -> None:
    outcome = Outcome((SeatResult(0, 1), SeatResult(1, 1), SeatResult(2, 2), SeatResult(3, 3)), "")
    assert place_value(outcome, 0) == 0.5
    assert place_value(outcome, 3) == 0.0
    assert 0 < place_value(outcome, 2) < 0.5


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_levels_give_legal_moves(level: str) -> None:
    game = GAMES["four"]
    for state, seat in decisions(game, 4, most=2):
        move = level_move(game, state, seat, level, seed=3, rollouts=8)
        assert find_move(game.legal_moves(state, seat), move.code) is not None


def test_seat_levels_turn_round_the_table() -> None:
    assert seat_levels(["hard", "normal"], 4, 0) == ["hard", "normal", "hard", "normal"]
    assert seat_levels(["hard", "normal", "normal", "normal"], 4, 1) == ["normal", "normal", "normal", "hard"]


def test_simulate_with_levels() -> None:
    report = simulate("crown", 6, 1, 2, {"variant": "tourney"}, levels=["hard", "easy"], rollouts=8)
    assert report["finished"] == 6 and report["errors"] == 0
    assert set(report["levels"]) == {"hard", "easy"}
    shares = [v["win_share_per_seat"] for v in report["levels"].values()]
    assert abs(sum(shares) - 1.0) < 1e-6
    assert report["hard_move_ms"]["moves"] > 0
    assert report == simulate("crown", 6, 1, 2, {"variant": "tourney"}, levels=["hard", "easy"], rollouts=8) | {
        "seconds": report["seconds"], "games_per_s": report["games_per_s"], "hard_move_ms": report["hard_move_ms"],
    }
