"""The game registry: the only list of games in the project.

Adding a game means its engine module(s) under ``bot/games/`` and one line in ``_MODULES``
below; the kit does the rest (slash commands from the engine's declarations, lobby options,
table and hand, timers, AI seats, persistence, the generic test suites). See
docs/ADDING_A_GAME.md.

``EXAMPLES`` holds example games (``bot/games/examples/``): the test suites run them, the
bot does not offer them.
"""

from __future__ import annotations

from importlib import import_module

from bot.games.base import Game

_MODULES = (
    "bot.games.crown",
    "bot.games.dreams",
    "bot.games.dynasty",
    "bot.games.four",
    "bot.games.court",
)

GAMES: dict[str, Game] = {}
for _name in _MODULES:
    _game = import_module(_name).GAME
    GAMES[_game.id] = _game


EXAMPLES: dict[str, Game] = {}
for _name in ("bot.games.examples.highcard",):
    _game = import_module(_name).GAME
    EXAMPLES[_game.id] = _game
