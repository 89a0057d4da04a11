"""Whole ``dynasty`` matches: random legal play ends for every deck and 2-8 players, cards
are conserved, states round-trip through JSON, views stay private, the AI plays legal
moves and beats random play."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.base import GameError, Rng
from bot.games.dynasty import GAME
from bot.games.dynasty.evaluate import ai_vs_random, play_match
from bot.games.dynasty.state import NEXT_HAND, OVER


def _random_match(players: int, seed: int, options: dict[str, str], check_every: int = 61) -> int:
    state = GAME.setup(players, seed, options)
    assert GAME.setup(players, seed, options) == state
    count = GAME.card_count(state)
    rnd = random.Random(seed)
    moves = 0
    while GAME.outcome(state) is None:
        actors = sorted(GAME.to_act(state))
        assert actors
        seat = rnd.choice(actors)
        legal = GAME.legal_moves(state, seat)
        assert legal and len({m.code for m in legal}) == len(legal)
        if moves % check_every == 0:
            data = GAME.dump(state)
            assert GAME.load(json.loads(json.dumps(data))) == state
            for viewer in range(players):
                other = GAME.resample(state, viewer, Rng(moves + viewer))
                assert GAME.card_count(other) == count
                assert GAME.view(other, viewer) == GAME.view(state, viewer)
                assert [m.code for m in GAME.legal_moves(other, viewer)] == [
                    m.code for m in GAME.legal_moves(state, viewer)
                ]
            for s in actors:
                assert GAME.ai_move(state, s, Rng(moves)).code in {m.code for m in GAME.legal_moves(state, s)}
                assert GAME.default_move(state, s).code in {m.code for m in GAME.legal_moves(state, s)}
        move = rnd.choice(legal)
        before = GAME.dump(state)
        new, _events = GAME.apply(state, seat, move)
        assert GAME.dump(state) == before
        assert GAME.card_count(new) == count
        assert new.phase != NEXT_HAND  # a scored hand is dealt again before the move returns
        state = new
        moves += 1
        assert moves <= 5000
    assert state.phase == OVER and not GAME.to_act(state)
    return moves


@pytest.mark.parametrize("deck", ["classic", "dynasty", "bonus"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_random_play_terminates(deck: str, players: int) -> None:
    _random_match(players, 1000 * players + len(deck), {"deck": deck})


@pytest.mark.parametrize(
    "players,options",
    [
        (4, {"deck": "bonus", "partners": "on"}),
        (6, {"deck": "dynasty", "partners": "on", "dealing_bonus": "on"}),
        (3, {"deck": "bonus", "cards": "key", "dealing_bonus": "on"}),
        (2, {"deck": "dynasty", "cards": "no-risk", "limit": "500"}),
        (5, {"deck": "bonus", "cards": "no-battle,no-warlord"}),
    ],
)
def test_random_play_with_options(players: int, options: dict[str, str]) -> None:
    _random_match(players, 7, options)


def test_same_seed_same_game_and_replay_by_codes() -> None:
    state = GAME.setup(4, 99, {"deck": "bonus"})
    rnd = random.Random(5)
    log = []
    states = [state]
    for _ in range(300):
        if GAME.outcome(state) is not None:
            break
        seat = rnd.choice(sorted(GAME.to_act(state)))
        move = rnd.choice(GAME.legal_moves(state, seat))
        state, events = GAME.apply(state, seat, move)
        log.append((seat, move.code, events))
        states.append(state)
    again = GAME.setup(4, 99, {"deck": "bonus"})
    for i, (seat, code, events) in enumerate(log):
        again, ev = GAME.apply(again, seat, code)
        assert again == states[i + 1] and ev == events


def test_illegal_moves_are_refused_without_change() -> None:
    state = GAME.setup(3, 5, {"deck": "bonus"})
    snapshot = json.dumps(GAME.dump(state), sort_keys=True)
    turn = min(GAME.to_act(state))
    for bogus in ("", "zz", "p:", "p:7xx", "p:WIZ:q:gd", "c:9", "k:7gd"):
        with pytest.raises(GameError) as err:
            GAME.apply(state, turn, bogus)
        assert str(err.value).strip()
    idle = [s for s in range(3) if s not in GAME.to_act(state)]
    for seat in idle:
        with pytest.raises(GameError):
            GAME.apply(state, seat, GAME.legal_moves(state, turn)[0])
    assert json.dumps(GAME.dump(state), sort_keys=True) == snapshot


def test_move_codes_and_paths() -> None:
    for seed in range(5):
        state = GAME.setup(4, seed, {"deck": "bonus", "cards": "key"})
        rnd = random.Random(seed)
        for _ in range(200):
            if GAME.outcome(state) is not None:
                break
            for seat in GAME.to_act(state):
                moves = GAME.legal_moves(state, seat)
                paths = [m.path for m in moves]
                assert len(set(paths)) == len(paths)
                for m in moves:
                    assert len(m.code) <= 90 and m.code.isascii() and all(step for step in m.path)
            seat = rnd.choice(sorted(GAME.to_act(state)))
            state, _ = GAME.apply(state, seat, rnd.choice(GAME.legal_moves(state, seat)))


def test_ai_only_tables_finish() -> None:
    for players, deck in ((2, "classic"), (4, "dynasty"), (5, "bonus")):
        final = play_match(players, 3, {"deck": deck}, frozenset(range(players)))
        assert GAME.outcome(final) is not None


def test_ai_beats_random_play() -> None:
    wins, matches = ai_vs_random(30, seed=500)
    assert wins / matches >= 0.7
