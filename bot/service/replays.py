"""A finished match again, step by step: its seed and moves give back every table it showed.

A match is stored as its seed, options and moves, and an engine is a pure function of them,
so the table of every step is dealt and played again here rather than kept. A step is what
the table showed after one move (step 0: the deal): the state, the public events of that
move and the latest public events before it, as the live table listed them.

A long match (King's Dynasty may reach a few thousand moves) is not held state by state:
every ``CHECKPOINT``-th state is kept and a step between two is played forward from the one
before it (at most ``CHECKPOINT - 1`` moves). The public events of every step are kept (a
few short strings each), so any step's log is at hand.

What a replay shows is what the table showed: the public view of each state. The seats are
shown as they sat at the start; their final record (who left) shows on the last step, the
finished table. Two things of a live match are not in its moves and so not in its replay: a
player leaving (the AI's moves for that seat are replayed as any other) and the sentence of
a turn timer running out (the default move it made is replayed).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games import GAMES
from bot.games.base import Game, View
from bot.service import errors, practice
from bot.service.snapshot import COUNTS, LOG, MOVE, Snapshot
from db.records import MatchRecord, MatchStatus
from db.repository import Repository

log = logging.getLogger(__name__)

CHECKPOINT = 32  # every this many steps a state is kept; the others are played forward
LOG_KEPT = 40  # the public events a step's table is given (the table lists the latest move's)
CACHED = 8  # replays kept, most recently used first
NOT_HERE = "There is no match #{} in this server."
CHOICES_READ, CHOICES_SHOWN = 50, 25  # an autocomplete offers at most 25


def ago(seconds: float) -> str:
    """``finished 5 minutes ago`` and the like, for a list of past matches."""
    minutes = max(0, int(seconds // 60))
    if minutes < 1:
        return "just finished"
    for size, unit in ((24 * 60, "day"), (60, "hour"), (1, "minute")):
        if minutes >= size:
            n = minutes // size
            return f"finished {n} {unit}{'s' if n != 1 else ''} ago"
    return "just finished"  # pragma: no cover - minutes >= 1 is covered above


@dataclass(frozen=True, slots=True)
class Section:
    """A hand, deal or round of the match: where it starts among the steps."""

    label: str
    first: int  # the step of its first table
    last: int


@dataclass(frozen=True, slots=True)
class Step:
    """What the table showed after a move (number 0: the deal)."""

    number: int
    snapshot: Snapshot
    seat: int | None  # who moved (None for the deal)
    events: tuple[str, ...]  # the move's public events, names filled in

    @property
    def view(self) -> View:
        return self.snapshot.view(None)


class Replay:
    """One finished match, dealt and played again; ``step(n)`` is its table after n moves."""

    def __init__(self, record: MatchRecord, game: Game, moves: Sequence[tuple[int, int, str]]) -> None:
        """``moves``: (version after the move, seat, code), in order."""
        self.record = record
        self.game = game
        self.moves = tuple(moves)
        # The seats as they sat down: nobody had left, nobody had missed a deadline.
        self._start_seats = tuple(replace(s, left=False, missed=0) for s in record.seats)
        first = game.setup(len(record.seats), record.seed, practice.of_game(record.options))
        self._start_version = (self.moves[0][0] - 1) if self.moves else record.version
        self._checkpoints: list[Any] = [first]
        self._events: list[tuple[str, ...]] = [()]
        self._sections: list[int] = [game.section(first)]
        state = first
        for number, (_version, seat, code) in enumerate(self.moves, start=1):
            state, events = game.apply(state, seat, code)
            self._events.append(tuple(e.text for e in events if e.seat is None))
            self._sections.append(game.section(state))
            if number % CHECKPOINT == 0:
                self._checkpoints.append(state)
        self._last_state = state

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def last(self) -> int:
        """The number of the last step (the finished table)."""
        return len(self.moves)

    def players(self) -> set[int]:
        """The people who played this match (they may reveal its hands)."""
        return {s.user_id for s in self.record.seats if s.user_id is not None and not s.ai}

    def clamp(self, number: int) -> int:
        return max(0, min(self.last, number))

    def state(self, number: int) -> Any:
        """The engine state after ``number`` moves."""
        number = self.clamp(number)
        if number == self.last:
            return self._last_state
        base = number // CHECKPOINT
        state = self._checkpoints[base]
        for _version, seat, code in self.moves[base * CHECKPOINT : number]:
            state, _events = self.game.apply(state, seat, code)
        return state

    def step(self, number: int) -> Step:
        """The table after ``number`` moves, as the live table showed it."""
        number = self.clamp(number)
        logged = [text for events in self._events[: number + 1] for text in events][-LOG_KEPT:]
        finished = number == self.last and self.record.status == MatchStatus.FINISHED
        version = self.moves[number - 1][0] if number else self._start_version
        record = replace(
            self.record,
            status=MatchStatus.FINISHED if finished else MatchStatus.RUNNING,
            seats=self.record.seats if finished else self._start_seats,
            version=version,
            notes={LOG: logged, COUNTS: {MOVE: len(self._events[number])}},
            deadline=None,
            deadline_at=None,
        )
        snap = Snapshot(record, self.game, self.state(number))
        seat = self.moves[number - 1][1] if number else None
        return Step(number, snap, seat, tuple(snap.name_text(t) for t in self._events[number]))

    def sections(self) -> list[Section]:
        """The match's hands (deals, rounds) in order: one section for a game played in one."""
        sections: list[Section] = []
        start = 0
        for number in range(1, len(self._sections) + 1):
            if number == len(self._sections) or self._sections[number] != self._sections[start]:
                name = self.game.info.section_name
                sections.append(Section(f"{name} {len(sections) + 1}", start, number - 1))
                start = number
        if len(sections) == 1:
            sections = [Section("The whole match", 0, self.last)]
        return sections

    def section_of(self, number: int) -> Section:
        return next(s for s in self.sections() if s.first <= number <= s.last)


