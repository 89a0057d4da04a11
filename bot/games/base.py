"""The engine protocol shared by every game.

Engines are pure: no Discord, no database, no asyncio, no wall clock and no global
``random``. Randomness comes from :class:`Rng`, a tiny splitmix64 generator whose whole
state is one integer stored inside the game state, so ``load(dump(s)) == s`` and a match
replays exactly from its seed and its move list.

Seats are integers ``0..n-1``. Text meant for people may name a seat as ``{p3}``; the UI
replaces such placeholders with display names (see :func:`seat_token`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

__all__ = [
    "SEAT_TOKEN_RE",
    "CardGroup",
    "Command",
    "Event",
    "Game",
    "GameBase",
    "GameError",
    "IllegalMove",
    "InvalidOptions",
    "MatchOver",
    "Move",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Pick",
    "Rng",
    "ScoreLine",
    "SeatResult",
    "SuiteHints",
    "TimedMove",
    "View",
    "deal_hidden",
    "find_move",
    "join_names",
    "move_kind",
    "playable_cards",
    "player_counts",
    "ranked",
    "seat_token",
    "waiting_for",
]

S = TypeVar("S")

# ---------------------------------------------------------------------------------------
# Errors: each carries a sentence fit to show the player as it is.


class GameError(Exception):
    """Base of every rule error; ``str(err)`` is one sentence for the player."""


class IllegalMove(GameError):
    """The move is not allowed now; the message says why."""


class NotYourTurn(GameError):
    """The seat may not act at this moment."""


class MatchOver(GameError):
    """The match has finished; no more moves."""


class InvalidOptions(GameError):
    """Lobby options or player count the game cannot be set up with."""


# ---------------------------------------------------------------------------------------
# Values exchanged with the rest of the bot.


PICK_SEPARATOR = "."


@dataclass(frozen=True, slots=True)
class Pick:
    """A choice of several items at once: ``least`` to ``most`` of ``items``.

    ``items`` are (code part, label) pairs in display order; the move chosen is
    ``stem:part.part...`` (the parts in the order of ``items``). The hand shows a pick as
    one multi-select whose option values are positions in ``items``, never the parts.
    """

    stem: str
    items: tuple[tuple[str, str], ...]
    least: int = 1
    most: int = 1

    def code(self, parts: Sequence[str]) -> str:
        order = [part for part, _label in self.items]
        ordered = sorted(parts, key=lambda p: order.index(p) if p in order else len(order))
        return f"{self.stem}:{PICK_SEPARATOR.join(ordered)}"

    def parts(self, code: str) -> tuple[str, ...] | None:
        """The parts ``code`` chooses, if it is a choice of this pick (count and items)."""
        head, sep, tail = code.partition(":")
        if head != self.stem or not sep:
            return None
        parts = tuple(tail.split(PICK_SEPARATOR)) if tail else ()
        known = {part for part, _label in self.items}
        if (
            not self.least <= len(parts) <= self.most
            or len(set(parts)) != len(parts)
            or not set(parts) <= known
        ):
            return None
        return parts


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move.

    ``code`` is a short, stable text form (used by slash commands, the move log and
    replays). ``path`` is the human label split into the steps a player picks one after
    another in the hand view (for example ``("Play Dragon", "Name gold")``); a one-step
    move has a one-element path. ``label`` is the whole human label.

    A move with a ``pick`` stands for a family: its last step is a choice of several items
    at once (cards to follow with, to take from a pool). Its ``code`` is one legal choice
    (the default); :meth:`choose` gives the move for any other choice, which ``apply``
    judges like any code (:func:`find_move` finds it among the legal moves). Listing one
    move per combination instead would be far too many (5 cards of 13: 1,287).
    """

    code: str
    path: tuple[str, ...]
    pick: Pick | None = None

    def choose(self, parts: Sequence[str]) -> Move:
        """The move of this family that chooses ``parts`` (labelled with the items chosen)."""
        assert self.pick is not None, "only a move with a pick has choices"
        code = self.pick.code(parts)
        names = dict(self.pick.items)
        chosen = self.pick.parts(code) or tuple(parts)
        shown = " ".join(names.get(part, part) for part in chosen)
        return Move(code, (*self.path[:-1], f"{self.path[-1]}: {shown}"))

    @property
    def label(self) -> str:
        return ": ".join(self.path) if len(self.path) > 1 else self.path[0]

    @property
    def kind(self) -> str:
        """The code's first part (``"p"`` of ``"p:12:b"``): what a :class:`Command` covers."""
        return move_kind(self.code)

    @staticmethod
    def simple(code: str, label: str) -> Move:
        return Move(code, (label,))


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``seat`` None means everyone may see it."""

    text: str
    seat: int | None = None

    @property
    def public(self) -> bool:
        return self.seat is None


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One seat's row of the table's scoreboard: short figures and state marks.

    ``figures`` are what the game counts for everyone (``("7 cards", "total 45")``);
    ``marks`` are states worth a glance (``("On Guard",)``, ``("dealer",)``). The UI adds
    the seat's name, the turn marker and AI / left tags itself.
    """

    seat: int
    figures: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return " · ".join((seat_token(self.seat), *self.figures, *self.marks))


