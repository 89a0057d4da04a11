"""What a replay costs: building one (dealing and playing a finished match again) and a step.

King's Dynasty matches are played by the normal AI at every seat, from the short default to
the longest length ("limit": until a total passes the limit, thousands of moves); each is
then built as a :class:`bot.service.replays.Replay`. **The baseline** is the engine alone
playing the same moves again (``apply`` after ``setup``, nothing kept): the ratio says what
keeping the checkpoints and the events adds. Also printed: the memory a built replay holds
(tracemalloc) and the slowest step asked for (the one furthest from a checkpoint, played
forward). Not a timed test.

    .venv/bin/python benchmarks/bench_replay.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import GAMES
from bot.games.kit.rng import Rng
from bot.service.replays import CHECKPOINT, Replay
from db.records import MatchRecord, MatchStatus, Seat

CASES = ((2, {"hands": "5"}), (4, {"hands": "8"}), (6, {"hands": "limit"}))


def played(players: int, options: dict[str, str], seed: int) -> list[tuple[int, int, str]]:
    game = GAMES["dynasty"]
    state = game.setup(players, seed, options)
    rng = Rng.from_seed(seed + 1)
    moves = []
    version = 1
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        move = game.ai_move(state, seat, rng)
        state, _ = game.apply(state, seat, move.code)
        version += 1
        moves.append((version, seat, move.code))
    return moves


def record(players: int, options: dict[str, str], seed: int, version: int) -> MatchRecord:
    seats = tuple(Seat(user_id=i + 1, name=f"player {i + 1}") for i in range(players))
    return MatchRecord(
        id=1, guild_id=1, channel_id=1, message_id=None, host_id=1, game_id="dynasty", options=options,
        status=MatchStatus.FINISHED, seats=seats, version=version, seed=seed, state=None, notes={},
        deadline_at=None, deadline=None, created_at=0.0, updated_at=0.0,
    )  # fmt: skip


def engine_alone(players: int, options: dict[str, str], seed: int, moves: list[tuple[int, int, str]]) -> None:
    game = GAMES["dynasty"]
    state = game.setup(players, seed, options)
    for _version, seat, code in moves:
        state, _ = game.apply(state, seat, code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="builds of each case (the median is shown)")
    runs = parser.parse_args().runs
    print(
        f"{'case':<28}{'moves':>7}{'engine ms':>11}{'replay ms':>11}{'ratio':>7}{'KiB held':>10}{'worst step ms':>15}"
    )
    for players, options in CASES:
        seed = 7
        moves = played(players, options, seed)
        rec = record(players, options, seed, moves[-1][0])
        base, built = [], []
        for _ in range(runs):
            t = time.perf_counter()
            engine_alone(players, options, seed, moves)
            base.append(time.perf_counter() - t)
            t = time.perf_counter()
            Replay(rec, GAMES["dynasty"], moves)
            built.append(time.perf_counter() - t)
        tracemalloc.start()
        replay = Replay(rec, GAMES["dynasty"], moves)
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        worst = 0.0
        for number in range(CHECKPOINT - 1, replay.last, CHECKPOINT):
            t = time.perf_counter()
            replay.step(number)
            worst = max(worst, time.perf_counter() - t)
        engine, rebuilt = statistics.median(base), statistics.median(built)
        name = f"{players} players, hands {options['hands']}"
        print(
            f"{name:<28}{len(moves):>7}{engine * 1000:>11.0f}{rebuilt * 1000:>11.0f}"
            f"{rebuilt / engine:>7.2f}{held / 1024:>10.0f}{worst * 1000:>15.1f}"
        )


if __name__ == "__main__":
    main()
