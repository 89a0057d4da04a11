"""The match service: lobbies, moves, AI seats and deadlines, without Discord.

Every change to a match happens under that match's lock: load, ``engine.apply``, save in
one transaction (state, version, move row), then listeners are told (the Discord layer
edits the table message). A move made against an older version is refused, never merged.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.games import GAMES
from bot.games.base import SEAT_TOKEN_RE, Event, Game, GameError, Move, NotYourTurn, Rng, View
from bot.service import errors
from db import repository as repo_mod
from db.records import MatchRecord, MatchUpdate, ResultRow, Seat
from db.repository import Repository

log = logging.getLogger(__name__)

NOTES_PER_SEAT = 6
MAX_AI_MOVES_PER_WAKE = 500
AI_PAUSE_SECONDS = 0.5
DEFAULT_TURN_SECONDS = 180
CORRESPONDENCE_SECONDS = 24 * 3600
MISSES_BEFORE_REPLACED = 3


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match as the service sees it: the stored record plus the loaded engine state."""

    record: MatchRecord
    game: Game
    state: Any | None = None

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.record.seats

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.record.seats]

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.record.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    def name_text(self, text: str) -> str:
        """Replace ``{p3}`` placeholders with seat names."""
        names = self.names

        def sub(m: Any) -> str:
            i = int(m.group(1))
            return names[i] if i < len(names) else f"seat {i + 1}"

        return SEAT_TOKEN_RE.sub(sub, text)

    def view(self, seat: int | None) -> View:
        assert self.state is not None
        return self.game.view(self.state, seat)

    def to_act(self) -> frozenset[int]:
        if self.state is None or self.record.status != "running":
            return frozenset()
        return self.game.to_act(self.state)

    def awaited(self) -> frozenset[int]:
        """Seats the game is waiting for (public; optional out-of-turn actors excluded)."""
        if self.state is None or self.record.status != "running":
            return frozenset()
        awaited = getattr(self.game, "awaited", None)
        return awaited(self.state) if awaited else self.game.to_act(self.state)

    def legal_moves(self, seat: int) -> list[Move]:
        if self.state is None or self.record.status != "running":
            return []
        return self.game.legal_moves(self.state, seat)

    def notes_for(self, seat: int) -> list[str]:
        return list(self.record.notes.get(str(seat), ()))


@dataclass(frozen=True, slots=True)
class MoveResult:
    snapshot: Snapshot
    seat: int
    move: Move
    events: tuple[Event, ...]

    def private_for(self, seat: int) -> list[str]:
        return [e.text for e in self.events if e.seat == seat]

    @property
    def public(self) -> list[str]:
        return [e.text for e in self.events if e.seat is None]


class Listener(Protocol):
    """Told about every change (the Discord layer edits the table message)."""

    async def match_changed(self, snap: Snapshot, events: Sequence[Event]) -> None: ...

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None: ...


@dataclass
class _Timer:
    version: int
    task: asyncio.Task[None]


def resolve_move(moves: Sequence[Move], text: str, prefix: str = "") -> Move | None:
    """Find the move a player typed: its code, ``prefix:text``, or its label (any case)."""
    text = text.strip()
    if not text:
        return None
    low = text.casefold()
    for m in moves:
        if m.code == text or (prefix and m.code == f"{prefix}:{text}"):
            return m
    for m in moves:
        if m.label.casefold() == low or m.path[-1].casefold() == low:
            return m
    candidates = [m for m in moves if (not prefix or m.code.startswith(prefix)) and low in m.label.casefold()]
    return candidates[0] if len(candidates) == 1 else None


