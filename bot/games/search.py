"""One search AI for every game: determinized Monte Carlo from a seat's information.

For one decision of ``seat``, the search deals again what the seat cannot see
(:meth:`Game.resample`), plays each candidate move in that deal, and plays the match on
with the game's own ``ai_move`` for every seat (the rollout policy): to its end, to the end
of the current hand (:meth:`Game.stage` changes: the next hand is a fresh deal, so a
decision costs what it costs in a one-hand match), or, for a game with a
search ``horizon``, for that many moves; a rollout cut short is valued by
:meth:`Game.standing`, the match scored as if it ended there (a truncated rollout: cheaper,
so more of them in the same time, and less of the noise of luck far ahead). A candidate's
value is the mean over its rollouts of
:func:`place_value`, plus, for a game with a search ``margin``, that weight times its score
margin over the best other seat (:func:`margin_value`: a smoother signal than places).
This is flat perfect-information Monte Carlo (PIMC) with refinements that measured better
than UCB over root moves, and than information-set Monte Carlo tree search (ISMCTS; see
docs/MEASUREMENTS.md), within a one-second budget:

* **common deals**: one round samples one determinization and one rollout seed, and
  plays every candidate still in the race from it, so candidates are compared on the
  same cards and the same luck (paired comparisons: far less noise per rollout);
* **pruning**: after each round, a candidate whose mean trails the best by more than
  ``PRUNE_MARGIN / sqrt(rounds)`` leaves the race, so the budget goes to close calls;
* **the game's AI by default**: the search leaves the game AI's own choice only for a
  candidate whose paired advantage over it (the mean of the per-deal differences) exceeds
  ``CONFIDENCE`` standard errors. With few rollouts (a slow game, a busy machine) the hard
  level so plays like normal instead of following noise; with more it finds better moves.
  Once pruning has left only the game AI's choice, the search stops (nothing is left to
  compare).

Candidates are the seat's listed legal moves (a move with a :class:`Pick` is its
default choice) plus the game AI's own choice (never pruned).

The search sees the real state only through ``resample``: even the root's legal moves and
the AI's choice are read from a determinization, so two states the seat cannot tell apart
give the same move for the same seed and budget (given a ``resample`` that depends only on
what the seat sees, as every engine's does). The future is hidden too: an engine keeps its
generator in the state, so a determinization that kept it would know the real next deal or
reshuffle. Each determinization gets fresh luck: if the state's ``dump`` holds the generator
as an integer under ``"rng"`` (the convention every engine here follows), it is replaced by
a seed of the search's own before ``load``. A game without that key is searched with its
generator as it is (weaker secrecy of future draws, nothing else lost).

Pure like every engine: no wall clock. The caller bounds the work with ``rollouts`` (and
``moves``, the moves played by the rollouts: a practice hint's budget, per game) and may
pass ``stop``, a callable checked before each rollout (the service passes a deadline
check). A round cut short by ``stop`` is dropped, so the move depends only on the seed
and the number of whole rounds played.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.games.base import Game, GameError, Move, Outcome, Rng

__all__ = [
    "HINT_ROLLOUTS",
    "LEVELS",
    "Hint",
    "SearchResult",
    "hint",
    "hint_seed",
    "hint_view",
    "level_move",
    "margin_value",
    "outcome_value",
    "place_value",
    "random_move",
    "search_move",
]

LEVELS = ("easy", "normal", "hard")  # easy: random legal; normal: the game's AI; hard: search

ROLLOUT_MOVES = 5_000  # a rollout longer than this counts as a draw (no game comes near it)
PRUNE_MARGIN = 1.0
MIN_ROUNDS = 4  # rounds before any candidate may be pruned or preferred to the game's AI
CONFIDENCE = 1.5  # standard errors of paired advantage needed to overrule the game's AI
HINT_ROLLOUTS = 240  # a hint's most rollouts; the game's ``search.hint_moves`` usually ends it sooner
SECOND_PLACE = 0.25  # what the best place behind the first is worth (the last: 0)


def place_value(outcome: Outcome, seat: int) -> float:
    """What ``outcome`` is worth to ``seat``: 1 for a first place alone, 1/k for a first
    place shared by k seats, and a little for the better of the other places (at most
    ``SECOND_PLACE``, falling to 0 for the last) so the search still prefers second to last."""
    results = outcome.results
    firsts = sum(1 for r in results if r.place == 1)
    mine = next((r for r in results if r.seat == seat), None)
    if mine is None:
        return 0.0
    if mine.place == 1:
        return 1.0 / firsts
    worst = max(r.place for r in results)
    if worst <= 1:
        return 0.0
    return SECOND_PLACE * (worst - mine.place) / (worst - 1)


def margin_value(outcome: Outcome, seat: int, lowest_wins: bool = False) -> float:
    """``seat``'s score margin over the best other seat, between -1 and 1: positive when it
    leads (the lowest score leading where ``lowest_wins``), scaled by the largest score's
    size; 0 for an outcome without scores."""
    scores = {r.seat: r.score for r in outcome.results if r.score is not None}
    if seat not in scores or len(scores) < 2:
        return 0.0
    sign = -1.0 if lowest_wins else 1.0
    mine = sign * scores[seat]
    rival = max(sign * v for s, v in scores.items() if s != seat)
    scale = max(abs(v) for v in scores.values()) + 1.0
    return max(-1.0, min(1.0, (mine - rival) / scale))


def outcome_value(game: Game[Any], outcome: Outcome, seat: int) -> float:
    """A rollout's value for ``seat``: its place, plus its score margin at the game's
    search ``margin`` weight."""
    value = place_value(outcome, seat)
    if game.search.margin:
        value += game.search.margin * margin_value(outcome, seat, game.low_score_wins)
    return value


def random_move(game: Game[Any], state: Any, seat: int, rng: Rng) -> Move:
    """The easy level: a uniformly random legal move."""
    moves = game.legal_moves(state, seat)
    if not moves:
        raise GameError("Nothing to do.")
    move, _ = rng.choice(moves)
    return move


@dataclass(frozen=True, slots=True)
class SearchResult:
    move: Move
    rounds: int  # whole rounds played (one deal, every candidate still racing)
    rollouts: int  # rollouts played, a cut-short round's included
    values: dict[str, float]  # candidate code -> mean value over its rollouts
    moves: int = 0  # moves played in the rollouts (a candidate's own included)


def _rollout(game: Game[Any], state: Any, seat: int, rng: Rng, stage: int) -> tuple[float, int]:
    """Play ``state`` on with the game's AI for every seat; the value for ``seat`` at the
    match's end, or from the game's standing (if it has one) once the stage is no longer
    ``stage`` or after the game's search ``horizon`` moves; and the moves played."""
    horizon = -1 if game.search.horizon is None else game.search.horizon
    for step in range(ROLLOUT_MOVES):
        outcome = game.outcome(state)
        if outcome is None and (step == horizon or game.stage(state) != stage):
            outcome = game.standing(state)
        if outcome is not None:
            return outcome_value(game, outcome, seat), step
        actors = sorted(game.to_act(state))
        if not actors:
            return 0.1, step
        actor, rng = rng.choice(actors)
        _, rng = rng.next64()
        try:
            # the AI's move is legal: played without judging it again (the candidate at the
            # root is judged by apply, as a deal may not allow it)
            state, _ = game.play(state, actor, game.ai_move(state, actor, rng))
        except GameError:
            return 0.1, step
    return 0.1, ROLLOUT_MOVES  # no end within reach: a little less than an even chance


