"""Benchmark of the ``dynasty`` engine against RLCard's UNO, and the AI's strength.

    python benchmarks/bench_dynasty.py [--seconds 20] [--matches 1000] [--rounds 4]

Prints, from one run:

- dynasty: full random *hands* per second (bonus deck, 4 players), through the public
  engine API (``to_act``, ``legal_moves``, ``apply``), for two kinds of random legal agent:
  *rlcard-like* plays a uniformly random card play when it has one and otherwise draws or
  passes (the action rule of RLCard's UNO, where drawing is legal only without a playable
  card); *uniform* picks uniformly among all legal moves (voluntary draws and passes too).
  Whenever several seats may act (out-of-turn moves), one of them is drawn at random.
- RLCard: ``rlcard.make('uno')`` games per second with its random agents (RLCard is a
  benchmark-only dependency: ``pip install rlcard``, the ``bench`` extra); if it is missing
  that is said and the dynasty figures are still printed. Its moves are counted the same way
  as dynasty's: every decision an agent makes (a card played, or a draw), read from the
  trajectories ``env.run`` returns.
- the ratios: dynasty hands/s to RLCard games/s, and per move (RLCard's microseconds a move
  over dynasty's: above 1, dynasty is faster per move); and the AI's win rate against random
  legal play over 2-player matches.

The engine is plain Python; nothing is compiled at install.

Both engines run in alternating rounds of equal length, so that load from other programs on
the machine hits both alike.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.dynasty import GAME
from bot.games.dynasty.evaluate import ai_vs_random


def _rlcard_like(rnd: random.Random, moves: list[Any]) -> Any:
    """Uniform among card plays when there is one, else uniform among the other moves."""
    move = rnd.choice(moves)
    if move.code[:2] in ("p:", "t:"):
        return move  # uniform over all moves, given it is a play: uniform over plays
    plays = [m for m in moves if m.code[:2] in ("p:", "t:")]
    return rnd.choice(plays) if plays else move


def _uniform(rnd: random.Random, moves: list[Any]) -> Any:
    return rnd.choice(moves)


AGENTS: dict[str, Callable[[random.Random, list[Any]], Any]] = {
    "rlcard-like": _rlcard_like,
    "uniform": _uniform,
}


class DynastyRunner:
    """Plays random hands (bonus deck, 4 players) for a given time, keeping its match."""

    def __init__(self, agent: str, seed: int, players: int = 4, deck: str = "bonus") -> None:
        self.choose = AGENTS[agent]
        self.rnd = random.Random(seed)
        self.options = {"deck": deck}
        self.players = players
        self.state = GAME.setup(players, seed, self.options)
        self.hands = self.moves = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        to_act, legal_moves, apply, outcome = GAME.to_act, GAME.legal_moves, GAME.apply, GAME.outcome
        rnd, choose, state = self.rnd, self.choose, self.state
        hands = moves = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            actors = tuple(to_act(state))
            seat = actors[0] if len(actors) == 1 else rnd.choice(actors)
            move = choose(rnd, legal_moves(state, seat))
            hand = state.hand_number
            state, _events = apply(state, seat, move)
            moves += 1
            if state.hand_number != hand or outcome(state) is not None:
                hands += 1
                if outcome(state) is not None:
                    state = GAME.setup(self.players, rnd.randrange(1 << 62), self.options)
                if hands % 16 == 0 and time.perf_counter() >= deadline:
                    break
        self.seconds += time.perf_counter() - start
        self.state = state
        self.hands += hands
        self.moves += moves

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


class RLCardRunner:
    """RLCard's UNO with random agents, whole games for a given time."""

    def __init__(self, seed: int) -> None:
        import rlcard  # benchmark-only dependency
        from rlcard.agents import RandomAgent

        self.env = rlcard.make("uno", config={"seed": seed})
        self.env.set_agents(
            [RandomAgent(num_actions=self.env.num_actions) for _ in range(self.env.num_players)]
        )
        self.games = self.moves = 0
        self.seconds = 0.0
        self.version = getattr(rlcard, "__version__", "?")

    def run(self, seconds: float) -> None:
        env = self.env
        games = moves = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            trajectories, _payoffs = env.run(is_training=False)
            # Each player's trajectory is state, action, state, ..., action, final state.
            moves += sum((len(t) - 1) // 2 for t in trajectories)
            games += 1
            if games % 16 == 0 and time.perf_counter() >= deadline:
                break
        self.seconds += time.perf_counter() - start
        self.games += games
        self.moves += moves

    @property
    def rate(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring time per engine and agent")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds the time is split into")
    parser.add_argument("--matches", type=int, default=1000, help="2-player AI-vs-random matches")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    runners: dict[str, Any] = {name: DynastyRunner(name, args.seed) for name in AGENTS}
    try:
        runners["rlcard"] = RLCardRunner(args.seed)
    except ImportError as err:
        print(
            f"RLCard is not installed ({err}); install it with `pip install rlcard` to compare. "
            "Dynasty figures only."
        )
    slice_seconds = args.seconds / max(1, args.rounds)
    for name, runner in runners.items():  # warm-up
        runner.run(0.2)
        runner.seconds = 0.0
        if name == "rlcard":
            runner.games = runner.moves = 0
        else:
            runner.hands = runner.moves = 0
    for _ in range(args.rounds):
        for runner in runners.values():
            runner.run(slice_seconds)

    print("dynasty engine: pure Python (nothing is compiled)")
    print(f"dynasty, bonus deck, 4 players, random legal agents ({args.seconds:.0f} s each):")
    for name in AGENTS:
        r = runners[name]
        print(
            f"  {name:12s} {r.rate:8.0f} hands/s   ({r.moves / max(1, r.hands):.0f} moves a hand, "
            f"{r.seconds / max(1, r.moves) * 1e6:.1f} us a move)"
        )
    rl = runners.get("rlcard")
    if rl is not None:
        rl_us = rl.seconds / max(1, rl.moves) * 1e6
        print(
            f"RLCard {rl.version} uno, random agents: {rl.rate:8.0f} games/s   "
            f"({rl.moves / max(1, rl.games):.0f} moves a game, {rl_us:.1f} us a move)"
        )
        for name in AGENTS:
            r = runners[name]
            us = r.seconds / max(1, r.moves) * 1e6
            print(
                f"  ratio dynasty {name} hands/s : RLCard uno games/s = {r.rate / rl.rate:.2f};"
                f" per move (RLCard us / dynasty us) = {rl_us / us:.2f}"
            )
    else:
        print("RLCard uno: not measured (rlcard not installed)")

    start = time.perf_counter()
    wins, matches = ai_vs_random(args.matches, seed=args.seed * 100_000)
    took = time.perf_counter() - start
    print(
        f"AI vs random legal play, 2 players, dynasty deck: {wins}/{matches} matches won "
        f"({100 * wins / matches:.1f}%) in {took:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