class Replays:
    """Replays of finished matches, built on first ask (in a thread: a long match is a few
    thousand moves played again) and kept for the most recent few."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._cache: OrderedDict[int, Replay] = OrderedDict()
        self._building: dict[int, asyncio.Future[Replay]] = {}

    async def find(self, *, guild_id: int, channel_id: int, match_id: int | None) -> Replay:
        """The replay of match ``match_id`` of this server, or of the channel's latest match."""
        if match_id is None:
            latest = await self.repo.latest_in_channel(channel_id)
            if latest is None:
                raise errors.MatchNotFound("No match has been played in this channel yet.")
            match_id = latest.id
        return await self.get(match_id, guild_id)

    async def choices(self, channel_id: int, typed: str, now: float | None = None) -> list[tuple[int, str]]:
        """The channel's latest finished matches as (match id, what it was), newest first,
        those whose number starts with ``typed`` (digits) or whose description contains it: a
        replay's autocomplete (``now``: the clock, for "2 hours ago")."""
        now = time.time() if now is None else now
        typed = typed.strip().lstrip("#").casefold()
        found = []
        for record in await self.repo.finished_in_channel(channel_id, CHOICES_READ):
            game = GAMES.get(record.game_id)
            if game is None:
                continue
            people = [s.name for s in record.seats if not s.ai]
            ais = len(record.seats) - len(people)
            players = ", ".join(people) + (f" and {ais} AI" if ais else "")
            text = f"#{record.id} · {game.name} · {players} · {ago(now - (record.finished_at or record.updated_at))}"
            if str(record.id).startswith(typed) if typed.isdigit() else typed in text.casefold():
                found.append((record.id, text))
        return found[:CHOICES_SHOWN]

    async def get(self, match_id: int, guild_id: int | None = None) -> Replay:
        """The replay of a finished match (of ``guild_id``'s, when given)."""
        replay = self._cache.get(match_id)
        if replay is None:
            replay = await self._build(match_id)
        else:
            self._cache.move_to_end(match_id)
        if guild_id is not None and replay.record.guild_id != guild_id:
            raise errors.MatchNotFound(NOT_HERE.format(match_id))
        return replay

    async def _build(self, match_id: int) -> Replay:
        building = self._building.get(match_id)
        if building is not None:
            return await asyncio.shield(building)
        future: asyncio.Future[Replay] = asyncio.get_running_loop().create_future()
        self._building[match_id] = future
        try:
            replay = await self._read(match_id)
            future.set_result(replay)
            self._cache[match_id] = replay
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)
            return replay
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: a waiter that gave up leaves no warning behind
            raise
        finally:
            del self._building[match_id]

    async def _read(self, match_id: int) -> Replay:
        record = await self.repo.get_match(match_id)
        if record is None or record.game_id not in GAMES:
            raise errors.MatchNotFound(NOT_HERE.format(match_id))
        if record.status != MatchStatus.FINISHED:
            raise errors.NotRunning(
                "A replay opens once the match is over."
                if record.status in (MatchStatus.LOBBY, MatchStatus.RUNNING)
                else "That match was cancelled; there is nothing to replay."
            )
        moves = [(m.version, m.seat, m.code) for m in await self.repo.moves(match_id)]
        game = GAMES[record.game_id]
        return await asyncio.to_thread(Replay, record, game, moves)
