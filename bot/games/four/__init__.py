"""Kingdom Four (seed 002): matching cards from the field and collecting sets.

``GAME`` is the engine registered as ``four``. Modules, the same nouns as every game's:
``cards`` (the deck and matching), ``state`` (the frozen state), ``moves`` (the legal moves
and what they do), ``view`` (what each seat sees), ``scoring`` (the three categories,
solved exactly), ``ai`` (the heuristic player), ``rules`` (the rulebook text) and ``game``
(the engine: what it declares, whose move, the phases and their handlers).
"""

from __future__ import annotations

from bot.games.four.game import GAME, Four, FourState

__all__ = ["GAME", "Four", "FourState"]
