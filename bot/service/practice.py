"""Practice matches: unrated, with hints, and (from ``/learn``) a guide in the hand.

Practice is a lobby option every game gets from the platform, not from its engine: it is
kept in the match's options under :data:`KEY` (so a rematch keeps it), and the engines never
read it. A practice match stores no result, rating, leaderboard or season row; its players
may ask for a hint (:mod:`bot.service.hints`). A guided match (``/learn``) is a practice
match whose first turns explain themselves: each kind of situation the game names
(:meth:`~bot.games.base.GameBase.situations`) is told once per seat as a private event, so
it shows in that seat's hand only; the keys told are kept in the match's notes
(:data:`EXPLAINED`), so a restart does not tell them again. At most :data:`AT_ONCE` are told
at one time, the game's first ones (a new player reads a few lines, not a wall of text); the
others wait for the next time their situation comes up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Event, Game, Option

KEY = "practice"
RATED, PRACTICE, GUIDED = "off", "on", "guided"
OPTION = Option(
    KEY, "Rating", ((RATED, "Rated"), (PRACTICE, "Practice, unrated"), (GUIDED, "Guided practice"))
)
EXPLAINED = "explained"  # notes: seat -> the situation keys already told to it
GUIDE_MARK = "💡 "
AT_ONCE = 2  # the most explanations told to a seat at one time
UNRATED = "practice, unrated"


def mode(options: Mapping[str, str]) -> str:
    return options.get(KEY, RATED)


def is_practice(options: Mapping[str, str]) -> bool:
    return mode(options) in (PRACTICE, GUIDED)


def is_guided(options: Mapping[str, str]) -> bool:
    return mode(options) == GUIDED


def of_game(options: Mapping[str, str]) -> dict[str, str]:
    """The options the engine reads: the match's, without the platform's practice flag (an
    engine that checks its options refuses a key it does not know)."""
    return {key: value for key, value in options.items() if key != KEY}


def explain(
    game: Game, state: Any, people: Sequence[int], notes: Mapping[str, Any]
) -> tuple[list[Event], dict[str, list[str]] | None]:
    """The explanations a guided match owes its people (the seats in ``people``) in
    ``state``: one private event per situation a seat has not been told yet (at most
    :data:`AT_ONCE`), and the notes' new :data:`EXPLAINED` map (None when nothing new was
    told)."""
    told: Mapping[str, Sequence[str]] = notes.get(EXPLAINED, {})
    events: list[Event] = []
    explained: dict[str, list[str]] = {key: list(keys) for key, keys in told.items()}
    for seat in people:
        known = explained.setdefault(str(seat), [])
        new = [(key, text) for key, text in game.situations(state, seat) if key not in known]
        for key, text in new[:AT_ONCE]:
            known.append(key)
            events.append(Event(GUIDE_MARK + text, seat))
    return events, (explained if events else None)


def with_explained(notes: dict[str, Any], explained: dict[str, list[str]] | None) -> dict[str, Any]:
    """``notes`` with the keys told so far (unchanged when nothing new was told)."""
    if explained is not None:
        notes[EXPLAINED] = explained
    return notes
