"""Whole AI-vs-AI matches with no Discord and no database.

    python -m bot simulate --game crown --variant atcourt --players 5 --games 1000 --seed 1
    python -m bot simulate --game four --players 4 --games 1000 --ai-vs-random
    python -m bot simulate --game dreams --players 2 --games 200 --levels hard,normal --rollouts 64

Every lobby option of the game is a flag (``--variant``, ``--deck``, ...; an option with two
choices also works bare: ``--wild`` means ``--wild on``). The last line printed is one JSON
object: game, variant, options, players, games, finished, moves, median_moves, seconds,
games_per_s, errors. With ``--ai-vs-random`` one seat (a different one each match) plays the
game's AI and the others random legal moves; ``ai_win_share`` is the AI's share of first
places (a shared first place counts its share) against a fair share of ``1/players``.
With ``--levels`` (``easy``, ``normal``, ``hard``, cycled over the seats and turned one seat
each match, so ``hard,normal,normal,normal`` puts one hard seat in every place in turn) the
report adds ``levels``: per level its seats, its share of first places per seat against the
fair share, and for hard the search's move time (p50, p99 in ms; ``--rollouts`` bounds each
move's search). Same seed, same result.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games import GAMES
from bot.games.base import Game, GameError, InvalidOptions, Move, Outcome, Rng
from bot.games.search import LEVELS, level_move

MAX_MOVES = 200_000


Chooser = Callable[[Game, Any, int, int, Rng], Move]  # (game, state, seat, move seed, rng) -> move


def _play(
    game: Game, players: int, seed: int, options: Mapping[str, str], choose: Chooser
) -> tuple[Outcome | None, int]:
    """Play one match, each move picked by ``choose``; the outcome (None: not over within
    ``MAX_MOVES``) and the number of moves."""
    state = game.setup(players, seed, options)
    rng = Rng.from_seed(seed ^ 0x5DEECE66D)
    moves = 0
    while (outcome := game.outcome(state)) is None:
        actors = sorted(game.to_act(state))
        if not actors:
            raise RuntimeError(f"nobody may act in a running match (seed {seed}, move {moves})")
        seat, rng = rng.choice(actors)
        move_seed, rng = rng.next64()
        state, _ = game.apply(state, seat, choose(game, state, seat, move_seed, rng))
        moves += 1
        if moves > MAX_MOVES:
            return None, moves
    return outcome, moves


def play_match(
    game: Game, players: int, seed: int, options: Mapping[str, str], ai_seats: frozenset[int] | None = None
) -> tuple[bool, int, float]:
    """One match: seats in ``ai_seats`` (all by default) play the game's AI, the others random
    legal moves. Returns (finished, moves, the AI seats' share of first places)."""

    def choose(game: Game, state: Any, seat: int, _move_seed: int, rng: Rng) -> Move:
        if ai_seats is None or seat in ai_seats:
            return game.ai_move(state, seat, rng)
        return rng.choice(game.legal_moves(state, seat))[0]

    outcome, moves = _play(game, players, seed, options, choose)
    if outcome is None:
        return False, moves, 0.0
    firsts = [r.seat for r in outcome.results if r.place == 1]
    share = sum(1 for s in firsts if ai_seats is None or s in ai_seats) / len(firsts) if firsts else 0.0
    return True, moves, share


def play_levels(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, str],
    levels: Sequence[str],
    rollouts: int,
    hard_times: list[float] | None = None,
    think: float | None = None,
) -> tuple[bool, int, list[float]]:
    """One match where seat ``s`` plays at ``levels[s]`` (see :data:`bot.games.search.LEVELS`).
    Returns (finished, moves, each seat's share of first places). The seconds each hard move
    took are appended to ``hard_times``. With ``think``, a hard move also stops after that
    many seconds, as the bot's does (``rollouts`` is then only a cap)."""

    def choose(game: Game, state: Any, seat: int, move_seed: int, _rng: Rng) -> Move:
        start = time.perf_counter()
        stop = None if think is None else (lambda: time.perf_counter() - start > think)
        move = level_move(game, state, seat, levels[seat], move_seed, rollouts, stop)
        if levels[seat] == "hard" and hard_times is not None:
            hard_times.append(time.perf_counter() - start)
        return move

    outcome, moves = _play(game, players, seed, options, choose)
    if outcome is None:
        return False, moves, [0.0] * players
    firsts = [r.seat for r in outcome.results if r.place == 1]
    shares = [0.0] * players
    for s in firsts:
        shares[s] += 1 / len(firsts)
    return True, moves, shares


def seat_levels(levels: Sequence[str], players: int, match: int) -> list[str]:
    """The level of each seat in match number ``match``: ``levels`` cycled over the seats,
    turned by one seat a match."""
    cycled = [levels[k % len(levels)] for k in range(players)]
    return [cycled[(s + match) % players] for s in range(players)]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def default_players(game: Game, options: Mapping[str, str]) -> int:
    for n in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(n, options)
            return n
        except InvalidOptions:
            continue
    raise InvalidOptions("No player count fits these options.")


