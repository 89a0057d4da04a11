"""The search AI (bot/games/search.py): legal, deterministic, within budget, and blind to
what its seat cannot see; AI levels in simulate."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from bot.games import EXAMPLES, GAMES, search
from bot.games.base import Game, Outcome, Rng, Search, SeatResult, find_move, ranked
from bot.games.search import level_move, margin_value, outcome_value, place_value, search_move
from bot.simulate import seat_levels, simulate

ALL = {**GAMES, **EXAMPLES}
ROLLOUTS = 24


def quick_options(game: Game[Any]) -> dict[str, str]:
    opts = {o.key: o.default_value for o in game.options}
    opts.update(game.hints.quick)
    return opts


def decisions(
    game: Game[Any], seed: int, every: int = 7, most: int = 4, start: Any = None
) -> Iterator[tuple[Any, int]]:
    """Some states of a match played by the game's AI (from ``start``, or a new match with
    the quick options) where a seat has a choice to make."""
    players = game.hints.players or game.min_players
    state = start if start is not None else game.setup(players, seed, quick_options(game))
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
    assert (
        find_move(game.legal_moves(state, seat), stopped_at_once.move.code) is not None
    )  # the game AI's choice


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_move_budget_ends_the_search_after_whole_rounds(game_id: str) -> None:
    """A hint's budget in rollout moves: the search stops at the first whole round past it,
    exactly where a count of that many rollouts would stop (no clock, so the same on any
    machine), and a bigger budget plays more."""
    game = GAMES[game_id]
    for state, seat in decisions(game, 13, most=2):
        small = search_move(game, state, seat, seed=4, rollouts=10_000, moves=400)
        if small.rounds == 0:
            continue  # one candidate only: nothing to search
        counted = search_move(game, state, seat, seed=4, rollouts=small.rollouts)
        assert (counted.move.code, counted.values, counted.moves) == (
            small.move.code,
            small.values,
            small.moves,
        )
        bigger = search_move(game, state, seat, seed=4, rollouts=10_000, moves=1_600)
        assert bigger.rollouts >= small.rollouts and bigger.moves >= small.moves
        if small.moves < 400:  # pruned to one candidate before the budget: nothing more to play
            assert bigger.rollouts == small.rollouts


def test_place_value() -> None:
    outcome = Outcome((SeatResult(0, 1), SeatResult(1, 1), SeatResult(2, 2), SeatResult(3, 3)), "")
    assert place_value(outcome, 0) == 0.5
    assert place_value(outcome, 3) == 0.0
    assert 0 < place_value(outcome, 2) < 0.5


def test_margin_value_follows_the_game_s_direction_and_stays_in_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    highest = Outcome((SeatResult(0, 1, 30), SeatResult(1, 2, 20), SeatResult(2, 3, 5)), "")
    assert margin_value(highest, 0) > 0 > margin_value(highest, 1) > margin_value(highest, 2) >= -1
    lowest = Outcome((SeatResult(0, 2, 30), SeatResult(1, 1, 20)), "")  # penalties: lowest wins
    assert margin_value(lowest, 1, lowest_wins=True) > 0 > margin_value(lowest, 0, lowest_wins=True)
    assert margin_value(Outcome((SeatResult(0, 1), SeatResult(1, 2)), ""), 0) == 0.0  # no scores
    assert GAMES["four"].search.margin == 1.0  # the one game that sets it
    game = GAMES["crown"]
    assert game.search.margin == 0.0  # the default: places only
    assert outcome_value(game, highest, 1) == place_value(highest, 1)
    monkeypatch.setattr(game, "info", replace(game.info, search=Search(margin=0.5)))
    assert outcome_value(game, highest, 1) == place_value(highest, 1) + 0.5 * margin_value(highest, 1)


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
    assert report == simulate(
        "crown", 6, 1, 2, {"variant": "tourney"}, levels=["hard", "easy"], rollouts=8
    ) | {
        "seconds": report["seconds"],
        "games_per_s": report["games_per_s"],
        "hard_move_ms": report["hard_move_ms"],
    }


def test_ranked_places_ties_and_lowest_wins() -> None:
    assert [r.place for r in ranked([5, 9, 5, 1]).results] == [2, 1, 2, 4]
    assert [r.place for r in ranked([5, 9, 5, 1], lowest_wins=True).results] == [2, 4, 2, 1]
    assert [r.score for r in ranked([5.7, 2]).results] == [5, 2]


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_standing_runs_through_a_match_and_agrees_with_the_outcome(game_id: str) -> None:
    """A game with a standing gives one at every moment of a match (places 1..n, a first
    place always), and at the end it is the outcome; a game without gives None throughout."""
    game = ALL[game_id]
    players = game.hints.players or game.min_players
    for seed in range(3):
        state = game.setup(players, seed, quick_options(game))
        rng = Rng.from_seed(seed)
        has_standing = game.standing(state) is not None
        while game.outcome(state) is None:
            standing = game.standing(state)
            assert (standing is not None) == has_standing
            if standing is not None:
                assert sorted(r.seat for r in standing.results) == list(range(players))
                assert min(r.place for r in standing.results) == 1
            seat, rng = rng.choice(sorted(game.to_act(state)))
            _, rng = rng.next64()
            state, _ = game.apply(state, seat, game.ai_move(state, seat, rng))
        final = game.standing(state)
        outcome = game.outcome(state)
        assert outcome is not None
        assert final is None or [(r.seat, r.place) for r in final.results] == [
            (r.seat, r.place) for r in outcome.results
        ]
    assert (game.standing(state) is not None) == (game_id in {"four", "dreams", "dynasty", "court"})


class CountingGame:
    """A game whose ``apply`` and ``play`` calls are counted (delegating everything to ``game``)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.applied = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, state: Any, seat: int, move: Any) -> Any:
        self.applied += 1
        return self.game.apply(state, seat, move)

    def play(self, state: Any, seat: int, move: Any) -> Any:  # a legal move, played unjudged
        self.applied += 1
        return self.game.play(state, seat, move)