@dataclass
class MatchService:
    repo: Repository
    ai_delay: float = 0.8
    default_turn_seconds: int = DEFAULT_TURN_SECONDS
    clock: Callable[[], float] = time.time
    listeners: list[Listener] = field(default_factory=list)
    _locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    _cache: dict[int, Snapshot] = field(default_factory=dict)
    _timers: dict[int, _Timer] = field(default_factory=dict)
    _ai_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    _pending: set[asyncio.Task[None]] = field(default_factory=set)
    _turn_seconds: dict[int, int] = field(default_factory=dict)
    _closed: bool = False

    # --- plumbing -----------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def _snapshot(self, record: MatchRecord) -> Snapshot:
        game = GAMES[record.game_id]
        state = game.load(record.state) if record.state is not None else None
        snap = Snapshot(record, game, state)
        self._cache[record.id] = snap
        return snap

    async def get(self, match_id: int) -> Snapshot:
        snap = self._cache.get(match_id)
        if snap is not None:
            return snap
        record = await self.repo.get_match(match_id)
        if record is None:
            raise errors.MatchNotFound()
        return self._snapshot(record)

    async def _fresh(self, match_id: int) -> Snapshot:
        """Reload from the database (after a stale write from another process)."""
        self._cache.pop(match_id, None)
        return await self.get(match_id)

    async def _notify(self, snap: Snapshot, events: Sequence[Event]) -> None:
        """Tell listeners in the background, so a slow table edit never delays a reply."""
        for listener in list(self.listeners):
            self._background(listener.match_changed(snap, events), snap.id)

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
        record = await self.repo.active_in_channel(channel_id)
        return self._snapshot(record) if record else None

    async def matches_of(self, guild_id: int, user_id: int) -> list[Snapshot]:
        return [self._snapshot(r) for r in await self.repo.active_for_user(guild_id, user_id)]

    # --- lobby --------------------------------------------------------------------------

    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game_id: str,
        options: Mapping[str, str] | None = None,
    ) -> Snapshot:
        game = GAMES.get(game_id)
        if game is None:
            raise errors.LobbyError(f"There is no game called {game_id!r}.")
        opts = {o.key: o.default_value for o in game.options}
        for key, value in (options or {}).items():
            self._check_option(game, key, value)
            opts[key] = value
        try:
            record = await self.repo.create_match(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game_id=game_id,
                options=opts,
                seats=[Seat(host_id, host_name)],
                seed=secrets.randbits(62),
            )
        except repo_mod.ChannelBusy as busy:
            raise errors.ChannelBusy(busy.match_id) from None
        log.info("match %s: lobby for %s opened in channel %s", record.id, game_id, channel_id)
        return self._snapshot(record)

    @staticmethod
    def _check_option(game: Game, key: str, value: str) -> None:
        for o in game.options:
            if o.key == key:
                allowed = dict(o.choices)
                parts = [v for v in value.split(",") if v] if o.multi else [value]
                for part in parts:
                    if part not in allowed:
                        raise errors.LobbyError(f"{part!r} is not a choice for {o.label}.")
                return
        raise errors.LobbyError(f"{game.name} has no option called {key!r}.")

    async def set_table_message(self, match_id: int, message_id: int | None) -> None:
        async with self.lock(match_id):
            await self.repo.set_message(match_id, message_id)
            await self._fresh(match_id)

    async def _lobby_change(self, match_id: int, **changes: Any) -> Snapshot:
        snap = await self.get(match_id)
        try:
            record = await self.repo.update_lobby(match_id, snap.version, **changes)
        except repo_mod.StaleVersion:
            await self._fresh(match_id)
            raise errors.StaleVersion() from None
        return self._snapshot(record)

    async def _open_lobby(self, match_id: int) -> Snapshot:
        snap = await self.get(match_id)
        if snap.status != "lobby":
            raise errors.LobbyError("This lobby is closed: the match has already started or ended.")
        return snap

    async def join(self, match_id: int, user_id: int, name: str) -> Snapshot:
        async with self.lock(match_id):
            snap = await self._open_lobby(match_id)
            if snap.seat_of(user_id) is not None:
                raise errors.LobbyError("You are already seated in this lobby.")
            if len(snap.seats) >= snap.game.max_players:
                raise errors.LobbyError(f"This lobby is full ({snap.game.max_players} players).")
            snap = await self._lobby_change(match_id, seats=snap.seats + (Seat(user_id, name),))
        await self._notify(snap, [Event(f"{name} joined.")])
        return snap

    async def leave_lobby(self, match_id: int, user_id: int) -> Snapshot:
        async with self.lock(match_id):
            snap = await self._open_lobby(match_id)
            seat = snap.seat_of(user_id)
            if seat is None:
                raise errors.NotSeated("You are not in this lobby.")
            snap, text = await self._drop_from_lobby(snap, seat, "left")
        await self._notify(snap, [Event(text)])
        return snap

    async def _drop_from_lobby(self, snap: Snapshot, seat: int, verb: str) -> tuple[Snapshot, str]:
        """Remove a human from a lobby; the next human hosts, or the lobby closes. Lock held."""
        seats = snap.seats[:seat] + snap.seats[seat + 1 :]
        humans = [s for s in seats if not s.ai]
        name = snap.seats[seat].name
        if not humans:
            snap = await self._lobby_change(snap.id, seats=seats, status="abandoned")
            return snap, f"{name} {verb}; the lobby is closed."
        if snap.seats[seat].user_id == snap.record.host_id:
            snap = await self._lobby_change(snap.id, seats=seats, host_id=humans[0].user_id)
            return snap, f"{name} {verb}; {humans[0].name} is the host now."
        snap = await self._lobby_change(snap.id, seats=seats)
        return snap, f"{name} {verb}."

    async def add_ai(self, match_id: int, user_id: int) -> Snapshot:
        async with self.lock(match_id):
            snap = await self._open_lobby(match_id)
            if user_id != snap.record.host_id:
                raise errors.NotHost("add AI players")
            if len(snap.seats) >= snap.game.max_players:
                raise errors.LobbyError(f"This lobby is full ({snap.game.max_players} players).")
            n = 1 + sum(1 for s in snap.seats if s.ai)
            snap = await self._lobby_change(match_id, seats=snap.seats + (Seat(None, f"AI {n}", ai=True),))
        await self._notify(snap, [Event(f"AI {n} joined.")])
        return snap

    async def remove_ai(self, match_id: int, user_id: int) -> Snapshot:
        async with self.lock(match_id):
            snap = await self._open_lobby(match_id)
            if user_id != snap.record.host_id:
                raise errors.NotHost("remove AI players")
            ais = [i for i, s in enumerate(snap.seats) if s.ai]
            if not ais:
                raise errors.LobbyError("There is no AI seat to remove.")
            i = ais[-1]
            snap = await self._lobby_change(match_id, seats=snap.seats[:i] + snap.seats[i + 1 :])
        await self._notify(snap, [])
        return snap

    async def set_option(self, match_id: int, user_id: int, key: str, value: str) -> Snapshot:
        async with self.lock(match_id):
            snap = await self._open_lobby(match_id)
            if user_id != snap.record.host_id:
                raise errors.NotHost("change the options")
            self._check_option(snap.game, key, value)
            options = dict(snap.record.options)
            options[key] = value
            snap = await self._lobby_change(match_id, options=options)
        await self._notify(snap, [])
        return snap

    async def start(self, match_id: int, user_id: int) -> Snapshot:
        async with self.lock(match_id):
            snap = await self._open_lobby(match_id)
            if user_id != snap.record.host_id:
                raise errors.NotHost("start the match")
            game = snap.game
            try:
                game.check_players(len(snap.seats), snap.record.options)
            except GameError as err:
                raise errors.LobbyError(str(err)) from None
            state = game.setup(len(snap.seats), snap.record.seed, snap.record.options)
            turn = await self.turn_seconds(snap.record.guild_id)
            deadline_at, deadline = self._deadline_for(game, state, snap.version + 1, snap.seats, turn)
            try:
                record = await self.repo.start_match(
                    match_id, snap.version, state=game.dump(state), seats=snap.seats,
                    deadline_at=deadline_at, deadline=deadline,
                )
            except repo_mod.StaleVersion:
                await self._fresh(match_id)
                raise errors.StaleVersion() from None
            snap = self._snapshot(record)
            log.info("match %s: started with %d seats", match_id, len(snap.seats))
        events = [Event("The match begins.")]
        await self._after_change(snap, events)
        return snap

    async def cancel(self, match_id: int, user_id: int, *, is_admin: bool) -> Snapshot:
        async with self.lock(match_id):
            snap = await self.get(match_id)
            if snap.status not in ("lobby", "running"):
                raise errors.NotRunning("This match has already ended.")
            if user_id != snap.record.host_id and not is_admin:
                raise errors.NotHost("cancel the match (or someone with Manage Server)")
            snap = await self._lobby_change(match_id, status="abandoned")
            self._disarm(match_id)
            log.info("match %s: cancelled by %s", match_id, user_id)
        await self._notify(snap, [Event("The match was cancelled.")])
        return snap

    # --- moves --------------------------------------------------------------------------

    async def play(
        self, match_id: int, user_id: int, move: str | Move, *, version: int | None = None
    ) -> MoveResult:
        """Apply a human's move. ``version`` (from a button) must be the current one."""
        async with self.lock(match_id):
            snap = await self.get(match_id)
            if snap.status != "running":
                raise errors.NotRunning(
                    "This match is over." if snap.status in ("finished", "abandoned") else "This match has not started yet."
                )
            seat = snap.seat_of(user_id)
            if seat is None:
                raise errors.NotSeated()
            if snap.seats[seat].left:
                raise errors.NotSeated("You left this match; the AI plays your seat now.")
            if version is not None and version != snap.version:
                raise errors.StaleVersion()
            result = await self._apply(snap, seat, user_id, move)
        await self._after_change(result.snapshot, result.events)
        return result

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
        moves = game.legal_moves(state, seat)
        chosen = next((m for m in moves if m.code == code), None)
        new_state, events = game.apply(state, seat, code)  # raises a GameError with a sentence
        events = list(extra_events) + list(events)
        if chosen is None:  # pragma: no cover - apply accepted a code not listed
            chosen = Move.simple(code, code)
        outcome = game.outcome(new_state)
        status = "finished" if outcome is not None else "running"
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
        self._cache[snap.id] = new
        log.info("match %s: v%d seat %d played %s", snap.id, version, seat, code)
        if outcome is not None:
            log.info("match %s: finished", snap.id)
        return MoveResult(new, seat, chosen, tuple(events))

    @staticmethod
    def _notes(notes: Mapping[str, list[str]], events: Sequence[Event]) -> dict[str, list[str]]:
        out = {k: list(v) for k, v in notes.items()}
        for e in events:
            if e.seat is not None:
                box = out.setdefault(str(e.seat), [])
                box.append(e.text)
                del box[:-NOTES_PER_SEAT]
        return out

    async def _after_change(self, snap: Snapshot, events: Sequence[Event]) -> None:
        """Tell listeners, then arm timers and wake the AI."""
        await self._notify(snap, events)
        if snap.status != "running":
            self._disarm(snap.id)
            return
        self._arm(snap)
        self._wake_ai(snap)

    # --- AI seats -----------------------------------------------------------------------

    def _ai_seats_to_act(self, snap: Snapshot) -> list[int]:
        return sorted(s for s in snap.to_act() if snap.seats[s].played_by_ai)

    def _wake_ai(self, snap: Snapshot) -> None:
        if self._closed or not self._ai_seats_to_act(snap):
            return
        task = self._ai_tasks.get(snap.id)
        if task is not None and not task.done():
            return
        self._ai_tasks[snap.id] = asyncio.create_task(self._drive_ai(snap.id), name=f"ai-{snap.id}")

    async def _drive_ai(self, match_id: int) -> None:
        """Play every AI seat's turn until a human is awaited or the match ends. After a long
        run of AI moves (a table of AI seats only) it pauses briefly, then goes on: a match
        whose players all left must still end."""
        while not self._closed:
            if await self._drive_ai_moves(match_id):
                return
            log.info("match %s: AI made %d moves in a row; pausing", match_id, MAX_AI_MOVES_PER_WAKE)
            await asyncio.sleep(AI_PAUSE_SECONDS)

    async def _drive_ai_moves(self, match_id: int) -> bool:
        """Up to MAX_AI_MOVES_PER_WAKE AI moves; True when no AI seat is to act any more."""
        for _ in range(MAX_AI_MOVES_PER_WAKE):
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            async with self.lock(match_id):
                snap = await self.get(match_id)
                seats = self._ai_seats_to_act(snap)
                if not seats:
                    return True
                seat = seats[0]
                rng = Rng.from_seed(snap.record.seed ^ (snap.version * 0x2545F4914F6CDD1D + seat))
                try:
                    move = snap.game.ai_move(snap.state, seat, rng)
                    result = await self._apply(snap, seat, None, move)
                except errors.StaleVersion:
                    continue
                except GameError:
                    log.exception("match %s: AI seat %d chose an illegal move; using the default", match_id, seat)
                    result = await self._apply(snap, seat, None, snap.game.default_move(snap.state, seat))
            await self._notify(result.snapshot, result.events)
            if result.snapshot.status != "running":
                self._disarm(match_id)
                return True
            self._arm(result.snapshot)
        return False

    # --- deadlines ----------------------------------------------------------------------

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

    def _deadline_for(
        self,
        game: Game,
        state: Any,
        version: int,
        seats: Sequence[Seat],
        turn_seconds: int,
        previous: Mapping[str, Any] | None = None,
    ) -> tuple[float | None, dict[str, Any] | None]:
        """The next deadlines of this state: a rule timer and/or the turn timer.

        A rule timer that was already running for the same move (for example the 5-minute
        questioning while the Witch strikes) keeps its deadline instead of starting again."""
        now = self.clock()
        deadline: dict[str, Any] = {"version": version}
        timed = game.timer(state)
        if timed is not None:
            rule = {"at": now + timed.seconds, "seat": timed.seat, "move": timed.move, "reason": timed.reason}
            old = (previous or {}).get("rule")
            if old and (old["seat"], old["move"], old["reason"]) == (timed.seat, timed.move, timed.reason):
                rule["at"] = old["at"]
            deadline["rule"] = rule
        awaited_fn = getattr(game, "awaited", None)
        awaited = awaited_fn(state) if awaited_fn else game.to_act(state)
        humans = sorted(s for s in awaited if not seats[s].played_by_ai)
        if turn_seconds > 0 and humans:
            at = now + turn_seconds
            warn = min(60.0, turn_seconds / 4)
            deadline["turn"] = {"at": at, "warn_at": at - warn, "warned": False, "seats": humans}
        if len(deadline) == 1:
            return None, None
        return self._next_time(deadline), deadline

    @staticmethod
    def _next_time(deadline: Mapping[str, Any]) -> float | None:
        times = []
        if "rule" in deadline:
            times.append(deadline["rule"]["at"])
        turn = deadline.get("turn")
        if turn:
            times.append(turn["at"] if turn["warned"] else turn["warn_at"])
        return min(times) if times else None

    def _arm(self, snap: Snapshot) -> None:
        rec = snap.record
        current = self._timers.get(snap.id)
        if current is not None and current.version == rec.version and not current.task.done():
            return
        self._disarm(snap.id)
        if rec.deadline_at is None or not rec.deadline or rec.deadline.get("version") != rec.version:
            return
        delay = max(0.0, rec.deadline_at - self.clock())
        task = asyncio.create_task(self._fire(snap.id, rec.version, delay), name=f"deadline-{snap.id}")
        self._timers[snap.id] = _Timer(rec.version, task)

    def _disarm(self, match_id: int) -> None:
        timer = self._timers.pop(match_id, None)
        if timer is not None and timer.task is not asyncio.current_task():
            timer.task.cancel()

    async def _fire(self, match_id: int, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._timers.pop(match_id, None)
        results: list[MoveResult] = []
        reminder: tuple[Snapshot, list[int], float] | None = None
        async with self.lock(match_id):
            snap = await self.get(match_id)
            rec = snap.record
            if snap.status != "running" or rec.version != version or not rec.deadline:
                return
            deadline = dict(rec.deadline)
            now = self.clock()
            rule, turn = deadline.get("rule"), deadline.get("turn")
            try:
                if rule and rule["at"] <= now + 0.001:
                    log.info("match %s: rule deadline (%s)", match_id, rule.get("reason"))
                    results.append(await self._apply(snap, int(rule["seat"]), None, str(rule["move"])))
                elif turn and not turn["warned"] and turn["warn_at"] <= now + 0.001:
                    turn = dict(turn, warned=True)
                    deadline["turn"] = turn
                    at = self._next_time(deadline)
                    await self.repo.set_deadline(match_id, version, at, deadline)
                    snap = await self._fresh(match_id)
                    waiting = [s for s in turn["seats"] if s in snap.to_act()]
                    reminder = (snap, waiting, max(0.0, turn["at"] - now))
                elif turn and turn["at"] <= now + 0.001:
                    results.extend(await self._time_out(snap, [int(s) for s in turn["seats"]]))
            except (GameError, errors.ServiceError):
                log.exception("match %s: deadline %s failed", match_id, deadline)
                return
        if reminder is not None:
            snap, waiting, left = reminder
            for listener in list(self.listeners):
                self._background(listener.remind(snap, waiting, left), match_id)
            self._arm(snap)
            return
        for result in results:
            await self._notify(result.snapshot, result.events)
        if results:
            last = results[-1].snapshot
            if last.status == "running":
                self._arm(last)
                self._wake_ai(last)
            else:
                self._disarm(match_id)

    async def _time_out(self, snap: Snapshot, seats: Sequence[int]) -> list[MoveResult]:
        """The turn deadline passed: the game's default move for each waiting human."""
        results = []
        for seat in seats:
            if seat not in snap.to_act() or snap.seats[seat].played_by_ai:
                continue
            missed = snap.seats[seat].missed + 1
            changed = replace(snap.seats[seat], missed=missed, left=missed >= MISSES_BEFORE_REPLACED)
            name = changed.name
            extra = [Event(f"{name} ran out of time; the default move was made for them.")]
            if changed.left:
                extra.append(Event(f"{name} missed {missed} deadlines in a row and has left; the AI plays their seat."))
            move = snap.game.default_move(snap.state, seat)
            result = await self._apply(snap, seat, None, move, seat_changes={seat: changed}, extra_events=extra)
            log.info("match %s: seat %d timed out (%d in a row)", snap.id, seat, missed)
            results.append(result)
            snap = result.snapshot
            if snap.status != "running":
                break
        return results

    async def _carry_deadline(self, old: Snapshot, new: Snapshot) -> Snapshot:
        """A seat change bumped the version without a move: keep the other players' deadline
        (same time) for the new version, without the seats the AI plays now. Lock held."""
        deadline = old.record.deadline
        if not deadline or deadline.get("version") != old.version or new.status != "running":
            return new
        carried: dict[str, Any] = dict(deadline, version=new.version)
        turn = carried.get("turn")
        if turn:
            waiting = [s for s in turn["seats"] if not new.seats[int(s)].played_by_ai]
            if waiting:
                carried["turn"] = dict(turn, seats=waiting)
            else:
                del carried["turn"]
        if len(carried) == 1:
            await self.repo.set_deadline(new.id, new.version, None, None)
        else:
            await self.repo.set_deadline(new.id, new.version, self._next_time(carried), carried)
        return await self._fresh(new.id)

    async def _restore_deadline(self, snap: Snapshot) -> Snapshot:
        """A running match whose stored deadline is not for its current version (a crash
        between a seat change and its deadline update) gets fresh deadlines."""
        rec = snap.record
        if snap.state is None or (rec.deadline and rec.deadline.get("version") == rec.version):
            return snap
        turn = await self.turn_seconds(rec.guild_id)
        at, deadline = self._deadline_for(snap.game, snap.state, rec.version, rec.seats, turn)
        if deadline is None and rec.deadline is None:
            return snap
        await self.repo.set_deadline(snap.id, rec.version, at, deadline)
        log.info("match %s: deadline renewed for v%d at restore", snap.id, rec.version)
        return await self._fresh(snap.id)

    # --- leaving a running match --------------------------------------------------------

    async def leave_match(self, match_id: int, user_id: int) -> Snapshot:
        """A player leaves a running match: the AI takes the seat; they take a loss."""
        async with self.lock(match_id):
            snap = await self.get(match_id)
            if snap.status != "running":
                raise errors.NotRunning("This match is not running.")
            seat = snap.seat_of(user_id)
            if seat is None or snap.seats[seat].left:
                raise errors.NotSeated()
            seats = list(snap.seats)
            seats[seat] = replace(seats[seat], left=True)
            old = snap
            snap = await self._lobby_change(match_id, seats=tuple(seats))
            snap = await self._carry_deadline(old, snap)
            name = seats[seat].name
        events = [Event(f"{name} left the match; the AI plays their seat.")]
        await self._after_change(snap, events)
        return snap

    async def remove_seat(self, match_id: int, user_id: int, target_id: int, *, is_admin: bool) -> Snapshot:
        """The host (or Manage Server) removes a player: from a lobby, their seat goes; in a
        running match, the AI plays their seat and they take a loss (as if they had left)."""
        async with self.lock(match_id):
            snap = await self.get(match_id)
            if snap.status not in ("lobby", "running"):
                raise errors.NotRunning("This match has already ended.")
            if user_id != snap.record.host_id and not is_admin:
                raise errors.NotHost("remove a player (or someone with Manage Server)")
            if target_id == user_id:
                raise errors.LobbyError("You cannot remove yourself; use /leave instead.")
            seat = snap.seat_of(target_id)
            if seat is None or snap.seats[seat].left:
                raise errors.NotSeated("That player has no seat in this match.")
            name = snap.seats[seat].name
            if snap.status == "lobby":
                snap, text = await self._drop_from_lobby(snap, seat, "was removed by the host")
                events = [Event(text)]
            else:
                seats = list(snap.seats)
                seats[seat] = replace(seats[seat], left=True)
                old = snap
                snap = await self._lobby_change(match_id, seats=tuple(seats))
                snap = await self._carry_deadline(old, snap)
                events = [Event(f"{name} was removed from the match; the AI plays their seat.")]
            log.info("match %s: seat %d (%s) removed by %s", match_id, seat, target_id, user_id)
        if snap.status == "lobby" or snap.status == "abandoned":
            await self._notify(snap, events)
        else:
            await self._after_change(snap, events)
        return snap

    # --- reading ------------------------------------------------------------------------

    async def hand(self, match_id: int, user_id: int) -> tuple[Snapshot, int]:
        snap = await self.get(match_id)
        seat = snap.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated()
        if snap.status == "lobby":
            raise errors.NotRunning("The match has not started yet; the host presses Start.")
        return snap, seat

    async def export_log(
        self, *, channel_id: int, match_id: int | None, user_id: int, is_admin: bool
    ) -> dict[str, Any]:
        """The move log of a finished match, for a bug report: seed + moves replay it exactly."""
        if match_id is None:
            record = await self.repo.latest_in_channel(channel_id)
            if record is None:
                raise errors.MatchNotFound()
        else:
            record = await self.repo.get_match(match_id)
            if record is None or record.channel_id != channel_id:
                raise errors.MatchNotFound()
        if user_id != record.host_id and not is_admin:
            raise errors.NotHost("export the move log (or someone with Manage Server)")
        if record.status not in ("finished", "abandoned"):
            raise errors.NotRunning("The move log can be exported once the match is over.")
        moves = await self.repo.moves(record.id)
        return {
            "match": record.id,
            "game": record.game_id,
            "options": record.options,
            "seed": record.seed,
            "status": record.status,
            "seats": [{"name": s.name, "ai": s.ai, "left": s.left} for s in record.seats],
            "moves": [
                {"version": m.version, "seat": m.seat, "move": m.code, "by": "player" if m.user_id else "bot", "at": m.created_at}
                for m in moves
            ],
        }

    # --- start and stop -----------------------------------------------------------------

    async def restore(self) -> list[Snapshot]:
        """Load every open match, re-arm deadlines (with the time that was left), wake AIs."""
        snaps = [self._snapshot(r) for r in await self.repo.matches_with_status("lobby", "running")]
        for i, snap in enumerate(snaps):
            if snap.status == "running":
                async with self.lock(snap.id):
                    snap = snaps[i] = await self._restore_deadline(snap)
                # A crash between a move and its table edit leaves the table one step behind.
                await self._notify(snap, [])
                self._arm(snap)
                self._wake_ai(snap)
        log.info("restored %d open matches", len(snaps))
        return snaps

    async def close(self) -> None:
        self._closed = True
        try:
            await asyncio.wait_for(self.settle(), timeout=5)
        except TimeoutError:
            log.warning("table updates still pending at shutdown")
        tasks = [t.task for t in self._timers.values()] + list(self._ai_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._timers.clear()
        self._ai_tasks.clear()


__all__ = ["MatchService", "MoveResult", "NotYourTurn", "Snapshot", "resolve_move"]
