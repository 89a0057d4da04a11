"""The match store: every match this process serves, as snapshots, behind its lock.

It owns the cache of active matches (and which channel holds which), the per-match locks,
and the writes that change a match: the one move transaction (engine apply, then state,
version, move row, notes, deadlines and results in one database transaction), a lobby's
change and a match's start. Every write is checked against the version it was read at; a
stale write reloads the match and is refused, never merged.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from bot.games import GAMES
from bot.games.base import SEAT_TOKEN_RE, Event, Game, GameError, Move, find_move
from bot.service import errors, practice
from bot.service.snapshot import MoveResult, Snapshot, add_events
from db import repository as repo_mod
from db.records import MatchRecord, MatchStatus, MatchUpdate, ResultRow, Seat
from db.repository import Repository

log = logging.getLogger(__name__)


class PlansDeadlines(Protocol):
    """Works out the deadlines a new state starts (:class:`bot.service.deadline_plans.DeadlinePlanner`)."""

    async def plan(
        self,
        game: Game,
        state: Any,
        version: int,
        seats: Sequence[Seat],
        guild_id: int,
        previous: Mapping[str, Any] | None = None,
    ) -> tuple[float | None, dict[str, Any] | None]: ...


class MatchStore:
    """Owns the cache of active matches, their locks and every write to a match."""

    def __init__(self, repo: Repository, planner: PlansDeadlines) -> None:
        self.repo = repo
        self.planner = planner
        # Weak values: a match's lock lives while someone holds or waits for it, so the map
        # never grows with the number of matches ever played.
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.cache: dict[int, Snapshot] = {}
        self.in_channel: dict[int, int] = {}  # channel id -> its cached active match

    def lock(self, match_id: int) -> asyncio.Lock:
        return lock_in(self.locks, match_id)

    # --- reading ------------------------------------------------------------------------

    def load(self, record: MatchRecord) -> Snapshot:
        """The snapshot of a record read from the database (remembered if it is active)."""
        game = GAMES[record.game_id]
        state = game.load(record.state) if record.state is not None else None
        snap = Snapshot(record, game, state)
        self.remember(snap)
        return snap

    def remember(self, snap: Snapshot) -> None:
        """Cache an active match; a match that is over is dropped (it changes no more).

        Never goes back in time: a read that started before a move was written (``get``
        without the lock, say for a hand) and ends after it must not replace the newer
        snapshot the move left in the cache."""
        cached = self.cache.get(snap.id)
        if cached is not None and cached.version > snap.version:
            return
        if snap.status.active:
            self.cache[snap.id] = snap
            self.in_channel[snap.record.channel_id] = snap.id
        else:
            self.cache.pop(snap.id, None)
            if self.in_channel.get(snap.record.channel_id) == snap.id:
                del self.in_channel[snap.record.channel_id]

    async def get(self, match_id: int) -> Snapshot:
        snap = self.cache.get(match_id)
        if snap is not None:
            return snap
        record = await self.repo.get_match(match_id)
        if record is None:
            raise errors.MatchNotFound()
        return self.load(record)

    async def fresh(self, match_id: int) -> Snapshot:
        """Reload from the database (after a stale write from another process)."""
        self.cache.pop(match_id, None)
        return await self.get(match_id)

    async def active_in_channel(self, channel_id: int) -> Snapshot | None:
        """The channel's lobby or running match. A channel has at most one (the database
        refuses a second), and every active match this process serves is in the cache once
        it was opened, read or restored here, so the cache answers when it holds one."""
        cached = self.cache.get(self.in_channel.get(channel_id, 0))
        if cached is not None and cached.record.channel_id == channel_id and cached.status.active:
            return cached
        record = await self.repo.active_in_channel(channel_id)
        return self.load(record) if record else None

    async def matches_of(self, guild_id: int, user_id: int) -> list[Snapshot]:
        return [self.load(record) for record in await self.repo.active_for_user(guild_id, user_id)]

    # --- writes without a move ----------------------------------------------------------

    def _patch_cached(self, match_id: int, **changes: Any) -> None:
        """A change written without a new version (the table's or the turn message's id):
        made to the cached snapshot too, instead of reading the match back. Lock held."""
        cached = self.cache.get(match_id)
        if cached is not None:
            self.cache[match_id] = replace(cached, record=replace(cached.record, **changes))

    async def set_table_message(self, match_id: int, message_id: int | None) -> None:
        async with self.lock(match_id):
            await self.repo.set_message(match_id, message_id)
            self._patch_cached(match_id, message_id=message_id)

    async def set_turn_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the match's current "your turn" message (the UI deletes the old one)."""
        async with self.lock(match_id):
            await self.repo.set_turn_message(match_id, message_id)
            self._patch_cached(match_id, turn_message_id=message_id)

    async def change(self, match_id: int, **changes: Any) -> Snapshot:
        """Change a lobby's seats, options, host or status, or a running match's seats, as
        ``Repository.update_lobby`` does; bumps the version. Lock held."""
        snap = await self.get(match_id)
        try:
            record = await self.repo.update_lobby(match_id, snap.version, **changes)
        except repo_mod.StaleVersion:
            await self.fresh(match_id)
            raise errors.StaleVersion() from None
        return self.load(record)

    async def deal(self, snap: Snapshot) -> Snapshot:
        """Deal and start a lobby's match. Lock held."""
        game = snap.game
        try:
            game.check_players(len(snap.seats), practice.of_game(snap.record.options))
        except GameError as err:
            raise errors.LobbyError(str(err)) from None
        state = game.setup(len(snap.seats), snap.record.seed, practice.of_game(snap.record.options))
        notes = None
        if practice.is_guided(snap.record.options):
            guide, explained = practice.explain(game, state, people(snap.seats), snap.record.notes)
            notes = practice.with_explained(add_events(snap.record.notes, guide), explained)
        deadline_at, deadline = await self.planner.plan(
            game, state, snap.version + 1, snap.seats, snap.record.guild_id
        )
        try:
            record = await self.repo.start_match(
                snap.id,
                snap.version,
                state=game.dump(state),
                seats=snap.seats,
                deadline_at=deadline_at,
                deadline=deadline,
                notes=notes,
            )
        except repo_mod.StaleVersion:
            await self.fresh(snap.id)
            raise errors.StaleVersion() from None
        snap = self.load(record)
        log.info("match %s: started with %d seats", snap.id, len(snap.seats))
        return snap

    # --- the move transaction -----------------------------------------------------------

    async def apply(
        self,
        snap: Snapshot,
        seat: int,
        user_id: int | None,
        move: str | Move,
        seat_changes: Mapping[int, Seat] | None = None,
        extra_events: Sequence[Event] = (),
    ) -> MoveResult:
        """Engine apply + one transaction. Caller holds the lock."""
        game, state = snap.game, snap.state
        assert state is not None
        code = move if isinstance(move, str) else move.code
        chosen = find_move(snap.legal_moves(seat), code)
        try:
            new_state, events = game.apply(state, seat, code)  # raises a GameError with a sentence
        except GameError as err:
            text = str(err)
            if SEAT_TOKEN_RE.search(text):  # "It is {p0}'s turn.": the player reads a name
                raise type(err)(snap.name_text(text)) from None
            raise
        events = list(extra_events) + list(events)
        outcome = game.outcome(new_state)
        explained = None
        if outcome is None and practice.is_guided(snap.record.options):
            guide, explained = practice.explain(game, new_state, people(snap.seats), snap.record.notes)
            events.extend(guide)
        if chosen is None:  # pragma: no cover - apply accepted a code not listed
            chosen = Move.simple(code, code)
        status = MatchStatus.FINISHED if outcome is not None else MatchStatus.RUNNING
        version = snap.version + 1
        notes = practice.with_explained(add_events(snap.record.notes, events), explained)
        seats = snap.seats
        if user_id is not None and seats[seat].missed:
            seats = seats[:seat] + (replace(seats[seat], missed=0),) + seats[seat + 1 :]
        if seat_changes:
            seats = tuple(seat_changes.get(index, old) for index, old in enumerate(seats))
        deadline_at, deadline = (
            (None, None)
            if outcome
            else await self.planner.plan(
                game, new_state, version, seats, snap.record.guild_id, snap.record.deadline
            )
        )
        seats_changed = seats != snap.seats
        snap = Snapshot(replace(snap.record, seats=seats), game, state) if seats_changed else snap
        results: tuple[ResultRow, ...] = ()
        if outcome is not None and not practice.is_practice(snap.record.options):  # practice: unrated
            results = tuple(
                ResultRow(
                    seat=row.seat,
                    user_id=snap.seats[row.seat].user_id,
                    is_ai=snap.seats[row.seat].ai,
                    place=row.place,
                    score=row.score,
                    team=row.team,
                    left=snap.seats[row.seat].left,
                )
                for row in snap.standings(outcome)  # leavers after the players who stayed
            )
        try:
            record = await self.repo.apply_move(
                MatchUpdate(
                    match_id=snap.id,
                    expected_version=snap.version,
                    state=game.dump(new_state),
                    seat=seat,
                    user_id=user_id,
                    code=code,
                    notes=notes,
                    status=status,
                    deadline_at=deadline_at,
                    deadline=deadline,
                    results=results,
                    seats=seats if seats_changed else None,
                )
            )
        except repo_mod.StaleVersion:
            await self.fresh(snap.id)
            raise errors.StaleVersion() from None
        new = Snapshot(record, game, new_state)
        self.remember(new)
        log.debug(
            "match %s: v%d seat %d played %s", snap.id, version, seat, code
        )  # every move is in the moves table
        if outcome is not None:
            log.info("match %s: finished", snap.id)
        return MoveResult(new, seat, chosen, tuple(events))


def people(seats: Sequence[Seat]) -> list[int]:
    """The seats people play (not an AI, not left to one)."""
    return [index for index, seat in enumerate(seats) if not seat.ai and not seat.left]


def lock_in(locks: weakref.WeakValueDictionary[int, asyncio.Lock], key: int) -> asyncio.Lock:
    """The lock of ``key`` in a table of weakly held locks, made when nobody holds one."""
    lock = locks.get(key)
    if lock is None:
        lock = asyncio.Lock()
        locks[key] = lock
    return lock
