"""Kingdom of Dreams (seed 001): coins, buying, attacks and the trump pile.

``GAME`` is the protocol object registered as ``dreams``. Modules: ``cards`` (the deck and
its piles), ``state`` (the frozen state, dump and load), ``payment`` (buying and selling),
``combat`` (who wins an attack), ``ai``, ``rules`` (the help text) and ``game`` (the engine).
"""

from __future__ import annotations

from bot.games.dreams.game import GAME, Dreams

__all__ = ["GAME", "Dreams"]
