"""The values a game exchanges with the rest of the bot: moves (with picks), events, views,
outcomes, rule timers, lobby options, slash commands and the test suites' hints."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SEAT_TOKEN_RE = re.compile(r"\{p(\d+)\}")


def seat_token(seat: int) -> str:
    """The placeholder the UI replaces with the seat's display name."""
    return f"{{p{seat}}}"


PICK_SEPARATOR = "."


@dataclass(frozen=True, slots=True)
class Pick:
    """A choice of several items at once: ``least`` to ``most`` of ``items``.

    ``items`` are (code part, label) pairs in display order; the move chosen is
    ``stem:part.part...`` (the parts in the order of ``items``). The hand shows a pick as
    one multi-select whose option values are positions in ``items``, never the parts.
    ``groups``: the choices worth offering first where a list is short (a lead's pairs and
    runs), each a legal choice; typing a command offers them before other combinations.
    """

    stem: str
    items: tuple[tuple[str, str], ...]
    least: int = 1
    most: int = 1
    groups: tuple[tuple[str, ...], ...] = ()

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

    @property
    def args(self) -> tuple[str, ...]:
        """The code's parts after its kind (``("12", "b")`` of ``"p:12:b"``)."""
        return tuple(self.code.split(":")[1:])

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

    ``context``: the board's lines a decision depends on (the top card, the trick, the
    field), which the hand repeats while a decision is asked of the seat; public lines
    only. ``None`` (the default) means the board's second line, the first after its title
    line (see :attr:`table_context`); a game whose board is laid out otherwise names them.

    ``optional``: for a seat with moves that the game does not wait for (an out-of-turn
    chance), one public line saying what it may do and that play goes on without it; the
    hand shows it instead of "Your move". Empty: the hand asks for a move as usual.

    ``last_deal``: for a seat, once a hand (deal, round) is over and the next one dealt, one
    short line of public facts saying how that hand ended for the seat ("Hand 1: {p1} went
    out · you +45"); it names the hand, so that it changes with each one. The hand shows it
    when a new deal starts, until the player's first move there. Empty: nothing to say.
    """

    seat: int | None
    waiting: str
    board: tuple[str, ...] = ()
    scores: tuple[ScoreLine, ...] = ()
    hand: tuple[CardGroup, ...] = ()
    private: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    context: tuple[str, ...] | None = None
    optional: str = ""
    last_deal: str = ""

    @property
    def table_context(self) -> tuple[str, ...]:
        """The public lines the hand shows beside a decision: ``context``, or by default
        the board's line after its title."""
        return self.context if self.context is not None else self.board[1:2]

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
    """The end of a match: ``results`` (places, scores), ``summary`` (its closing sentence)
    and ``details``, public lines the finished table shows under it (how the last hand or
    round was scored)."""

    results: tuple[SeatResult, ...]
    summary: str
    details: tuple[str, ...] = ()


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
    reads as ``empty``. ``moot`` names another option's (key, value) under which this one
    has nothing to change (the expansion's cards with the classic deck): its line is left out
    of summaries while it is at its default, and its select says ``moot_note``."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    default: str | None = None
    multi: bool = False
    empty: str = "none"
    moot: tuple[str, str] | None = None
    moot_note: str = ""

    def is_moot(self, options: Mapping[str, str]) -> bool:
        """Whether ``options`` make this option pointless (see ``moot``)."""
        return self.moot is not None and str(options.get(self.moot[0], "")) == self.moot[1]

    @property
    def default_value(self) -> str:
        return self.default if self.default is not None else self.choices[0][0]


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


def find_move(moves: Sequence[Move], code: str) -> Move | None:
    """The legal move ``code`` names: one of ``moves``, or a choice of one's :class:`Pick`
    (returned with the items chosen in its label). The engine's ``apply`` still judges it."""
    for move in moves:
        if move.pick is not None and move.pick.parts(code) is not None:
            return move.choose(move.pick.parts(code) or ())
        if move.code == code:
            return move
    return None


# What a player may type between the items of a pick ("7h 7s", "7h, 7s", "play:7h.7s").
TYPED_SEPARATORS = re.compile(r"[\s,.+;]+")


def without_label(move: Move, text: str) -> str:
    """``text`` without a leading name of ``move``: its pick's stem (``play:7h.7s``, an
    autocompleted value) or its label as the list showed it (``Follow: 4♠``, ``Take from the
    pool 4♠``), so that only the items are left."""
    low = text.casefold()
    if move.pick is not None and low.startswith(f"{move.pick.stem}:".casefold()):
        return text[len(move.pick.stem) + 1 :]
    for name in (move.label, move.path[-1]):
        name = name.casefold()
        if low.startswith(name) and (len(low) == len(name) or low[len(name)] in ": "):
            return text[len(name) :].lstrip(": ")
    return text


def typed_parts(move: Move, text: str, *, partial: bool = False, repeats: bool = False) -> list[str] | None:
    """The items of ``move``'s Pick named in ``text`` (each by its code part or its label,
    any case; the pick's stem may lead, as in an autocompleted ``play:7h.7s``). None if a
    word names no item, or one is named twice (with ``repeats``, twice is kept: the engine's
    refusal says why). With ``partial`` the last word is left out (still being typed)."""
    if move.pick is None:
        return None
    body = without_label(move, text.strip() if not partial else text.lstrip())
    words = [w for w in TYPED_SEPARATORS.split(body) if w]
    if partial and words and not TYPED_SEPARATORS.fullmatch(body[-1:] or "x"):
        words = words[:-1]
    by_name: dict[str, str] = {}
    for code_part, label in move.pick.items:
        by_name[code_part.casefold()] = code_part
        by_name.setdefault(label.casefold(), code_part)
    parts: list[str] = []
    for word in words:
        found = by_name.get(word.casefold())
        if found is None or (found in parts and not repeats):
            return None
        parts.append(found)
    return parts


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