@dataclass(frozen=True, slots=True)
class CardGroup:
    """Part of a hand shown together: a suit, a colour, a role (``label``) and its cards.

    ``label`` may start with an emoji (``"🟦 blue"``); an empty label is an ungrouped hand.
    ``cards`` are the cards' short labels, each one card: the UI marks those new since
    the player last looked by comparing these strings.
    """

    label: str
    cards: tuple[str, ...]

    @property
    def text(self) -> str:
        cards = ", ".join(self.cards) or "none"
        return f"{self.label}: {cards}" if self.label else cards


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (or the table, ``seat=None``) may see.

    The table is laid out the same way for every game: ``waiting`` (one status line:
    whose decision is awaited), ``scores`` (a fixed scoreboard, one row per seat),
    ``board`` (the game's public lines: top card, field, trick, piles; a few short lines,
    no event log: the platform keeps the events that ``apply`` returns). For ``seat``
    only: ``hand`` (its cards, grouped for scanning) and ``private`` (other secrets: a
    peek, a role, a partner's question). ``data`` holds the same information in
    structured form for tests and AIs; it must obey the same secrecy.
    """

    seat: int | None
    waiting: str
    board: tuple[str, ...] = ()
    scores: tuple[ScoreLine, ...] = ()
    hand: tuple[CardGroup, ...] = ()
    private: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def public(self) -> tuple[str, ...]:
        """Every public line as text: the board, then the scoreboard."""
        return self.board + tuple(row.text for row in self.scores)

    @property
    def secret(self) -> tuple[str, ...]:
        """Every private line as text: the hand, then the other secrets."""
        return tuple(group.text for group in self.hand) + self.private


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    place: int  # 1 = best; equal places for ties and teams
    score: int | None = None
    team: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    results: tuple[SeatResult, ...]
    summary: str


@dataclass(frozen=True, slots=True)
class TimedMove:
    """A rule deadline: after ``seconds`` in this state, ``seat`` makes ``move``.

    Used for rule timers such as a questioning period or a reaction window; the service
    stores the deadline and applies the move when it passes (unless the state moved on).
    """

    seconds: float
    seat: int
    move: str
    reason: str


@dataclass(frozen=True, slots=True)
class Option:
    """A lobby option: ``choices`` maps stored value -> label; the first choice is the
    default unless ``default`` is given. A ``multi`` option stores several choices joined
    by commas (for example the expansion cards left out), ``""`` for none, which the lobby
    reads as ``empty``."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    default: str | None = None
    multi: bool = False
    empty: str = "none"

    @property
    def default_value(self) -> str:
        return self.default if self.default is not None else self.choices[0][0]


# ---------------------------------------------------------------------------------------
# Deterministic randomness.

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # splitmix64's step


def _mix(z: int) -> int:
    """splitmix64's output function: a bijection of 64-bit integers that scatters nearby inputs."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@dataclass(frozen=True, slots=True)
class Rng:
    """splitmix64: the state is one 64-bit integer; every draw returns a new Rng.

    A draw steps the state by a fixed odd constant, so the states one draw apart differ by
    that constant: a seed is therefore mixed into its state (:meth:`from_seed`), never
    multiplied by it. Seeds ``n`` and ``n + 1`` then start far apart on the generator's
    cycle instead of one draw apart (which made neighbouring seeds replay each other's deals
    and choices one draw later)."""

    state: int

    @staticmethod
    def from_seed(seed: int) -> Rng:
        return Rng(_mix(seed & _MASK))

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + _GAMMA) & _MASK
        z = s  # _mix(s), written out: this is every draw of every rollout
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        rng = self
        while True:
            v, rng = rng.next64()
            if v <= limit:
                return v % n, rng

    def shuffled(self, items: Sequence[S]) -> tuple[tuple[S, ...], Rng]:
        """A Fisher-Yates shuffle of ``items`` as a new tuple."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def choice(self, items: Sequence[S]) -> tuple[S, Rng]:
        i, rng = self.below(len(items))
        return items[i], rng


def find_move(moves: Sequence[Move], code: str) -> Move | None:
    """The legal move ``code`` names: one of ``moves``, or a choice of one's :class:`Pick`
    (returned with the items chosen in its label). The engine's ``apply`` still judges it."""
    for move in moves:
        if move.pick is not None and move.pick.parts(code) is not None:
            return move.choose(move.pick.parts(code) or ())
        if move.code == code:
            return move
    return None


def move_kind(code: str) -> str:
    """The kind of a move code: its text up to the first ``:``."""
    return code.split(":", 1)[0]


def playable_cards(moves: Sequence[Move], kinds: Sequence[str]) -> frozenset[str]:
    """The cards that ``moves`` of these ``kinds`` can play: a move's :class:`Pick` items, or
    else the card its code names (the part after the kind, up to the next ``:``).

    A game declares the kinds as ``card_kinds``; the hand's picture marks these cards, so
    that no code outside the engine spells a move kind or parses a move code."""
    wanted = set(kinds)
    out: set[str] = set()
    for move in moves:
        if move.kind not in wanted:
            continue
        if move.pick is not None:
            out.update(part for part, _label in move.pick.items)
        elif ":" in move.code:
            out.add(move.code.split(":", 2)[1])
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class Command:
    """A slash command a game offers, declared by its engine as data.

    The bot turns each into ``/<game id> <name>``: it plays the caller's legal move whose
    :attr:`Move.kind` is one of ``moves``. With an ``option``, the command takes one text
    option of that name, autocompleted with those moves' labels; without one, it plays the
    only such move (or asks the player to choose in their hand). Buttons and ``/move``
    reach every move whether or not a command covers it.
    """

    name: str
    description: str
    moves: tuple[str, ...]
    option: str = ""
    option_description: str = ""


@dataclass(frozen=True, slots=True)
class SuiteHints:
    """What the project's generic test suites need to play this game quickly.

    ``players``: seats for whole matches played through the fake Discord (default: the
    game's minimum). ``quick``: lobby options that make a match short. ``vary``: options
    whose every value the privacy suite plays through.
    """

    players: int | None = None
    quick: Mapping[str, str] = field(default_factory=dict)
    vary: tuple[str, ...] = ()


SEAT_TOKEN_RE = re.compile(r"\{p(\d+)\}")


def seat_token(seat: int) -> str:
    """The placeholder the UI replaces with the seat's display name."""
    return f"{{p{seat}}}"


# ---------------------------------------------------------------------------------------
# The protocol every game module implements, and a base class with its defaults.


@runtime_checkable
class Game(Protocol, Generic[S]):
    """What the bot needs of a game. Subclass :class:`GameBase` to get the defaults.

    Declared data: ``id`` (also the slash command group), ``name``, ``summary`` (one
    line for menus), ``rules`` (markdown with this project's rulings), ``min_players``,
    ``max_players``, ``options`` (lobby options), ``commands`` (slash commands),
    ``hints`` (for the generic test suites), ``low_score_wins`` (scores are penalties),
    ``party_options`` (the options a party starts with; None: no parties),
    ``card_kinds`` (the move kinds that play a card: the hand's picture marks the cards
    they can play now, see :func:`playable_cards`),
    ``search_margin`` (how much the score margin counts in the hard AI's rollouts),
    ``search_horizon`` (moves after which the hard AI's rollouts are cut; 0: none).
    """

    id: str
    name: str
    summary: str
    rules: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    commands: tuple[Command, ...]
    hints: SuiteHints
    low_score_wins: bool  # SeatResult.score is a penalty total: lower is better
    # Parties (several tables, winners moving on) add up SeatResult.score: a game whose
    # outcome gives every seat a total declares the options a party starts with, as (key,
    # value) pairs (() for none); None: the game cannot be played as a party.
    party_options: tuple[tuple[str, str], ...] | None
    # The move kinds whose code names a card (``kind:card...``) or whose Pick chooses cards:
    # the hand's picture marks the cards such a move can play now. (): nothing is marked.
    card_kinds: tuple[str, ...]
    # The hard AI (bot.games.search) values a rollout by the places it ends in; a game may
    # add its score margin (the seat's lead over the best other seat, scaled to -1..1) at
    # this weight. 0: places only.
    search_margin: float
    # The hard AI's rollouts may be cut short after this many moves and valued by the
    # game's standing (cheaper rollouts, so more of them). 0: never (a rollout still ends
    # where the stage changes, see ``stage``).
    search_horizon: int

    def check_players(self, players: int, options: Mapping[str, str]) -> None:
        """Raise InvalidOptions with a sentence if the table cannot start."""

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> S: ...

    def to_act(self, state: S) -> frozenset[int]:
        """Every seat that may move now (turns, simultaneous picks, optional windows)."""

    def awaited(self, state: S) -> frozenset[int]:
        """The seats the match waits for: the turn timer, pings and reminders apply to these.

        A subset of :meth:`to_act`; seats that only *may* act (an optional window, a
        phase ended by a rule timer) are left out."""

    def legal_moves(self, state: S, seat: int) -> list[Move]: ...

    def apply(self, state: S, seat: int, move: Move | str) -> tuple[S, list[Event]]: ...

    def view(self, state: S, seat: int | None) -> View: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def standing(self, state: S) -> Outcome | None:
        """The match scored as if it ended now, for a running match (optional).

        Places (and scores) from the rules' own tallies: the running totals plus, for a
        game with a ``search_horizon``, the hand so far scored as if it ended here. None
        (the default) where the game has no such measure. The search AI values the
        rollouts it cuts short by this (:mod:`bot.games.search`); nothing else uses it."""

    def stage(self, state: S) -> int:
        """Which hand (deal, round) of the match ``state`` is in; 0 throughout (the
        default) for a game that does not score in stages.

        Hands of a match are dealt afresh, so the search AI ends a rollout where the stage
        changes (the hand just scored, the next one not yet played) and values it by the
        game's standing: each decision then costs what it costs in a one-hand match."""

    def default_move(self, state: S, seat: int) -> Move:
        """The move made for an awaited seat whose deadline passed."""

    def timer(self, state: S) -> TimedMove | None:
        """A rule deadline in this state, if the rules have one."""

    def ai_move(self, state: S, seat: int, rng: Rng) -> Move: ...

    def ai_waits(self, state: S, seat: int) -> bool:
        """True when an AI playing ``seat`` holds back for now although it may act: the
        service plays the seat's move only once this is False (after the others have moved,
        or when a timer moves for it). For a phase that others close by declaring they are
        done, such as questioning in The King at Court. Depends only on what ``seat`` sees."""

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> S: ...

    def card_count(self, state: S) -> int:
        """Cards counted where they lie now (for the conservation invariant)."""

    def resample(self, state: S, seat: int, rng: Rng) -> S:
        """A state that differs from ``state`` only in what ``seat`` cannot see.

        Hidden cards are redistributed among the places ``seat`` cannot see, keeping
        every count. ``view(state, seat) == view(resample(state, seat, r), seat)`` is the
        privacy invariant (OpenSpiel's information-state resampling).

        The result must depend only on what ``seat`` sees and on ``rng``: gather the hidden
        cards in an order that does not tell where they lay (:func:`deal_hidden` sorts them)
        before shuffling. Otherwise the deal, given ``rng``, would betray the real one, and
        the search AI (:mod:`bot.games.search`) would play differently on states its seat
        cannot tell apart."""


class GameBase(Generic[S]):
    """Defaults for a game engine; subclass it and fill in the rules.

    A subclass must set the declared data (``id``, ``name``, ``summary``, ``rules``,
    ``min_players``, ``max_players``) and write ``setup``, ``to_act``, ``legal_moves``,
    ``apply``, ``view``, ``outcome``, ``dump``, ``load``, ``card_count`` and
    ``resample`` (:func:`deal_hidden` helps). Everything else has a default: no options,
    no commands (buttons and ``/move`` still reach every move), no ``card_kinds`` (a
    picture marks no card as playable), no rule timer,
    ``awaited = to_act``, the first legal move on a timeout, a random legal AI, no
    ``standing`` and no stages (the search AI then plays every rollout to the end) and no
    ``search_margin`` (its rollouts are valued by places alone).
    """

    id: str
    name: str
    summary: str
    rules: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    commands: tuple[Command, ...] = ()
    hints: SuiteHints = SuiteHints()
    low_score_wins: bool = False
    party_options: tuple[tuple[str, str], ...] | None = None
    card_kinds: tuple[str, ...] = ()
    search_margin: float = 0.0
    search_horizon: int = 0

    def check_players(self, players: int, options: Mapping[str, str]) -> None:
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

    def to_act(self, state: S) -> frozenset[int]:
        raise NotImplementedError

    def awaited(self, state: S) -> frozenset[int]:
        return self.to_act(state)

    def legal_moves(self, state: S, seat: int) -> list[Move]:
        raise NotImplementedError

    def default_move(self, state: S, seat: int) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("You have nothing to do right now.")
        return moves[0]

    def timer(self, state: S) -> TimedMove | None:
        return None

    def standing(self, state: S) -> Outcome | None:
        return None

    def stage(self, state: S) -> int:
        return 0

    def ai_move(self, state: S, seat: int, rng: Rng) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("Nothing to do.")
        move, _ = rng.choice(moves)
        return move

    def ai_waits(self, state: S, seat: int) -> bool:
        return False


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 hand"``, ``"2 hands"``; ``many`` for a plural other than ``word + "s"``."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def join_names(names: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def waiting_for(awaited: Iterable[int], lead: str = "It is not your turn") -> str:
    """A refusal to a seat that may not act now, naming the seats the table waits for (as
    seat tokens, which the service turns into names): "It is not your turn: waiting for
    {p1} and {p2}." Who is awaited is public (the table shows it)."""
    who = [seat_token(seat) for seat in sorted(awaited)]
    return f"{lead}: waiting for {join_names(who)}." if who else f"{lead}."


def player_counts(game: Game[Any], options: Mapping[str, str]) -> tuple[int, ...]:
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


def ranked(scores: Sequence[float], summary: str = "", lowest_wins: bool = False) -> Outcome:
    """An outcome placing seats by ``scores`` (higher is better, or lower with
    ``lowest_wins``), equal scores sharing a place; scores are kept rounded down."""
    sign = -1 if lowest_wins else 1
    results = tuple(
        SeatResult(seat, 1 + sum(1 for other in scores if sign * other > sign * mine), int(mine))
        for seat, mine in enumerate(scores)
    )
    return Outcome(results, summary)


def deal_hidden(
    places: Sequence[Sequence[S]], hidden: Sequence[int], rng: Rng
) -> tuple[tuple[tuple[S, ...], ...], Rng]:
    """Shuffle the cards of the ``hidden`` places among them, keeping each place's size.

    The usual body of :meth:`Game.resample`: ``places`` are every hand or pile, ``hidden``
    the indices of those the resampling seat cannot see. The hidden cards are sorted (by
    ``repr``) before the shuffle, so the deal tells nothing of where they lay."""
    pool = sorted((card for i in hidden for card in places[i]), key=repr)
    shuffled, rng = rng.shuffled(pool)
    out = [tuple(place) for place in places]
    start = 0
    for i in hidden:
        size = len(places[i])
        out[i] = tuple(shuffled[start : start + size])
        start += size
    return tuple(out), rng
