"""Property tests that every registered game must pass (docs/ARCHITECTURE.md, testing layer 1).

The tests enumerate ``bot.games.GAMES`` at collection time, so a newly registered game is
covered without touching this file. For each game they try the default options and every
other value of every option (one option changed at a time; for a multi-choice option: none,
each choice alone, and all), with every player count that ``check_players`` accepts.

- ``test_random_play`` (per configuration): random legal play for up to PREFIX_MOVES moves
  (a whole match for crown), checking cards conserved, dump/JSON/load round trips, inputs
  never changed, every legal move accepted, illegal moves refused without change, default,
  AI and timer moves legal, privacy by resampling (views, legal moves and the AI's choice
  cannot depend on what a seat cannot see), the final outcome; then a replay from the same
  seed must give the same states and events.
- ``test_random_play_ends`` (per game, random option mixes): whole matches end within
  MAX_MOVES random legal moves, with the cheap checks and a replay.

Moves are chosen by a seeded ``random.Random``, not by hypothesis draws: a shrunk "always
the first move" could loop forever (defend: equal picks are picked again). The costly checks
run at the first states and a sample of later ones. Each game plays a fixed number of
examples, shared by its configurations (at least MIN_EXAMPLES each), from seeds hypothesis
derives the same way on every run: what the file covers does not depend on the machine, and a
game of many configurations (dynasty) keeps it fast. ``PROPERTY_SCALE`` (an environment
variable, default 1) multiplies the examples for a deeper run.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.games import EXAMPLES, GAMES
from bot.games.base import (
    Event,
    GameError,
    InvalidOptions,
    MatchOver,
    Move,
    NotYourTurn,
    Outcome,
    Rng,
    TimedMove,
    View,
    find_move,
    player_counts,
)
from tests.configurations import option_sets

ALL_GAMES = {**GAMES, **EXAMPLES}  # the example games of docs/ADDING_A_GAME.md too

PREFIX_MOVES = 300  # test_random_play: moves played per example (crown always ends sooner)
MAX_MOVES = 250_000  # test_random_play_ends: every match must end within this many random moves
FULL_CHECKS_FIRST = 8  # states fully checked at the start of each example
FULL_CHECKS_MAX = 8  # at most this many more fully checked states per example
FULL_CHECK_RATE = 0.04  # chance that a later state is fully checked
ROUNDTRIP_FIRST = 40  # states whose dump/JSON/load round trip is checked at the start
ROUNDTRIP_RATE = 0.2  # chance that a later state's round trip is checked
SCALE = float(os.environ.get("PROPERTY_SCALE", "1"))
GAME_EXAMPLES = int(40 * SCALE)  # test_random_play: examples per game, shared by its configurations
MIN_EXAMPLES = max(1, int(2 * SCALE))  # per configuration, however many the game has
END_EXAMPLES = max(1, int(4 * SCALE))  # test_random_play_ends: whole matches per game
BOGUS_CODES = ("zz-not-a-move", "", "pick:", "play:999:x", "\u2603")
NO_SHRINK = (Phase.explicit, Phase.generate)  # inputs are plain seeds; shrinking long games is slow


# --- the configurations to test ---------------------------------------------------------


def _draw_value(data: Any, option: Any) -> str:
    """A random value of one option (a random subset for a multi-choice option)."""
    choices = [value for value, _label in option.choices]
    if not getattr(option, "multi", False):
        return str(data.draw(st.sampled_from(choices), label=option.key))
    subset = data.draw(st.sets(st.sampled_from(choices)), label=option.key)
    return ",".join(c for c in choices if c in subset)


def _configs() -> list[Any]:
    """(game id, options, player counts, examples) for each configuration of each game."""
    params = []
    for game_id in sorted(ALL_GAMES):
        game = ALL_GAMES[game_id]
        sets = [(o, player_counts(game, o)) for o in option_sets(game)]
        usable = [(o, c) for o, c in sets if c]
        share = max(MIN_EXAMPLES, round(GAME_EXAMPLES / max(1, len(usable))))
        for options, counts in usable:
            label = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"
            params.append(pytest.param(game_id, options, counts, share, id=f"{game_id}[{label}]"))
    return params


CONFIGS = _configs()


def test_every_game_has_a_playable_configuration() -> None:
    assert GAMES, "no game is registered"
    for game_id, game in ALL_GAMES.items():
        assert game.id == game_id
        assert 1 <= game.min_players <= game.max_players
        defaults = {o.key: o.default_value for o in game.options}
        assert player_counts(game, defaults), f"{game_id}: no player count works with the default options"
        for option in game.options:
            assert option.choices, f"{game_id}: option {option.key} has no choices"
            if getattr(option, "multi", False):
                parts = [v for v in option.default_value.split(",") if v]
                assert set(parts) <= set(dict(option.choices)), f"{game_id}: bad default of {option.key}"
            else:
                assert option.default_value in dict(option.choices), f"{game_id}: bad default of {option.key}"
        for options in option_sets(game):
            # Every player count outside the game's range is refused with a sentence.
            for n in (game.min_players - 1, game.max_players + 1):
                with pytest.raises(InvalidOptions) as err:
                    game.check_players(n, options)
                assert str(err.value).strip()


# --- helpers ----------------------------------------------------------------------------


def _random_choice(move: Move, rnd: random.Random) -> Move:
    """Another choice of a move's Pick (``move`` itself when it has none)."""
    if move.pick is None:
        return move
    parts = [part for part, _label in move.pick.items]
    size = rnd.randint(move.pick.least, min(move.pick.most, len(parts)))
    return move.choose(rnd.sample(parts, size))


