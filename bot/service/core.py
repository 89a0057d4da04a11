"""The service's core: the match cache and locks, listeners, and the one move transaction.

The other parts of :class:`bot.service.MatchService` (lobby, AI seats, deadlines) build on
this class; each is a mixin in its own module.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games import GAMES
from bot.games.base import SEAT_TOKEN_RE, Event, Game, GameError, Move, find_move
from bot.service import errors
from bot.service.snapshot import Listener, MoveResult, PartyListener, Snapshot, TableChannels, add_events
from db import repository as repo_mod
from db.parties import PartyStore
from db.records import MatchRecord, MatchStatus, MatchUpdate, Preferences, ResultRow, Seat, ServerSettings
from db.repository import Repository

log = logging.getLogger(__name__)

DEFAULT_TURN_SECONDS = 180


@dataclass
class Timer:
    """A match's armed deadline: a handle on the event loop's clock (cheap: a restart arms
    thousands), which starts a task when it fires, and what it is for now: the version and
    its deadline (``at``, the service's clock), or nothing (``version`` None).

    One handle serves a match's successive deadlines: a move that sets a later deadline
    (nearly every one) only changes ``version`` and ``at``, and a handle that fires early
    sleeps again for the time left. Cancelling a handle leaves it in the loop's queue until
    its time comes (or until cancelled ones are half the queue): one a move made 13,000
    objects for 8,000 moves (issue 47)."""

    version: int | None
    at: float
    handle: asyncio.TimerHandle


@dataclass
class ServiceCore:
    repo: Repository
    ai_delay: float = 0.8
    ai_think: float = 0.8  # a hard AI seat's thinking budget per move, in seconds (within ai_delay)
    ai_processes: int = 0  # hard AI searches: in a pool of this many worker processes (0: a worker thread)
    default_turn_seconds: int = DEFAULT_TURN_SECONDS
    clock: Callable[[], float] = time.time
    # Whether this process runs the server's Discord shard (restore takes only those matches).
    runs_guild: Callable[[int], bool] = lambda _guild_id: True
    listeners: list[Listener] = field(default_factory=list)
    # Weak values: a match's lock lives while someone holds or waits for it, so the map
    # never grows with the number of matches ever played.
    _locks: weakref.WeakValueDictionary[int, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )
    _cache: dict[int, Snapshot] = field(default_factory=dict)
    _in_channel: dict[int, int] = field(default_factory=dict)  # channel id -> its cached active match
    _timers: dict[int, Timer] = field(default_factory=dict)
    _firing: set[asyncio.Task[None]] = field(default_factory=set)  # deadlines being handled
    _ai_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    _ai_pauses: dict[int, asyncio.TimerHandle] = field(default_factory=dict)  # AI seats in their pause
    _pending: set[asyncio.Task[None]] = field(default_factory=set)
    _turn_seconds: dict[int, int] = field(default_factory=dict)
    _server_settings: dict[int, ServerSettings] = field(default_factory=dict)
    _preferences: dict[int, Preferences] = field(default_factory=dict)
    _closed: bool = False
    # Parties (bot.service.parties): who opens a table's channel (the Discord layer makes a
    # thread), who is told about party changes, and which running match is whose table.
    table_channels: TableChannels | None = None
    party_listeners: list[PartyListener] = field(default_factory=list)
    _party_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )
    _party_of_match: dict[int, int] = field(default_factory=dict)
    party_store: PartyStore = field(init=False)

    def __post_init__(self) -> None:
        self.party_store = PartyStore(self.repo)

    # --- plumbing -----------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def lock(self, match_id: int) -> asyncio.Lock:
        return _lock_in(self._locks, match_id)

    def party_lock(self, party_id: int) -> asyncio.Lock:
        """A party's lock, kept (like a match's) only while someone holds or waits for it."""
        return _lock_in(self._party_locks, party_id)

    def _release(self, match_id: int) -> None:
        """A match is over: drop what the service keeps for it while it runs, its deadline
        and an AI seat's pending pause. The cache drops it by itself (:meth:`_remember`), its
        AI task as the task ends, and its lock with the lock's last holder."""
        self._disarm(match_id)
        pause = self._ai_pauses.pop(match_id, None)
        if pause is not None:
            pause.cancel()

    def _snapshot(self, record: MatchRecord) -> Snapshot:
        game = GAMES[record.game_id]
        state = game.load(record.state) if record.state is not None else None
        snap = Snapshot(record, game, state)
        self._remember(snap)
        return snap

    def _remember(self, snap: Snapshot) -> None:
        """Cache an active match; a match that is over is dropped (it changes no more).

        Never goes back in time: a read that started before a move was written (``get``
        without the lock, say for a hand) and ends after it must not replace the newer
        snapshot the move left in the cache."""
        cached = self._cache.get(snap.id)
        if cached is not None and cached.version > snap.version:
            return
        if snap.status.active:
            self._cache[snap.id] = snap
            self._in_channel[snap.record.channel_id] = snap.id
        else:
            self._cache.pop(snap.id, None)
            if self._in_channel.get(snap.record.channel_id) == snap.id:
                del self._in_channel[snap.record.channel_id]

    def _patch_cached(self, match_id: int, **changes: Any) -> None:
        """A change written without a new version (the table's or the turn message's id):
        made to the cached snapshot too, instead of reading the match back. Lock held."""
        cached = self._cache.get(match_id)
        if cached is not None:
            self._cache[match_id] = replace(cached, record=replace(cached.record, **changes))

    async def get(self, match_id: int) -> Snapshot:
        snap = self._cache.get(match_id)
        if snap is not None:
            return snap
        record = await self.repo.get_match(match_id)
        if record is None:
            raise errors.MatchNotFound()
        return self._snapshot(record)

    async def party_of_match(self, match_id: int) -> int | None:
        """The party whose table ``match_id`` is, if it is one."""
        party_id = self._party_of_match.get(match_id)
        if party_id is not None:
            return party_id
        table = await self.party_store.table_of_match(match_id)
        return None if table is None else table.party_id

    async def _fresh(self, match_id: int) -> Snapshot:
        """Reload from the database (after a stale write from another process)."""
        self._cache.pop(match_id, None)
        return await self.get(match_id)

    async def _notify(self, snap: Snapshot, events: Sequence[Event]) -> None:
        """Tell listeners in the background, so a slow table edit never delays a reply."""
        for listener in list(self.listeners):
            self._background(listener.match_changed(snap, events), snap.id)
        if snap.status.over and snap.id in self._party_of_match:
            self._background(self._party_table_over(snap), snap.id)

    def _background(self, coro: Any, match_id: int) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception:  # a broken listener must not lose the move
                log.exception("match %s: listener failed", match_id)

        task = asyncio.create_task(run())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def settle(self) -> None:
        """Wait for listener work in flight (tests and shutdown)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def active_in_channel(self, channel_id: int) -> Snapshot | None:
        """The channel's lobby or running match. A channel has at most one (the database
        refuses a second), and every active match this process serves is in the cache once
        it was opened, read or restored here, so the cache answers when it holds one."""
        cached = self._cache.get(self._in_channel.get(channel_id, 0))
        if cached is not None and cached.record.channel_id == channel_id and cached.status.active:
            return cached
        record = await self.repo.active_in_channel(channel_id)
        return self._snapshot(record) if record else None

    async def matches_of(self, guild_id: int, user_id: int) -> list[Snapshot]:
        return [self._snapshot(r) for r in await self.repo.active_for_user(guild_id, user_id)]

    # --- server settings -----------------------------------------------------------

    async def turn_seconds(self, guild_id: int) -> int:
        """The server's seconds per decision (0: no turn timer)."""
        cached = self._turn_seconds.get(guild_id)
        if cached is None:
            stored = await self.repo.turn_seconds(guild_id)
            cached = self.default_turn_seconds if stored is None else stored
            self._turn_seconds[guild_id] = cached
        return cached

    async def set_turn_seconds(self, guild_id: int, seconds: int, *, is_admin: bool) -> None:
        if not is_admin:
            raise errors.NotHost("change the server settings (Manage Server is needed)")
        if seconds < 0 or seconds > 7 * 24 * 3600:
            raise errors.LobbyError("The turn timer must be between 0 seconds (off) and 7 days.")
        await self.repo.set_turn_seconds(guild_id, seconds)
        self._turn_seconds[guild_id] = seconds

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """This server's display settings (turn pings, card pictures), cached."""
        cached = self._server_settings.get(guild_id)
        if cached is None:
            cached = self._server_settings[guild_id] = await self.repo.server_settings(guild_id)
        return cached

    async def set_server_settings(self, guild_id: int, *, is_admin: bool, **values: bool) -> ServerSettings:
        if not is_admin:
            raise errors.NotHost("change the server settings (Manage Server is needed)")
        self._server_settings[guild_id] = settings = await self.repo.set_server_settings(guild_id, **values)
        return settings

    async def preferences(self, user_ids: Sequence[int]) -> dict[int, Preferences]:
        """These users' own settings, cached."""
        missing = [u for u in user_ids if u not in self._preferences]
        if missing:
            self._preferences.update(await self.repo.preferences(missing))
        return {u: self._preferences[u] for u in user_ids}

    async def set_preferences(self, user_id: int, **values: bool) -> Preferences:
        self._preferences[user_id] = prefs = await self.repo.set_preferences(user_id, **values)
        return prefs

    async def set_turn_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the match's current "your turn" message (the UI deletes the old one)."""
        async with self.lock(match_id):
            await self.repo.set_turn_message(match_id, message_id)
            self._patch_cached(match_id, turn_message_id=message_id)

    # --- the move transaction --------------------------------------------------------

    async def _apply(
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
        if chosen is None:  # pragma: no cover - apply accepted a code not listed
            chosen = Move.simple(code, code)
        outcome = game.outcome(new_state)
        status = MatchStatus.FINISHED if outcome is not None else MatchStatus.RUNNING
        version = snap.version + 1
        notes = self._notes(snap.record.notes, events)
        seats = snap.seats
        if user_id is not None and seats[seat].missed:
            seats = seats[:seat] + (replace(seats[seat], missed=0),) + seats[seat + 1 :]
        if seat_changes:
            seats = tuple(seat_changes.get(i, s) for i, s in enumerate(seats))
        turn = await self.turn_seconds(snap.record.guild_id)
        deadline_at, deadline = (
            (None, None)
            if outcome
            else self._deadline_for(game, new_state, version, seats, turn, snap.record.deadline)
        )
        results: tuple[ResultRow, ...] = ()
        seats_changed = seats != snap.seats
        snap = Snapshot(replace(snap.record, seats=seats), game, state) if seats_changed else snap
        if outcome is not None:
            results = tuple(
                ResultRow(
                    seat=r.seat,
                    user_id=snap.seats[r.seat].user_id,
                    is_ai=snap.seats[r.seat].ai,
                    place=r.place,
                    score=r.score,
                    team=r.team,
                    left=snap.seats[r.seat].left,
                )
                for r in outcome.results
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
            await self._fresh(snap.id)
            raise errors.StaleVersion() from None
        new = Snapshot(record, game, new_state)
        self._remember(new)
        log.debug(
            "match %s: v%d seat %d played %s", snap.id, version, seat, code
        )  # every move is in the moves table
        if outcome is not None:
            log.info("match %s: finished", snap.id)
        return MoveResult(new, seat, chosen, tuple(events))

    @staticmethod
    def _notes(notes: Mapping[str, Any], events: Sequence[Event]) -> dict[str, Any]:
        return add_events(notes, events)

    async def _after_change(self, snap: Snapshot, events: Sequence[Event]) -> None:
        """Tell listeners, then arm timers and wake the AI."""
        await self._notify(snap, events)
        if snap.status != MatchStatus.RUNNING:
            self._release(snap.id)
            return
        self._arm(snap)
        self._wake_ai(snap)

    # --- provided by the mixins -------------------------------------------------------

    def _deadline_for(
        self,
        game: Game,
        state: Any,
        version: int,
        seats: Sequence[Seat],
        turn_seconds: int,
        previous: Mapping[str, Any] | None = None,
    ) -> tuple[float | None, dict[str, Any] | None]:
        raise NotImplementedError

    def _arm(self, snap: Snapshot) -> None:
        raise NotImplementedError

    def _disarm(self, match_id: int) -> None:
        raise NotImplementedError

    def _wake_ai(self, snap: Snapshot) -> None:
        raise NotImplementedError

    async def _party_table_over(self, snap: Snapshot) -> None:
        raise NotImplementedError

    async def leave_match(self, match_id: int, user_id: int) -> Snapshot:
        raise NotImplementedError


def _lock_in(locks: weakref.WeakValueDictionary[int, asyncio.Lock], key: int) -> asyncio.Lock:
    """The lock of ``key`` in a table of weakly held locks, made when nobody holds one."""
    lock = locks.get(key)
    if lock is None:
        lock = asyncio.Lock()
        locks[key] = lock
    return lock
