"""King and Crown (seed 003): five small games played with a five-card deck.

Variants (lobby option ``variant``), by family:

- ``find`` (:mod:`~bot.games.crown.find`): Find the King, 2 players.
- the secret picks (:mod:`~bot.games.crown.picks`): ``defend`` (Defend the King, 2+ players,
  best of 3 with two, last standing with more), ``support`` (Support the King, 2 players,
  best of 3) and ``tourney`` (Tourney for the King, 2 players, five rounds), each judging its
  rounds in its own module.
- ``atcourt`` (:mod:`~bot.games.crown.atcourt`): The King at Court, 3-5 players, hidden roles
  and one accusation.

Modules by noun: ``cards``, ``state`` (one state class per family), the family modules,
``judge`` (who takes a round of secret picks), ``scoring``, ``view``, ``ai``, ``rules`` (the
help text) and ``game`` (the engine).
"""

from bot.games.crown.cards import (
    BEGGAR,
    DECK,
    DRAGON,
    KING,
    KNIGHT,
    NAME,
    TEAM,
    THWARTS,
    VALUE,
    WICKED,
    WISE,
    WITCH,
)
from bot.games.crown.game import GAME
from bot.games.crown.rules import RULES
from bot.games.crown.state import CourtState, CrownState, FindState, PickState

__all__ = [
    "BEGGAR",
    "DECK",
    "DRAGON",
    "GAME",
    "KING",
    "KNIGHT",
    "NAME",
    "RULES",
    "TEAM",
    "THWARTS",
    "VALUE",
    "WICKED",
    "WISE",
    "WITCH",
    "CourtState",
    "CrownState",
    "FindState",
    "PickState",
]
