"""Secrecy after public moves (RULES.md: nothing the table shows may reveal what a player
could have done), for every game.

``test_properties.py`` checks that a seat's view does not change when only what it cannot
see changes (``view(resample(s, seat), seat) == view(s, seat)``). This checks the same a few
moves later: two states that differ only in what ``seat`` cannot see give ``seat`` the same
view after the same public moves. The moves are chosen the same way in both: ``seat``'s own
moves from its (equal) legal moves, the others' from the moves legal in both states. The
worlds part where the rules reveal a hidden card (what ``seat`` is told differs: a draw, a
flip); until then a difference in the view is a leak. A game that ends a player's turn for
them when they cannot do anything shows the table what they could not do, and fails here.

A fixed number of seeds per game and configuration: what this covers does not depend on
the machine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import EXAMPLES, GAMES
from bot.games.base import Rng, View, player_counts
from tests.configurations import option_values

ALL_GAMES = {**GAMES, **EXAMPLES}
SEEDS = 8  # matches per game, configuration and table size
SAMPLES = 4  # states of each match from which the two worlds are played on
LOOKAHEAD = 25  # public moves played in both worlds after each sample
SAMPLE_EVERY = 17  # moves between samples


def _configurations() -> list[Any]:
    params = []
    for game_id in sorted(ALL_GAMES):
        game = ALL_GAMES[game_id]
        defaults = {o.key: o.default_value for o in game.options}
        defaults.update(game.hints.quick)
        sets = [defaults]
        for key in game.hints.vary:
            option = next(o for o in game.options if o.key == key)
            for value in option_values(option):
                candidate = {**defaults, key: value}
                if candidate not in sets:
                    sets.append(candidate)
        for options in sets:
            counts = player_counts(game, options)
            for players in sorted({counts[0], counts[-1]}) if counts else ():
                label = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"
                params.append(pytest.param(game_id, options, players, id=f"{game_id}-{players}[{label}]"))
    return params


def _seen(view: View) -> tuple[Any, ...]:
    return (view.waiting, view.board, view.scores, view.hand, view.private, view.optional, dict(view.data))


def _play_on(game: Any, real: Any, other: Any, seat: int, chooser: random.Random) -> None:
    """Play the same public moves in two worlds ``seat`` cannot tell apart, comparing what
    ``seat`` sees after each."""
    for step in range(LOOKAHEAD):
        seen = _seen(game.view(real, seat))
        assert seen == _seen(game.view(other, seat)), f"step {step}: the views of seat {seat} differ"
        if game.outcome(real) is not None:
            return
        actors = sorted(game.to_act(real) & game.to_act(other))
        if not actors:
            return
        actor = chooser.choice(actors)
        mine = [m.code for m in game.legal_moves(real, actor)]
        theirs = {m.code for m in game.legal_moves(other, actor)}
        common = [code for code in mine if code in theirs]
        if actor == seat:
            assert mine == [m.code for m in game.legal_moves(other, actor)], f"step {step}: own moves differ"
        if not common:
            return
        code = chooser.choice(common)
        real, events_real = game.apply(real, actor, code)
        other, events_other = game.apply(other, actor, code)
        told_real = [e.text for e in events_real if e.seat is None or e.seat == seat]
        told_other = [e.text for e in events_other if e.seat is None or e.seat == seat]
        if told_real != told_other:
            return  # the rules revealed a hidden card (a draw, a flip): the worlds part here


@pytest.mark.parametrize(("game_id", "options", "players"), _configurations())
def test_views_stay_equal_after_the_same_public_moves(
    game_id: str, options: dict[str, str], players: int
) -> None:
    game = ALL_GAMES[game_id]
    for seed in range(SEEDS):
        state = game.setup(players, seed, options)
        chooser = random.Random(seed)
        for sample in range(SAMPLES):
            for _ in range(SAMPLE_EVERY if sample else 0):
                if game.outcome(state) is not None:
                    break
                actor = chooser.choice(sorted(game.to_act(state)))
                state, _ = game.apply(state, actor, chooser.choice(game.legal_moves(state, actor)).code)
            if game.outcome(state) is not None:
                break
            for seat in range(players):
                other = game.resample(state, seat, Rng.from_seed(seed * 1000 + sample * 10 + seat))
                _play_on(game, state, other, seat, random.Random(f"{seed}-{sample}-{seat}"))
