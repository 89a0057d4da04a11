"""King's Court (seed 004): trick-and-meld with a secret King suit, for four players.

Modules by noun: ``cards`` (the deck, trick rank, runs), ``bids`` (the bids and what they
score), ``scoring`` (a round's points), ``state`` (the match as one frozen value); the moves
by phase: ``rounds`` (bids, the deal, a round's end), ``tricks`` (hand types, leads, follows,
duels, the pool), ``melds`` (the winner's turn: court, sandbag, knock, flop, pass); ``view``,
``ai`` (with ``evaluate``), ``rules`` (the help text) and ``game`` (the engine's wiring).
"""

from bot.games.court.game import GAME

__all__ = ["GAME"]
