"""The game registry: the only list of games in the project.

Adding a game means one engine module under ``bot/games/``, one cog under ``cogs/`` and
one line in ``_MODULES`` below.
"""

from __future__ import annotations

from importlib import import_module

from bot.games.base import Game

_MODULES = (
    "bot.games.crown",
    "bot.games.dynasty",
)

GAMES: dict[str, Game] = {}
for _name in _MODULES:
    _game = import_module(_name).GAME
    GAMES[_game.id] = _game


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id``; KeyError if there is none."""
    return GAMES[game_id]
