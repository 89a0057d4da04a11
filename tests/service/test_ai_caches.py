"""The engines of four, dreams and court cache pure functions for the hard AI's rollouts
(scores, payments, card lookups, the last legal moves): whatever the caches hold, the AI
plays the same moves and the search finds the same values."""

from __future__ import annotations

import functools
import sys
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.base import Move, Rng
from bot.games.search import search_move


def _clear_caches(game_id: str) -> int:
    """Empty every ``functools`` cache of the game's modules; how many there were."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith(f"bot.games.{game_id}."):
            continue
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
                cleared += 1
    game: Any = GAMES[game_id]
    if getattr(game, "_last_moves", None) is not None:
        game._last_moves = None
        cleared += 1
    return cleared


def _ai_match(game_id: str, players: int, seed: int, options: dict[str, str]) -> tuple[list[str], Any]:
    """The moves of an AI-only match, and a position from its middle (state, seat)."""
    game = GAMES[game_id]
    opts = {o.key: o.default_value for o in game.options}
    opts.update(options)
    state = game.setup(players, seed, opts)
    rng = Rng.from_seed(seed)
    codes: list[str] = []
    middle = None
    while game.outcome(state) is None:
        seat, rng = rng.choice(sorted(game.to_act(state)))
        _, rng = rng.next64()
        if middle is None and len(codes) >= 20 and len(game.legal_moves(state, seat)) > 1:
            middle = (state, seat)
        move: Move = game.ai_move(state, seat, rng)
        codes.append(move.code)
        state, _ = game.apply(state, seat, move)
    return codes, middle


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("four", 4, {}),
        ("four", 3, {"wild": "on"}),
        ("dreams", 2, {}),
        ("dreams", 4, {}),
        ("court", 4, {"target": "120"}),
    ],
)
def test_the_ai_plays_the_same_moves_with_cold_and_warm_caches(
    game_id: str, players: int, options: dict[str, str]
) -> None:
    assert _clear_caches(game_id) >= 1
    cold, middle = _ai_match(game_id, players, 4242, options)
    warm, _ = _ai_match(game_id, players, 4242, options)  # every cache now holds this match
    assert warm == cold
    assert middle is not None
    state, seat = middle
    _clear_caches(game_id)
    first = search_move(GAMES[game_id], state, seat, 7, rollouts=24)
    again = search_move(GAMES[game_id], state, seat, 7, rollouts=24)
    assert first.rollouts == again.rollouts > 0
    assert (first.move, first.values) == (again.move, again.values)
