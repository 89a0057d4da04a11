"""The base every game engine subclasses: the game declares what it is (:class:`GameInfo`),
writes its rules as handlers of named moves, and the kit does the rest.

Applying a move (OpenSpiel's framework and ``_apply_action``; boardgame.io's named moves per
phase): :meth:`GameBase.apply` turns a code into a move, refuses a finished match, a seat the
table does not wait for (with the game's own sentence) and a move that is not among
``legal_moves`` (with the game's :meth:`~GameBase.why_illegal` sentence), then calls the
handler the game declared for the move's kind with :func:`handles`, per phase where the game
has phases. A handler gets a move known to be legal and only says what it does.

Saving a state: a game that names its state dataclasses in ``state_types`` gets ``dump`` and
``load`` from the kit's one codec (:mod:`bot.games.kit.codec`); :meth:`GameBase.upgrade`
turns a state saved by older code into today's form first.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from bot.games.kit.codec import StateCodec
from bot.games.kit.errors import IllegalMove, InvalidOptions, MatchOver, NotYourTurn
from bot.games.kit.helpers import waiting_for
from bot.games.kit.info import GameInfo, Parties, Search
from bot.games.kit.rng import Rng
from bot.games.kit.values import (
    Command,
    Event,
    Move,
    Option,
    Outcome,
    SuiteHints,
    TimedMove,
    View,
    find_move,
    typed_parts,
)

S = TypeVar("S")
Method = TypeVar("Method", bound=Callable[..., Any])
HANDLES = "_kit_handles"


def handles(*kinds: str, phase: str | None = None) -> Callable[[Method], Method]:
    """Declare a method ``(self, state, seat, move) -> (state, events)`` the handler of the
    moves of these ``kinds``: in ``phase`` only (as :meth:`GameBase.phase` names it), or in
    every phase when ``phase`` is None."""

    def declare(method: Method) -> Method:
        setattr(method, HANDLES, (*getattr(method, HANDLES, ()), *((phase, kind) for kind in kinds)))
        return method

    return declare


class GameBase(ABC, Generic[S]):
    """A game engine. Set ``info``; write ``setup``, ``to_act``, ``legal_moves``, the move
    handlers (:func:`handles`), ``view``, ``outcome``, ``card_count`` and ``resample``; name
    the state dataclasses in ``state_types``. Everything else has a default: ``awaited =
    to_act``, the first legal move at a deadline (``choose_default``), a random legal AI
    (``choose_ai``), no rule timer, no
    ``standing``, no stages, and one phase."""

    info: GameInfo
    state_types: ClassVar[tuple[type, ...]] = ()
    _handlers: ClassVar[dict[tuple[str | None, str], str]] = {}
    _codec: ClassVar[StateCodec | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = dict(cls._handlers)
        for name, member in vars(cls).items():
            for key in getattr(member, HANDLES, ()):
                table[key] = name
        cls._handlers = table
        if cls.state_types:
            cls._codec = StateCodec(*cls.state_types)

    # -- what the game declared, read from its info -------------------------------------

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def summary(self) -> str:
        return self.info.summary

    @property
    def rules(self) -> str:
        return self.info.rules

    @property
    def min_players(self) -> int:
        return self.info.min_players

    @property
    def max_players(self) -> int:
        return self.info.max_players

    @property
    def options(self) -> tuple[Option, ...]:
        return self.info.options

    @property
    def commands(self) -> tuple[Command, ...]:
        return self.info.commands

    @property
    def card_kinds(self) -> tuple[str, ...]:
        return self.info.card_kinds

    @property
    def low_score_wins(self) -> bool:
        return self.info.low_score_wins

    @property
    def parties(self) -> Parties | None:
        return self.info.parties

    @property
    def search(self) -> Search:
        return self.info.search

    @property
    def hints(self) -> SuiteHints:
        return self.info.hints

    # -- the rules a game writes ---------------------------------------------------------

    @abstractmethod
    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> S:
        """The first state of a match (``check_players`` has passed)."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Every seat that may move now (turns, simultaneous picks, optional windows)."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[Move]:
        """The moves ``seat`` may make now (a move with a pick stands for its choices)."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> View:
        """What ``seat`` (or the table, for None) may see."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result of a finished match; None while it runs."""

    @abstractmethod
    def card_count(self, state: S) -> int:
        """Cards counted where they lie now (for the conservation invariant)."""

    @abstractmethod
    def resample(self, state: S, seat: int, rng: Rng) -> S:
        """A state that differs from ``state`` only in what ``seat`` cannot see.

        Hidden cards are redistributed among the places ``seat`` cannot see, keeping every
        count: ``view(resample(s, seat, r), seat) == view(s, seat)`` is the privacy invariant
        (OpenSpiel's information-state resampling). The result must depend only on what
        ``seat`` sees and on ``rng`` (:func:`~bot.games.kit.helpers.deal_hidden` sorts the
        hidden cards before shuffling), or the search AI would play differently on states
        its seat cannot tell apart."""

    # -- applying a move ---------------------------------------------------------------

    def apply(self, state: S, seat: int, move: Move | str) -> tuple[S, list[Event]]:
        """Judge ``move`` for ``seat`` and play it: the new state and what happened, or a
        :class:`~bot.games.kit.errors.GameError` whose text is one sentence for the player."""
        code = self.normalise(state, seat, move if isinstance(move, str) else move.code)
        if self.is_over(state):
            raise MatchOver("This match is over.")
        if seat not in self.to_act(state):
            raise NotYourTurn(self.not_your_turn(state, seat))
        found = find_move(self.legal_moves(state, seat), code)
        if found is None:
            raise IllegalMove(self.why_illegal(state, seat, code))
        return self.play(state, seat, found)

    def play(self, state: S, seat: int, move: Move) -> tuple[S, list[Event]]:
        """Play a move already known to be legal (one of ``legal_moves``, or a choice of its
        pick) by its declared handler; the AI's rollouts use this to skip the judging."""
        phase = self.phase(state)
        name = self._handlers.get((phase, move.kind)) or self._handlers.get((None, move.kind))
        if name is None:
            raise LookupError(
                f"{type(self).__name__} declares no handler of {move.kind!r} moves in phase {phase!r}"
            )
        result: tuple[S, list[Event]] = getattr(self, name)(state, seat, move)
        return result

    def normalise(self, state: S, seat: int, code: str) -> str:
        """The code as the game's legal moves spell it, for a game that forgives how a code
        was typed (letter case, a stray separator); the default leaves it as it is."""
        return code

    def phase(self, state: S) -> str | None:
        """The phase whose handlers apply now (None: a game of one phase)."""
        return None

    def is_over(self, state: S) -> bool:
        """Whether the match has ended (a game may answer faster than ``outcome``)."""
        return self.outcome(state) is not None

    def not_your_turn(self, state: S, seat: int) -> str:
        """The refusal to a seat that may not act now: whom the table waits for."""
        return waiting_for(self.awaited(state))

    def why_illegal(self, state: S, seat: int, code: str) -> str:
        """The refusal of a move that is not legal now: the game's most helpful sentence."""
        return "That move is not possible now: choose one of the moves your hand offers."

    def typed_code(self, state: S, seat: int, kinds: Sequence[str], text: str) -> str | None:
        """The move code a player's typed ``text`` names even when it is not legal now, so
        that :meth:`why_illegal` can say why (a slash command covering ``kinds``; none: any
        move). None when the text names no move of this game. This default reads a code as
        typed (``p:2bl``), the items of a legal move's pick however many and even twice
        (``2c 2c 2c``), and a card by the name :meth:`card_code` knows."""
        text = text.strip()
        moves = self.legal_moves(state, seat)
        known = set(kinds) or {m.kind for m in moves} | set(self.card_kinds)
        head, sep, _rest = text.partition(":")
        if sep and head in known:
            return text
        for move in moves:
            if move.pick is None or (kinds and move.kind not in kinds):
                continue
            parts = typed_parts(move, text, repeats=True)
            if parts:
                return f"{move.pick.stem}:{'.'.join(parts)}"
        card = self.card_code(text)
        if card is not None:
            kind = next((k for k in kinds if k in self.card_kinds), None) if kinds else None
            if kind is None and not kinds and self.card_kinds:  # the card kind the phase plays
                offered = [m.kind for m in moves if m.kind in self.card_kinds]
                kind = offered[0] if offered else self.card_kinds[0]
            if kind is not None:
                return f"{kind}:{card}"
        return None

    def card_code(self, text: str) -> str | None:
        """The code of the card ``text`` names (any case), for :meth:`typed_code`; None by
        default (a game whose cards players name by a word says which)."""
        return None

    # -- defaults a game may replace ----------------------------------------------------

    def check_players(self, players: int, options: Mapping[str, str]) -> None:
        """Raise InvalidOptions with a sentence if the table cannot start."""
        if not self.min_players <= players <= self.max_players:
            need = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise InvalidOptions(f"{self.name} needs {need} players, not {players}.")
        for option in self.options:
            value = options.get(option.key, option.default_value)
            allowed = {v for v, _ in option.choices}
            values = [v for v in value.split(",") if v] if option.multi else [value]
            for v in values:
                if v not in allowed:
                    raise InvalidOptions(f"{v!r} is not a choice of the option {option.label}.")

    def awaited(self, state: S) -> frozenset[int]:
        """The seats the match waits for: the turn timer, pings and reminders apply to
        these. A subset of :meth:`to_act`; seats that only *may* act (an optional window, a
        phase ended by a rule timer) are left out."""
        return self.to_act(state)

    def default_move(self, state: S, seat: int) -> Move:
        """The move made for an awaited seat whose deadline passed: the game's
        :meth:`choose_default` among the legal moves; refused when there are none."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("You have nothing to do right now.")
        return self.choose_default(state, seat, moves)

    def choose_default(self, state: S, seat: int, moves: list[Move]) -> Move:
        """Which of ``moves`` (``seat``'s legal moves, never none) :meth:`default_move`
        makes; the default: the first."""
        return moves[0]

    def timer(self, state: S) -> TimedMove | None:
        """A rule deadline in this state, if the rules have one."""
        return None

    def standing(self, state: S) -> Outcome | None:
        """The match scored as if it ended now (for the search AI's cut rollouts); None
        where the game has no such measure."""
        return None

    def stage(self, state: S) -> int:
        """Which hand (deal, round) of the match ``state`` is in; 0 throughout for a game
        that does not score in stages. The search AI ends a rollout where it changes."""
        return 0

    def section(self, state: S) -> int:
        """Which hand (deal, round) a replay files ``state`` under: its select jumps from one
        to the next. The stage by default; a game whose search plays across its hands (so
        has one stage) may still name them here."""
        return self.stage(state)

    def ai_move(self, state: S, seat: int, rng: Rng) -> Move:
        """The normal AI's move: the game's :meth:`choose_ai` among the legal moves; refused
        when there are none."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("Nothing to do.")
        return self.choose_ai(state, seat, moves, rng)

    def choose_ai(self, state: S, seat: int, moves: list[Move], rng: Rng) -> Move:
        """Which of ``moves`` (``seat``'s legal moves, never none) the normal AI plays; the
        default: one at random."""
        move, _ = rng.choice(moves)
        return move

    def hint_reason(self, state: S, seat: int, move: Move) -> str | None:
        """Why ``move`` suits ``seat`` now, in a few words for a practice match's hint ("keeps
        your Protector for a draw card"); None where the game has nothing to say. Reads only
        what ``seat`` sees, like the search that chose the move."""
        return None

    def situations(self, state: S, seat: int) -> tuple[tuple[str, str], ...]:
        """The kinds of situation ``seat`` is in now, as (key, explanation) pairs: a guided
        match (``/learn``) tells each key once per seat, in its hand. Reads only what
        ``seat`` sees; the default has none."""
        return ()

    def ai_waits(self, state: S, seat: int) -> bool:
        """True when an AI playing ``seat`` holds back for now although it may act (a phase
        that others close by declaring they are done). Depends only on what ``seat`` sees."""
        return False

    # -- saving a state -------------------------------------------------------------------

    def dump(self, state: S) -> dict[str, Any]:
        """The state as JSON-ready data (the kit's codec over ``state_types``)."""
        if self._codec is None:
            raise TypeError(f"{type(self).__name__} names no state_types for the codec")
        return self._codec.dump(state)

    def load(self, data: Mapping[str, Any]) -> S:
        """The state ``dump`` gave, also one saved by older code (see :meth:`upgrade`)."""
        if self._codec is None:
            raise TypeError(f"{type(self).__name__} names no state_types for the codec")
        state: S = self._codec.load(self.upgrade(data))
        return state

    def upgrade(self, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Turn a state saved by older code into today's form (the default: as it is)."""
        return data


Game = GameBase  # the type the rest of the bot names a game by


def player_counts(game: GameBase[Any], options: Mapping[str, str]) -> tuple[int, ...]:
    """The table sizes ``game`` can start with under ``options`` (its ``check_players``
    decides), smallest first."""
    counts = []
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(players, options)
        except InvalidOptions:
            continue
        counts.append(players)
    return tuple(counts)