def _roundtrip(game: Any, state: Any) -> Any:
    dumped = game.dump(state)
    text = json.dumps(dumped, allow_nan=False)  # must be plain JSON
    assert json.loads(text) == dumped, "dump() is not JSON-stable (tuples, non-str keys, ...)"
    again = game.load(json.loads(text))
    assert again == state, "load(json(dump(s))) != s"
    assert game.load(dumped) == state
    return dumped


def _codes(moves: list[Move]) -> list[str]:
    return [m.code for m in moves]


def _assert_refused(game: Any, state: Any, seat: int, move: Move | str, kind: type = GameError) -> None:
    before = json.dumps(game.dump(state), sort_keys=True)
    snapshot = game.load(game.dump(state))
    with pytest.raises(kind) as err:
        game.apply(state, seat, move)
    assert isinstance(err.value, GameError)
    assert str(err.value).strip(), "a refusal must carry a sentence for the player"
    assert json.dumps(game.dump(state), sort_keys=True) == before, "a refused move changed its input state"
    assert state == snapshot


def _check_outcome(game: Any, state: Any, players: int) -> None:
    outcome = game.outcome(state)
    assert isinstance(outcome, Outcome)
    assert outcome.summary.strip()
    seats = [r.seat for r in outcome.results]
    assert sorted(seats) == list(range(players)), "every seat has exactly one result"
    places = {r.seat: r.place for r in outcome.results}
    assert all(1 <= pl <= players for pl in places.values()), places
    assert min(places.values()) == 1, "somebody is placed first"
    # Ranks are consistent: standard competition ranking (1, 2, 2, 4) or dense ranking
    # (1, 1, 2, as for teams); no gaps or invented places otherwise.
    distinct = sorted(set(places.values()))
    dense = distinct == list(range(1, len(distinct) + 1))
    competition = all(pl == 1 + sum(1 for q in places.values() if q < pl) for pl in places.values())
    assert dense or competition, f"placings are neither dense nor competition ranks: {places}"
    teams: dict[str, set[int]] = {}
    for r in outcome.results:
        if r.team is not None:
            teams.setdefault(r.team, set()).add(r.place)
    for team, team_places in teams.items():
        assert len(team_places) == 1, f"team {team} members are placed differently: {team_places}"
    # Scores agree with places in one direction (high scores win, or low ones do).
    scored = [(r.score, r.place) for r in outcome.results if r.score is not None]
    pairs = [(a, b) for a in scored for b in scored if a[0] > b[0]]  # type: ignore[operator]
    high_wins = all(a[1] <= b[1] for a, b in pairs)
    low_wins = all(a[1] >= b[1] for a, b in pairs)
    assert high_wins or low_wins, f"scores and places disagree: {outcome.results}"


