"""Practice matches' hints and guided matches' explanations, at the engine tier: a hint is
the same move (and reason) for every state its seat cannot tell apart, and every game says
something in both hooks, from the seat's own view only."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from bot.games import EXAMPLES, GAMES
from bot.games.base import Rng, find_move
from bot.games.search import hint, hint_seed
from tests.engines.test_search import decisions

ALL = {**GAMES, **EXAMPLES}
ROLLOUTS = 12  # the service's count is larger; the property holds for any fixed count

SETTINGS = settings(
    max_examples=6,  # with 5 decisions each: a few seconds per game on the 2-core test machine
    deadline=None,
    database=None,
    derandomize=True,  # the same seeds on every run and every machine
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("game_id", sorted(ALL))
@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32), twin_seed=st.integers(min_value=0, max_value=2**32))
@example(seed=7, twin_seed=1)
def test_a_hint_is_the_same_whatever_the_seat_cannot_see(game_id: str, seed: int, twin_seed: int) -> None:
    game = ALL[game_id]
    for n, (state, seat) in enumerate(decisions(game, seed, every=5, most=5)):
        twin = game.resample(state, seat, Rng.from_seed(twin_seed + n))
        assert game.view(twin, seat) == game.view(state, seat)
        search_seed = hint_seed(seed, n, seat)
        mine = hint(game, state, seat, search_seed, ROLLOUTS)
        theirs = hint(game, twin, seat, search_seed, ROLLOUTS)
        assert (mine.move.code, mine.reason) == (theirs.move.code, theirs.reason)
        assert find_move(game.legal_moves(state, seat), mine.move.code) is not None


@pytest.mark.parametrize(
    ("variant", "players"), [("find", 2), ("support", 2), ("tourney", 2), ("atcourt", 4)]
)
def test_a_crown_hint_is_the_same_whatever_the_seat_cannot_see_in_every_variant(
    variant: str, players: int
) -> None:
    """The property above plays King and Crown's default variant; its others hide other
    things (the lord's spread, the roles at court), and a hint is as cheap there."""
    game = GAMES["crown"]
    for seed in range(6):
        start = game.setup(players, seed, {"variant": variant})
        for n, (state, seat) in enumerate(decisions(game, seed, every=1, most=4, start=start)):
            twin = game.resample(state, seat, Rng.from_seed(seed + 100 * n))
            assert game.view(twin, seat) == game.view(state, seat)
            mine = hint(game, state, seat, hint_seed(seed, n, seat))
            theirs = hint(game, twin, seat, hint_seed(seed, n, seat))
            assert (mine.move.code, mine.reason) == (theirs.move.code, theirs.reason)


def said(game: Any, seed: int) -> tuple[set[str], set[str]]:
    """The situation keys and the hint reasons a few matches of ``game`` give its seats."""
    keys: set[str] = set()
    reasons: set[str] = set()
    for offset in range(4):
        for state, seat in decisions(game, seed + offset, every=2, most=40):
            for key, text in game.situations(state, seat):
                assert key and text.endswith(".") and "{" not in text.replace("{p", "")
                keys.add(key)
            for move in game.legal_moves(state, seat):
                reason = game.hint_reason(state, seat, move)
                if reason is not None:
                    assert reason and not reason.endswith(".")
                    reasons.add(reason)
    return keys, reasons


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_every_game_explains_situations_and_gives_reasons(game_id: str) -> None:
    keys, reasons = said(ALL[game_id], 3)
    assert len(keys) >= 2, keys
    assert len(reasons) >= 2, reasons


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_situations_and_reasons_read_only_the_seat_s_view(game_id: str) -> None:
    game = ALL[game_id]
    for n, (state, seat) in enumerate(decisions(game, 41, every=3, most=12)):
        twin = game.resample(state, seat, Rng.from_seed(n))
        assert game.situations(twin, seat) == game.situations(state, seat)
        for move in game.legal_moves(state, seat):
            assert game.hint_reason(twin, seat, move) == game.hint_reason(state, seat, move)


def test_a_dealer_whose_table_card_asks_for_choices_is_told_what_they_mean() -> None:
    game = GAMES["dynasty"]
    for seed in range(200):
        state = game.setup(2, seed, {})
        dealer = next(iter(game.to_act(state)))
        moves = game.legal_moves(state, dealer)
        if any(m.kind == "t" for m in moves):
            break
    else:  # pragma: no cover - the deck makes one within 200 deals
        raise AssertionError("no table card with choices in 200 deals")
    keys = [key for key, _ in game.situations(state, dealer)]
    assert keys[0] == "table_card", keys


def crown_keys(state: Any, seat: int) -> list[str]:
    return [key for key, _ in GAMES["crown"].situations(state, seat)]


def test_defend_the_king_explains_each_kind_of_reveal_to_both_players() -> None:
    """A lesson of Defend the King teaches more than the picking: a round won, a round lost
    (naming what beat the card and what beats that one), a reveal that decided nothing, and
    the deciding round."""
    game = GAMES["crown"]
    state = game.setup(2, 5, {"variant": "defend"})
    assert crown_keys(state, 0) == ["pick", "defend"]
    same = game.apply(game.apply(state, 0, "pick:K")[0], 1, "pick:K")[0]
    assert "again" in crown_keys(same, 0) and "again" in crown_keys(same, 1)
    won = game.apply(game.apply(same, 0, "pick:K")[0], 1, "pick:N")[0]  # the King thwarts the Knight
    assert "won" in crown_keys(won, 0) and "lost" in crown_keys(won, 1)
    lost = dict(game.situations(won, 1))["lost"]
    assert "The King thwarted your Knight" in lost and "the Dragon or the Witch" in lost, lost
    level = game.apply(game.apply(won, 0, "pick:K")[0], 1, "pick:D")[0]  # the Dragon thwarts the King
    assert "decider" in crown_keys(level, 0) and "decider" in crown_keys(level, 1)


def test_dynasty_explains_a_skip_card_the_seat_may_play() -> None:
    game = GAMES["dynasty"]
    for seed in range(60):
        for state, seat in decisions(game, seed, every=1, most=30):
            moves = game.legal_moves(state, seat)
            if any(m.kind == "p" and ("Court Jester" in m.label) for m in moves):
                keys = [key for key, _ in game.situations(state, seat)]
                assert "skip" in keys, keys
                return
    raise AssertionError("no playable Court Jester in 60 matches")  # pragma: no cover