def simulate(
    game_id: str,
    games: int,
    seed: int,
    players: int | None,
    options: Mapping[str, str],
    ai_vs_random: bool = False,
    levels: Sequence[str] | None = None,
    rollouts: int = 400,
) -> dict[str, Any]:
    game = GAMES[game_id]
    opts = {o.key: o.default_value for o in game.options}
    opts.update(options)
    n = players or default_players(game, opts)
    game.check_players(n, opts)
    finished = moves = 0
    lengths: list[int] = []
    ai_share = 0.0
    level_share: dict[str, float] = {}
    level_seats: dict[str, int] = {}
    hard_times: list[float] = []
    errors: list[str] = []
    start = time.perf_counter()
    for i in range(games):
        match_seed = seed * 1_000_003 + i  # runs of different --seed share no match
        try:
            if levels:
                these = seat_levels(levels, n, i)
                done, count, shares = play_levels(game, n, match_seed, opts, these, rollouts, hard_times)
                for level, seat_share in zip(these, shares):
                    level_share[level] = level_share.get(level, 0.0) + seat_share
                    level_seats[level] = level_seats.get(level, 0) + 1
                share = 0.0
            else:
                ai_seats = frozenset({i % n}) if ai_vs_random else None
                done, count, share = play_match(game, n, match_seed, opts, ai_seats)
        except (GameError, RuntimeError, AssertionError, KeyError, ValueError, IndexError) as err:
            errors.append(f"seed {match_seed}: {type(err).__name__}: {err}")
            continue
        finished += done
        moves += count
        lengths.append(count)
        ai_share += share
        if not done:
            errors.append(f"seed {match_seed}: no result after {MAX_MOVES} moves")
    seconds = time.perf_counter() - start
    report: dict[str, Any] = {
        "game": game_id,
        "variant": opts.get("variant") or " ".join(f"{k}={v}" for k, v in sorted(opts.items())) or None,
        "options": opts,
        "players": n,
        "games": games,
        "finished": finished,
        "moves": moves,
        "median_moves": statistics.median(lengths) if lengths else None,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1) if seconds > 0 else None,
        "errors": len(errors),
        "first_errors": errors[:5],
    }
    if ai_vs_random:
        report["ai_win_share"] = round(ai_share / games, 3) if games else None
        report["fair_share"] = round(1 / n, 3)
    if levels:
        report["levels"] = {
            level: {
                "seats": round(level_seats[level] / max(1, len(lengths)), 2),
                "win_share_per_seat": round(level_share[level] / level_seats[level], 3),
                "fair_share": round(1 / n, 3),
            }
            for level in sorted(level_seats, key=LEVELS.index)
        }
        report["rollouts"] = rollouts
        if hard_times:
            report["hard_move_ms"] = {
                "p50": round(_percentile(hard_times, 0.5) * 1000, 1),
                "p99": round(_percentile(hard_times, 0.99) * 1000, 1),
                "moves": len(hard_times),
            }
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ai-vs-random", action="store_true", help="one AI seat against random legal players"
    )
    parser.add_argument(
        "--levels", help="AI level per seat, cycled over the seats: easy, normal, hard (e.g. hard,normal)"
    )
    parser.add_argument("--rollouts", type=int, default=400, help="the hard level's rollouts per move")
    known, rest = parser.parse_known_args(argv)
    game = GAMES[known.game]
    opt_parser = argparse.ArgumentParser(prog=f"python -m bot simulate --game {known.game}")
    for o in game.options:
        values = [v for v, _ in o.choices]
        flag = f"--{o.key.replace('_', '-')}"
        if o.multi:  # several choices joined by commas
            opt_parser.add_argument(flag, dest=o.key, metavar=",".join(values[:3]) + ",...")
        elif len(values) == 2:  # a switch: the bare flag means the second choice
            opt_parser.add_argument(flag, dest=o.key, choices=values, nargs="?", const=values[1])
        else:
            opt_parser.add_argument(flag, dest=o.key, choices=values)
    opts = {k: v for k, v in vars(opt_parser.parse_args(rest)).items() if v is not None}
    for o in game.options:
        if o.multi and o.key in opts:
            unknown = [v for v in opts[o.key].split(",") if v and v not in dict(o.choices)]
            if unknown:
                opt_parser.error(f"--{o.key}: unknown choice(s) {', '.join(unknown)}")
    levels = [v.strip() for v in known.levels.split(",") if v.strip()] if known.levels else None
    if levels is not None and (not levels or any(v not in LEVELS for v in levels)):
        parser.error(f"--levels: each level is one of {', '.join(LEVELS)}")
    try:
        report = simulate(
            known.game,
            known.games,
            known.seed,
            known.players,
            opts,
            known.ai_vs_random,
            levels,
            known.rollouts,
        )
    except InvalidOptions as err:
        print(str(err), file=sys.stderr)
        return 2
    for line in report.pop("first_errors"):
        print(line, file=sys.stderr)
    print(json.dumps(report))
    return 1 if report["errors"] else 0