def _determinize(game: Game[Any], state: Any, seat: int, rng: Rng) -> Any:
    """A state ``seat`` cannot tell from ``state``, with fresh luck for what is to come."""
    luck, rng = rng.next64()
    det = game.resample(state, seat, rng)
    data = game.dump(det)
    if isinstance(data.get("rng"), int):
        det = game.load({**data, "rng": luck})
    return det


def _candidates(game: Game[Any], root: Any, seat: int, rng: Rng) -> tuple[list[Move], Move]:
    moves = game.legal_moves(root, seat)
    ai = game.ai_move(root, seat, rng)
    codes = {m.code for m in moves}
    if ai.code not in codes:
        moves = [*moves, ai]
    return moves, ai


def search_move(
    game: Game[Any],
    state: Any,
    seat: int,
    seed: int,
    rollouts: int = 400,
    stop: Callable[[], bool] | None = None,
    moves: int | None = None,
) -> SearchResult:
    """The hard level's move for ``seat`` (which must be one of ``to_act``).

    ``rollouts`` bounds the work; so does ``moves`` if given (no new round starts once the
    rollouts have played that many moves: a budget of work that follows a decision's cost,
    long rollouts early in a hand or at a big table, and never the machine's speed);
    ``stop`` (checked before every rollout) may end it sooner. Deterministic for a given
    seed and number of whole rounds."""
    base = Rng.from_seed(seed)
    root_rng, base = base.next64()
    root = _determinize(game, state, seat, Rng.from_seed(root_rng))
    candidates, ai = _candidates(game, root, seat, Rng.from_seed(root_rng ^ 0xA5A5))
    if len(candidates) == 1:
        return SearchResult(candidates[0], 0, 0, {})
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    ai_index = next(i for i, m in enumerate(candidates) if m.code == ai.code)
    gain = [0.0] * len(candidates)  # sum over rounds of (value - the AI move's value), same deal
    gain_squares = [0.0] * len(candidates)
    active = list(range(len(candidates)))
    rounds = played = spent = 0
    while len(active) > 1 and played + len(active) <= rollouts and (moves is None or spent < moves):
        if stop is not None and stop():
            break
        deal_seed, base = base.next64()
        play_seed, base = base.next64()
        det = _determinize(game, state, seat, Rng.from_seed(deal_seed))
        stage = game.stage(det)
        values: list[float] = []
        for index in active:
            if values and stop is not None and stop():
                break
            try:
                after, _ = game.apply(det, seat, candidates[index])
                value, steps = _rollout(game, after, seat, Rng.from_seed(play_seed), stage)
                values.append(value)
                spent += steps + 1
            except GameError:
                values.append(-1.0)  # not legal in this deal: a game whose legal moves leak; never pick it
            played += 1
        if len(values) < len(active):
            break  # a round cut short is dropped: every racing candidate saw the same deals
        ai_value = values[active.index(ai_index)]
        for index, value in zip(active, values):
            totals[index] += value
            counts[index] += 1
            gain[index] += value - ai_value
            gain_squares[index] += (value - ai_value) ** 2
        rounds += 1
        if rounds >= MIN_ROUNDS and len(active) > 1:
            best = max(totals[i] / counts[i] for i in active)
            margin = PRUNE_MARGIN / math.sqrt(rounds)
            active = [i for i in active if i == ai_index or totals[i] / counts[i] >= best - margin]
    means = {candidates[i].code: totals[i] / counts[i] for i in range(len(candidates)) if counts[i]}
    if not means:
        return SearchResult(ai, rounds, played, {})
    best_index, best_gain = ai_index, 0.0
    if rounds >= MIN_ROUNDS:
        for i in active:
            mean = gain[i] / rounds
            spread = math.sqrt(max(gain_squares[i] / rounds - mean * mean, 0.0) / (rounds - 1))
            if mean > best_gain and mean > CONFIDENCE * spread:
                best_index, best_gain = i, mean
    return SearchResult(candidates[best_index], rounds, played, means, spent)