def _check_view(view: View, seat: int | None) -> None:
    assert isinstance(view, View)
    assert view.seat == seat
    assert isinstance(view.waiting, str)
    assert all(isinstance(line, str) for line in view.public + view.private)
    assert isinstance(view.optional, str)
    if seat is None:
        assert view.private == (), "the table view has no private lines"
        assert view.optional == "", "the table view offers nobody a move"


def _table_part(view: View) -> tuple[Any, ...]:
    return (view.waiting, view.public, view.private, view.optional, dict(view.data))


@dataclass
class _Played:
    moves: list[tuple[int, str]]
    states: list[Any]
    events: list[list[Event]]
    last: Any = None


# --- the full check at one state --------------------------------------------------------


def _full_check(game: Any, state: Any, players: int, rnd: random.Random) -> None:
    actors = game.to_act(state)
    count = game.card_count(state)
    by_seat = {s: game.legal_moves(state, s) for s in range(players)}

    for seat in range(players):
        moves = by_seat[seat]
        if seat not in actors:
            assert moves == [], f"seat {seat} is not to act but has legal moves"
            continue
        assert moves, f"seat {seat} is to act but has no legal move"
        codes = _codes(moves)
        assert len(set(codes)) == len(codes), "move codes must be unique"
        for m in moves:
            assert isinstance(m, Move) and m.code and m.path and m.label
        # Every legal move is accepted, and conserves the cards.
        for m in moves:
            after, events = game.apply(state, seat, m)
            assert game.card_count(after) == count
            assert all(isinstance(e, Event) and (e.seat is None or 0 <= e.seat < players) for e in events)
        # The code alone is accepted too (slash commands and the move log use codes).
        pick = rnd.choice(moves)
        assert game.apply(state, seat, pick.code)[0] == game.apply(state, seat, pick)[0]
        # default_move and ai_move are legal (the AI may make any choice of a move's Pick).
        assert game.default_move(state, seat).code in codes
        for k in range(3):
            chosen = game.ai_move(state, seat, Rng.from_seed(rnd.randrange(1 << 30) + k))
            assert find_move(moves, chosen.code) is not None, f"the AI's {chosen.code!r} is not a legal move"
            assert game.card_count(game.apply(state, seat, chosen.code)[0]) == count
        # Other choices of a Pick: accepted (cards conserved) or refused with a sentence.
        for m in moves:
            if m.pick is not None:
                for _ in range(3):
                    other_choice = _random_choice(m, rnd)
                    try:
                        after, _events = game.apply(state, seat, other_choice.code)
                    except GameError:
                        _assert_refused(game, state, seat, other_choice.code)
                    else:
                        assert game.card_count(after) == count
        # Made-up codes are refused with a GameError and change nothing.
        for bogus in BOGUS_CODES:
            if bogus not in codes:
                _assert_refused(game, state, seat, bogus)
        # Another seat's move that is not this seat's own is refused.
        for other in range(players):
            foreign = [m for m in by_seat[other] if m.code not in codes]
            if other != seat and foreign:
                _assert_refused(game, state, seat, rnd.choice(foreign))

    # A seat that is not to act is refused whatever it tries.
    all_moves = [m for s in actors for m in by_seat[s]]
    for seat in range(players):
        if seat not in actors and all_moves:
            _assert_refused(game, state, seat, rnd.choice(all_moves), NotYourTurn)

    # A rule timer names a seat that is to act and one of its legal moves.
    timed = game.timer(state)
    if timed is not None:
        assert isinstance(timed, TimedMove)
        assert timed.seconds > 0 and timed.reason
        assert timed.seat in actors
        assert timed.move in _codes(by_seat[timed.seat])

    # ``awaited`` (whom the turn timer waits for, named in public reminders; by default
    # ``to_act``) is a subset of the actors, and public information (below).
    awaited = game.awaited(state)
    assert awaited <= actors, "awaited seats must be seats that may act"

    # Privacy: a seat's view (and the table's) cannot tell the state from any other state
    # that differs only in what the seat cannot see. Nor can its options or its AI.
    table = game.view(state, None)
    _check_view(table, None)
    for seat in range(players):
        mine = game.view(state, seat)
        _check_view(mine, seat)
        for _ in range(2 if players <= 4 else 1):
            rng = Rng.from_seed(rnd.randrange(1 << 62))
            other = game.resample(state, seat, rng)
            assert game.card_count(other) == count, "resample must keep every count"
            assert game.view(other, seat) == mine, f"seat {seat}'s view depends on cards it cannot see"
            assert _table_part(game.view(other, None)) == _table_part(table), (
                f"the table view depends on cards seat {seat} cannot see"
            )
            assert game.awaited(other) == awaited, f"awaited() depends on cards seat {seat} cannot see"
            assert _codes(game.legal_moves(other, seat)) == _codes(by_seat[seat]), (
                f"seat {seat}'s legal moves depend on cards it cannot see"
            )
            if seat in actors:
                ai_rng = Rng.from_seed(rnd.randrange(1 << 30))
                assert game.ai_move(other, seat, ai_rng).code == game.ai_move(state, seat, ai_rng).code, (
                    f"seat {seat}'s AI uses cards it cannot see"
                )


