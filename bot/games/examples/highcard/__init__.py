"""High Card, the example game of docs/ADDING_A_GAME.md: one folder with the file set every
game has (``cards``, ``state``, ``moves``, ``view``, ``scoring``, ``ai``, ``rules``, ``game``),
registered by one line (``bot.games.EXAMPLES``; a real game's line is in ``_MODULES``)."""

from __future__ import annotations

from bot.games.examples.highcard.game import GAME, HighCard, HighCardState

__all__ = ["GAME", "HighCard", "HighCardState"]