def level_move(
    game: Game[Any],
    state: Any,
    seat: int,
    level: str,
    seed: int,
    rollouts: int = 400,
    stop: Callable[[], bool] | None = None,
) -> Move:
    """The move of an AI seat playing at ``level`` (one of :data:`LEVELS`)."""
    rng = Rng.from_seed(seed)
    if level == "easy":
        return random_move(game, state, seat, rng)
    if level == "hard":
        return search_move(game, state, seat, seed, rollouts, stop).move
    return game.ai_move(state, seat, rng)


@dataclass(frozen=True, slots=True)
class Hint:
    """A practice match's hint: the hard level's move from the seat's own view, and why
    (the game's :meth:`~bot.games.base.GameBase.hint_reason`, None where it says nothing)."""

    move: Move
    reason: str | None


def hint_seed(match_seed: int, version: int, seat: int) -> int:
    """The seed of a hint's search: the match's seed, its version and the seat, so asking
    again at the same point gives the same hint."""
    return (match_seed ^ (version * 0x9E3779B97F4A7C15 + seat * 0xD1B54A32D192ED03 + 0x4855)) & (
        (1 << 64) - 1
    )


def hint_view(game: Game[Any], state: Any, seat: int, seed: int) -> Any:
    """What a hint starts from: ``state`` dealt again from ``seat``'s view (``resample``), so
    the true hidden cards never reach the search or the reason."""
    return game.resample(state, seat, Rng.from_seed(seed ^ 0x5EED))


def hint(game: Game[Any], state: Any, seat: int, seed: int, rollouts: int | None = None) -> Hint:
    """The hint for ``seat`` (one of ``to_act``): the search over a fixed number of
    rollouts (:data:`HINT_ROLLOUTS` unless given) and of rollout moves (the game's
    ``search.hint_moves``) from :func:`hint_view`, with the game's reason. The same for every state the
    seat cannot tell from ``state`` (the search sees only what ``resample`` keeps)."""
    seen = hint_view(game, state, seat, seed)
    count = HINT_ROLLOUTS if rollouts is None else rollouts
    move = search_move(game, seen, seat, seed, count, moves=game.search.hint_moves).move
    return Hint(move, game.hint_reason(seen, seat, move))
