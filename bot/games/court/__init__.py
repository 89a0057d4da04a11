"""King's Court (seed 004): trick-and-meld with a secret King suit, for four players.

Modules by noun: ``cards`` (the deck, trick rank), ``tricks`` (hand types, duels),
``melds`` (courting, sandbags, runs), ``scoring``, ``bids``, ``state``, ``view``, ``ai``,
``rules`` (the help text) and ``game`` (the engine).
"""

from bot.games.court.game import GAME

__all__ = ["GAME"]