# --- random matches ---------------------------------------------------------------------


def _play(
    game: Any, players: int, seed: int, options: Mapping[str, str], chooser: int, limit: int, checks_on: bool
) -> _Played:
    """Random legal play from the set-up for at most ``limit`` moves or until the end.

    With ``checks_on`` every invariant is checked (the costly ones at a sample of the
    states); otherwise only the cheap ones, for whole long matches.
    """
    rnd = random.Random(chooser)
    checks = random.Random(chooser ^ 0x5EED)
    state = game.setup(players, seed, options)
    assert game.setup(players, seed, options) == state, "setup is not deterministic"
    count = game.card_count(state)
    assert count >= 0
    played = _Played([], [state], [])
    extra_checks = 0
    for step in range(limit + 1):
        over = game.outcome(state) is not None
        dumped = None
        if over or step < ROUNDTRIP_FIRST or checks.random() < (ROUNDTRIP_RATE if checks_on else 0.01):
            dumped = _roundtrip(game, state)
        if checks_on:
            if step < FULL_CHECKS_FIRST or over:
                _full_check(game, state, players, checks)
            elif extra_checks < FULL_CHECKS_MAX and checks.random() < FULL_CHECK_RATE:
                extra_checks += 1
                _full_check(game, state, players, checks)
        if over or step == limit:
            break
        actors = sorted(game.to_act(state))
        assert actors, "the match is running but nobody may act"
        seat = rnd.choice(actors)
        moves = game.legal_moves(state, seat)
        assert moves, f"seat {seat} is to act but has no legal move"
        move = rnd.choice(moves)
        if move.pick is not None and rnd.random() < 0.5:  # now and then another choice of its Pick
            other = _random_choice(move, rnd)
            try:
                game.apply(state, seat, other.code)
            except GameError:
                pass
            else:
                move = other
        new, events = game.apply(state, seat, move)
        if dumped is not None:
            assert game.dump(state) == dumped, "apply changed its input state"
        assert game.card_count(new) == count, "cards are not conserved"
        assert all(isinstance(e, Event) and (e.seat is None or 0 <= e.seat < players) for e in events)
        played.moves.append((seat, move.code))
        if checks_on:
            played.states.append(new)
            played.events.append(list(events))
        state = new
    if game.outcome(state) is not None:
        _check_end(game, state, players, played)
    played.last = state
    return played


