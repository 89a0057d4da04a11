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
    max_examples=3,
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
    for n, (state, seat) in enumerate(decisions(game, seed, every=5, most=3)):
        twin = game.resample(state, seat, Rng.from_seed(twin_seed + n))
        assert game.view(twin, seat) == game.view(state, seat)
        search_seed = hint_seed(seed, n, seat)
        mine = hint(game, state, seat, search_seed, ROLLOUTS)
        theirs = hint(game, twin, seat, search_seed, ROLLOUTS)
        assert (mine.move.code, mine.reason) == (theirs.move.code, theirs.reason)
        assert find_move(game.legal_moves(state, seat), mine.move.code) is not None


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
