"""Kingdom Four (seed 002): matching cards from the field and collecting sets.

``GAME`` is the protocol object registered as ``four``. Modules: ``cards`` (the deck and
matching), ``scoring`` (the three categories, solved exactly), ``game`` (state, moves, views),
``ai`` (the heuristic player), ``rules`` (the help text).
"""

from __future__ import annotations

from bot.games.four.game import GAME, Four, FourState

__all__ = ["GAME", "Four", "FourState"]
