"""The kit shared by every game, gathered in one import (``from bot.games.base import ...``).

Engines are pure: no Discord, no database, no asyncio, no wall clock and no global
``random``. Randomness comes from :class:`Rng`, a splitmix64 generator whose whole state is
one integer stored inside the game state, so ``load(dump(s)) == s`` and a match replays
exactly from its seed and its move list.

Seats are integers ``0..n-1``. Text meant for people names a seat as ``{p3}`` (:func:`p`);
the UI replaces such placeholders with display names.

Where things are: :mod:`bot.games.kit.info` (what a game declares), :mod:`~bot.games.kit.engine`
(the base class: applying a move by its declared handler, defaults, the codec's
``dump``/``load``), :mod:`~bot.games.kit.codec` (the one state codec),
:mod:`~bot.games.kit.values` (moves, views, outcomes, options, commands),
:mod:`~bot.games.kit.errors`, :mod:`~bot.games.kit.rng` and :mod:`~bot.games.kit.helpers`.
"""

from __future__ import annotations

from bot.games.kit.codec import StateCodec
from bot.games.kit.engine import Game, GameBase, handles, player_counts
from bot.games.kit.errors import GameError, IllegalMove, InvalidOptions, MatchOver, NotYourTurn
from bot.games.kit.helpers import deal_hidden, join_names, p, plural, ranked, said_to, waiting_for
from bot.games.kit.info import GameInfo, Parties, Search
from bot.games.kit.rng import Rng
from bot.games.kit.values import (
    PICK_SEPARATOR,
    SEAT_TOKEN_RE,
    TYPED_SEPARATORS,
    CardGroup,
    Command,
    Event,
    Move,
    Option,
    Outcome,
    Pick,
    ScoreLine,
    SeatResult,
    SuiteHints,
    TimedMove,
    View,
    find_move,
    move_kind,
    playable_cards,
    seat_token,
    typed_parts,
    without_label,
)

__all__ = [
    "PICK_SEPARATOR",
    "SEAT_TOKEN_RE",
    "TYPED_SEPARATORS",
    "CardGroup",
    "Command",
    "Event",
    "Game",
    "GameBase",
    "GameError",
    "GameInfo",
    "IllegalMove",
    "InvalidOptions",
    "MatchOver",
    "Move",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Parties",
    "Pick",
    "Rng",
    "ScoreLine",
    "Search",
    "SeatResult",
    "StateCodec",
    "SuiteHints",
    "TimedMove",
    "View",
    "deal_hidden",
    "find_move",
    "handles",
    "join_names",
    "move_kind",
    "p",
    "playable_cards",
    "player_counts",
    "plural",
    "ranked",
    "said_to",
    "seat_token",
    "typed_parts",
    "waiting_for",
    "without_label",
]