@pytest.mark.parametrize(("game_id", "cut"), [("four", True), ("crown", False)])
def test_rollouts_stop_at_the_horizon_where_the_game_has_a_standing(
    game_id: str, cut: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a horizon of 2 moves, four's rollouts play the candidate and 2 moves more;
    crown has no standing, so its rollouts still play to the end of the match."""
    game = ALL[game_id]
    monkeypatch.setattr(game, "info", replace(game.info, search=Search(horizon=2)))
    state, seat = next(decisions(game, 5, every=1))
    counting = CountingGame(game)
    result = search_move(counting, state, seat, seed=2, rollouts=40)  # type: ignore[arg-type]
    assert result.rollouts > 0
    per_rollout = counting.applied / result.rollouts
    if cut:
        assert per_rollout <= 3
    else:
        assert per_rollout > 3
    monkeypatch.setattr(game, "info", replace(game.info, search=Search(horizon=10_000)))
    whole = CountingGame(game)
    search_move(whole, state, seat, seed=2, rollouts=40)  # type: ignore[arg-type]
    assert (whole.applied > counting.applied) == cut


def past_the_first_stage(game: Game[Any], state: Any) -> Any:
    """``state`` (a new match, in stage 1) played on by the game's AI until the first hand
    or round has been scored."""
    assert game.stage(state) == 1
    while game.stage(state) == 1:
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.ai_move(state, seat, Rng.from_seed(seat)))
    return state


def test_dynasty_rollouts_end_with_the_hand_and_are_valued_by_the_totals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a match of several hands, a rollout ends where the hand is scored (the stage
    changes) and is valued by the totals then; in a one-hand match that is the match's
    end, so the search plays exactly as with no stages at all."""
    game = GAMES["dynasty"]
    no_stages = {"stage": lambda state: 0}
    for hands, shorter in (("3", True), ("1", False)):
        state = game.setup(3, 11, {"hands": hands, "deck": "classic"})
        state, seat = next(decisions(game, 11, every=3, start=state))
        staged = CountingGame(game)
        by_hand = search_move(staged, state, seat, seed=5, rollouts=60)  # type: ignore[arg-type]
        whole = CountingGame(game)
        with monkeypatch.context() as patch:
            patch.setattr(game, "stage", no_stages["stage"])
            to_the_end = search_move(whole, state, seat, seed=5, rollouts=60)  # type: ignore[arg-type]
        assert (staged.applied < whole.applied) == shorter
        if not shorter:
            assert by_hand == to_the_end
    after_one_hand = past_the_first_stage(game, game.setup(3, 11, {"hands": "3", "deck": "classic"}))
    standing = game.standing(after_one_hand)
    assert standing is not None and game.outcome(after_one_hand) is None
    totals = [r.score for r in standing.results]
    assert totals == list(after_one_hand.totals) and any(totals)
    assert [r.place for r in standing.results] == [1 + sum(1 for u in totals if u < t) for t in totals]  # type: ignore[operator]


def test_court_rollouts_end_with_the_round_and_are_valued_by_the_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Court's rounds are dealt afresh, so its rollouts end where a round is scored (the
    stage is the round's number) and are valued by the match's scores then: far fewer
    moves a rollout in a match of 500 points than played to its end."""
    game = GAMES["court"]
    state = game.setup(4, 3, {"target": "500"})
    state, seat = next(decisions(game, 3, every=5, start=state))
    staged = CountingGame(game)
    by_round = search_move(staged, state, seat, seed=5, rollouts=40)  # type: ignore[arg-type]
    whole = CountingGame(game)
    with monkeypatch.context() as patch:
        patch.setattr(game, "stage", lambda state: 0)
        to_the_end = search_move(whole, state, seat, seed=5, rollouts=40)  # type: ignore[arg-type]
    assert by_round.rollouts > 0 and to_the_end.rollouts > 0
    assert 2 * staged.applied / by_round.rollouts < whole.applied / to_the_end.rollouts
    after_one_round = past_the_first_stage(game, game.setup(4, 3, {"target": "500"}))
    standing = game.standing(after_one_round)
    assert standing is not None and game.outcome(after_one_round) is None
    scores = [r.score for r in standing.results]
    assert scores == list(after_one_round.scores) and any(scores)
    assert [r.place for r in standing.results] == [1 + sum(1 for u in scores if u > t) for t in scores]  # type: ignore[operator]


def test_the_search_stops_when_only_the_game_ais_choice_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once pruning leaves the game AI's candidate alone, no more rollouts are played."""
    monkeypatch.setattr(search, "PRUNE_MARGIN", 0.0)  # prune everything below the best at once
    game = GAMES["dynasty"]
    for state, seat in decisions(game, 8, every=2):
        result = search_move(game, state, seat, seed=4, rollouts=4_000)
        if result.rollouts < 1_000:
            break
    else:
        pytest.fail("no decision ended early")
    assert result.rounds >= search.MIN_ROUNDS
    assert find_move(game.legal_moves(state, seat), result.move.code) is not None
