"""Whole AI-vs-AI matches with no Discord and no database.

    python -m bot simulate --game crown --variant atcourt --players 5 --games 1000 --seed 1

Every lobby option of the game is a flag (``--variant``, ``--deck``, ...). The last line
printed is one JSON object: game, variant, options, players, games, finished, moves,
seconds, games_per_s, errors. Same seed, same result.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from typing import Any

from bot.games import GAMES
from bot.games.base import Game, GameError, InvalidOptions, Rng

MAX_MOVES = 200_000


def play_match(game: Game, players: int, seed: int, options: Mapping[str, str]) -> tuple[bool, int]:
    """One AI-vs-AI match; returns (finished, moves)."""
    state = game.setup(players, seed, options)
    rng = Rng.from_seed(seed ^ 0x5DEECE66D)
    moves = 0
    while game.outcome(state) is None:
        actors = sorted(game.to_act(state))
        if not actors:
            raise RuntimeError(f"nobody may act in a running match (seed {seed}, move {moves})")
        seat, rng = rng.choice(actors)
        _, rng = rng.next64()
        move = game.ai_move(state, seat, rng)
        state, _ = game.apply(state, seat, move)
        moves += 1
        if moves > MAX_MOVES:
            return False, moves
    return True, moves


def default_players(game: Game, options: Mapping[str, str]) -> int:
    for n in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(n, options)
            return n
        except InvalidOptions:
            continue
    raise InvalidOptions("No player count fits these options.")


def simulate(game_id: str, games: int, seed: int, players: int | None, options: Mapping[str, str]) -> dict[str, Any]:
    game = GAMES[game_id]
    opts = {o.key: o.default_value for o in game.options}
    opts.update(options)
    n = players or default_players(game, opts)
    game.check_players(n, opts)
    finished = moves = 0
    errors: list[str] = []
    start = time.perf_counter()
    for i in range(games):
        match_seed = seed * 1_000_003 + i
        try:
            done, count = play_match(game, n, match_seed, opts)
        except (GameError, RuntimeError, AssertionError, KeyError, ValueError, IndexError) as err:
            errors.append(f"seed {match_seed}: {type(err).__name__}: {err}")
            continue
        finished += done
        moves += count
        if not done:
            errors.append(f"seed {match_seed}: no result after {MAX_MOVES} moves")
    seconds = time.perf_counter() - start
    return {
        "game": game_id,
        "variant": opts.get("variant") or " ".join(f"{k}={v}" for k, v in sorted(opts.items())) or None,
        "options": opts,
        "players": n,
        "games": games,
        "finished": finished,
        "moves": moves,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1) if seconds > 0 else None,
        "errors": len(errors),
        "first_errors": errors[:5],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    known, rest = parser.parse_known_args(argv)
    game = GAMES[known.game]
    opt_parser = argparse.ArgumentParser(prog=f"python -m bot simulate --game {known.game}")
    for o in game.options:
        values = [v for v, _ in o.choices]
        flag = f"--{o.key.replace('_', '-')}"
        if o.multi:  # several choices joined by commas
            opt_parser.add_argument(flag, dest=o.key, metavar=",".join(values[:3]) + ",...")
        else:
            opt_parser.add_argument(flag, dest=o.key, choices=values)
    opts = {k: v for k, v in vars(opt_parser.parse_args(rest)).items() if v is not None}
    for o in game.options:
        if o.multi and o.key in opts:
            unknown = [v for v in opts[o.key].split(",") if v and v not in dict(o.choices)]
            if unknown:
                opt_parser.error(f"--{o.key}: unknown choice(s) {', '.join(unknown)}")
    try:
        report = simulate(known.game, known.games, known.seed, known.players, opts)
    except InvalidOptions as err:
        print(str(err), file=sys.stderr)
        return 2
    for line in report.pop("first_errors"):
        print(line, file=sys.stderr)
    print(json.dumps(report))
    return 1 if report["errors"] else 0
