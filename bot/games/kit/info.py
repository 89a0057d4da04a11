"""What a game is and what it offers, declared once (OpenSpiel's ``GameType``/``GameInfo``).

A game passes one :class:`GameInfo` to the kit; nothing else repeats these facts. Optional
capabilities are values with their own meaning, never sentinels: a game that can be played
as a party says so with :class:`Parties`, one whose hard AI may cut its rollouts short says
so with a :class:`Search` horizon.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.games.kit.values import Command, Option, SuiteHints


@dataclass(frozen=True, slots=True)
class Parties:
    """The game can be played as a party (several tables, winners moving on), which adds up
    the seats' scores: ``options`` are the lobby options a party starts with, over the
    game's defaults."""

    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Search:
    """How the hard AI (:mod:`bot.games.search`) values and cuts its rollouts.

    ``margin``: how much the score margin (the seat's lead over the best other seat, scaled
    to -1..1) counts beside the places a rollout ends in (0: places only). ``horizon``: the
    moves after which a rollout is cut short and valued by the game's ``standing`` (None:
    played to the end of the stage). ``hint_moves``: the work of a practice hint's search, in
    moves played by its rollouts (never a time, so the same view gives the same hint on any
    machine), set per game by its measured cost per move so that a hint answers within the
    hard AI's think time (0.8 s); see docs/MEASUREMENTS.md."""

    margin: float = 0.0
    horizon: int | None = None
    hint_moves: int = 6_000


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Everything a game declares about itself.

    ``id`` is also the slash command group; ``summary`` is one line for menus; ``rules`` is
    markdown with this project's rulings; ``min_players``..``max_players`` the table sizes
    (``check_players`` may narrow them by options); ``commands`` the game's slash commands
    (buttons and ``/move`` reach every move anyway); ``card_kinds`` the move kinds that
    play a card (the hand's picture marks the cards they can play now); ``low_score_wins``
    when scores are penalties; ``section_name`` what the game calls the parts of a match a
    replay's select jumps between (``section``); ``lesson`` the options of a guided first
    match (``/learn``: a short one, where the defaults are long); ``hints`` what the generic test suites need;
    ``dismiss_kinds`` the move kinds that only let an optional chance pass, which the game
    never waits for: the hand shows no button for them when they come last among a seat's
    moves (typed with ``/move`` or chosen by the AI, they stay legal)."""

    id: str
    name: str
    summary: str
    rules: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    commands: tuple[Command, ...] = ()
    card_kinds: tuple[str, ...] = ()
    low_score_wins: bool = False
    parties: Parties | None = None
    search: Search = field(default_factory=Search)
    section_name: str = "Hand"
    lesson: tuple[tuple[str, str], ...] = ()
    hints: SuiteHints = field(default_factory=SuiteHints)
    dismiss_kinds: tuple[str, ...] = ()