def _check_end(game: Any, state: Any, players: int, played: _Played) -> None:
    """The end: a consistent result, nobody to act, every move refused with MatchOver."""
    _check_outcome(game, state, players)
    assert not game.to_act(state)
    for seat in range(players):
        assert game.legal_moves(state, seat) == []
    last = played.moves[-1][1] if played.moves else "zz"
    for seat in range(players):
        _assert_refused(game, state, seat, last, MatchOver)
    _check_view(game.view(state, None), None)
    for seat in range(players):
        _check_view(game.view(state, seat), seat)


def _replay(game: Any, players: int, seed: int, options: Mapping[str, str], played: _Played) -> None:
    """Same seed and same moves: the same states and the same events, step by step."""
    state = game.setup(players, seed, options)
    step_by_step = len(played.states) > 1
    if step_by_step:
        assert state == played.states[0]
    for i, (seat, code) in enumerate(played.moves):
        state, events = game.apply(state, seat, code)
        if step_by_step:
            assert state == played.states[i + 1], f"replay diverged at move {i + 1}"
            assert events == played.events[i], f"replay produced other events at move {i + 1}"
    assert state == played.last, "replaying the same moves from the same seed ends elsewhere"


_SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
    phases=NO_SHRINK,
    derandomize=True,  # the same seeds on every run and every machine
)


@pytest.mark.parametrize("game_id,options,counts,examples", CONFIGS)
def test_random_play(game_id: str, options: dict[str, str], counts: tuple[int, ...], examples: int) -> None:
    """Random legal play from every configuration: every invariant, then the same again."""
    game = ALL_GAMES[game_id]

    @settings(_SETTINGS, max_examples=examples)
    @given(
        players=st.sampled_from(counts),
        seed=st.integers(min_value=0, max_value=2**63 - 1),
        chooser=st.integers(min_value=0, max_value=2**32 - 1),
    )
    def match(players: int, seed: int, chooser: int) -> None:
        played = _play(game, players, seed, options, chooser, PREFIX_MOVES, checks_on=True)
        _replay(game, players, seed, options, played)

    match()


@pytest.mark.parametrize("game_id", sorted(ALL_GAMES))
def test_random_play_ends(game_id: str) -> None:
    """Whole matches of random legal play end within MAX_MOVES, with any mix of options."""
    game = ALL_GAMES[game_id]

    @settings(_SETTINGS, max_examples=END_EXAMPLES)
    @given(
        data=st.data(),
        seed=st.integers(min_value=0, max_value=2**63 - 1),
        chooser=st.integers(min_value=0, max_value=2**32 - 1),
    )
    def match(data: st.DataObject, seed: int, chooser: int) -> None:
        options = {o.key: _draw_value(data, o) for o in game.options}
        counts = player_counts(game, options)
        if not counts:  # an option mix the game refuses: fall back to the defaults
            options = {o.key: o.default_value for o in game.options}
            counts = player_counts(game, options)
        players = data.draw(st.sampled_from(counts), label="players")
        played = _play(game, players, seed, options, chooser, MAX_MOVES, checks_on=False)
        assert game.outcome(played.last) is not None, f"no result after {MAX_MOVES} random legal moves"
        _replay(game, players, seed, options, played)

    match()


@pytest.mark.parametrize("game_id,options,counts,examples", CONFIGS)
def test_every_player_count_sets_up(
    game_id: str, options: dict[str, str], counts: tuple[int, ...], examples: int
) -> None:
    """Each accepted player count gives a running match whose views render for all seats."""
    game = ALL_GAMES[game_id]
    for players in counts:
        for seed in (0, 1, 2**63 - 1):
            state = game.setup(players, seed, options)
            assert game.outcome(state) is None
            assert game.to_act(state) <= set(range(players))
            assert game.to_act(state)
            _roundtrip(game, state)
            _check_view(game.view(state, None), None)
            for seat in range(players):
                _check_view(game.view(state, seat), seat)
