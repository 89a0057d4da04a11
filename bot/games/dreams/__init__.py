"""Kingdom of Dreams (seed 001): coins, buying, attacks and the trump pile.

``GAME`` is the engine registered as ``dreams``. Modules, the same nouns as every game's:
``cards`` (the deck and its piles), ``state`` (the frozen state), ``moves`` (the legal moves
and what they do), ``payment`` (buying and selling: trade-ins, coins, the bank's change),
``combat`` (who wins an attack), ``view`` (what each seat sees), ``scoring`` (the end and
the places), ``ai`` (+ ``evaluate``, its figures), ``rules`` (the rulebook text) and
``game`` (the engine: what it declares, whose move, the phases and their handlers).
"""

from __future__ import annotations

from bot.games.dreams.game import GAME, Dreams

__all__ = ["GAME", "Dreams"]
