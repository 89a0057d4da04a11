"""What runs in a hard AI worker process (:mod:`bot.service.thinkers` keeps the pool).

A worker imports this module and, through it, the games: nothing of the service, the
database or Discord. What a worker runs is named by its module when it is sent, and a module
inside ``bot.service`` would import the whole service package (SQLAlchemy, the repository)
in every worker, about 40 MB each for code a worker never runs; the layer rules
(``tests/tooling/test_layers.py``) keep this module to the games.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from typing import Any

import bot.games  # imported by the fork server once, so that every worker starts with the games
from bot.games.search import SearchResult, search_move

NICENESS = 10  # added to a worker's niceness: the bot's process comes first for the CPU


def ready() -> None:
    """A worker's start: below the bot for the CPU, and ending with the bot's process however
    that ends (a killed bot would otherwise leave its workers waiting for work that never
    comes)."""
    if hasattr(os, "nice"):  # answers first: the machine runs the bot before its AI's thinking
        os.nice(NICENESS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="end-with-the-bot", daemon=True).start()


def _end_with(parent: Any) -> None:
    parent.join()  # returns once the parent process has ended
    os._exit(0)


def started() -> None:
    """Nothing: submitted to make a pool start its workers."""


def search(
    game_id: str,
    data: dict[str, Any],
    seat: int,
    seed: int,
    rollouts: int,
    deadline: float,
    moves: int | None = None,
) -> SearchResult:
    """The state loaded as a restart loads it, then searched until ``deadline`` (the machine's
    monotonic clock, the same in every process)."""
    game = (
        bot.games.GAMES.get(game_id) or bot.games.EXAMPLES[game_id]
    )  # the examples: the test suites host them too
    return search_move(
        game, game.load(data), seat, seed, rollouts, lambda: time.monotonic() >= deadline, moves
    )
