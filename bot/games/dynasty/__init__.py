"""King's Court / King's Dynasty / Bonus (seed 000): an UNO-like shedding game.

``GAME`` is the protocol object registered as ``dynasty``. Plain Python: nothing is compiled.
"""

from __future__ import annotations

from bot.games.dynasty.game import GAME, Dynasty

__all__ = ["GAME", "Dynasty"]
