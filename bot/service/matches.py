"""The match service: lobbies, moves, AI seats, deadlines and parties, without Discord.

Every change to a match happens under that match's lock: load, ``engine.apply``, save in
one transaction (state, version, move row), then listeners are told (the Discord layer
edits the table message). A move made against an older version is refused, never merged.

:class:`MatchService` is a thin front over parts that each own their state:

- :class:`~bot.service.store.MatchStore`: the cache of active matches, their locks and every
  write to a match, the move transaction among them;
- :class:`~bot.service.lobby_flow.SeatingLobby`: the one seating lobby, used by a match's
  lobby (:mod:`bot.service.lobby`) and a party's (:mod:`bot.service.parties`) alike;
- :class:`~bot.service.ai_seats.AISeats`: the AI seats' play;
- :class:`~bot.service.deadlines.DeadlineKeeper`: turn and rule timers;
- :class:`~bot.service.party_rounds.PartyRounds`: parties once they run;
- :class:`~bot.service.notifier.Notifier`: the listeners and the work of telling them;
- :class:`~bot.service.preferences.SettingsBook`: server settings and players' preferences.

The front's own API is a match's (reading one, its lobby, a move, leaving, restore, close),
each call passed on in one line. The Discord layer asks the other parts by name:
``service.parties`` (:class:`~bot.service.parties.Parties`), ``service.settings``,
``service.replays``, ``service.history``, ``service.hints``, ``service.store`` and
``service.marks`` (what the tables showed, for a restart).

The parts reach each other only through what they are given at construction; where that is
the rest of the service (:mod:`bot.service.flow`), the front stands in for it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence

from bot.games.base import Event, Move
from bot.service.ai_seats import AISeats
from bot.service.deadline_plans import DeadlinePlanner
from bot.service.deadlines import DeadlineKeeper
from bot.service.hints import MatchHints
from bot.service.history import MatchHistory
from bot.service.lobby import MatchLobbies
from bot.service.notifier import Notifier
from bot.service.parties import Parties
from bot.service.party_rounds import PartyRounds
from bot.service.playing import MatchPlay
from bot.service.preferences import DEFAULT_TURN_SECONDS, SettingsBook
from bot.service.replays import Replays
from bot.service.restart import Restorer
from bot.service.snapshot import Listener, MoveResult, PartyListener, Snapshot
from bot.service.store import MatchStore
from db.marks import TableMarks
from db.records import MatchStatus
from db.repository import Repository

log = logging.getLogger(__name__)


class MatchService:
    """The front the Discord layer and the tests use: it builds the parts, wires them, and
    passes each call to the part that owns it (see the module docstring)."""

    def __init__(
        self,
        repo: Repository,
        ai_delay: float = 0.8,
        ai_think: float = 0.8,
        ai_processes: int = 0,
        default_turn_seconds: int = DEFAULT_TURN_SECONDS,
        clock: Callable[[], float] = time.time,
        runs_guild: Callable[[int], bool] = lambda _guild_id: True,
    ) -> None:
        self.repo = repo
        self.notifier = Notifier()
        self.settings = SettingsBook(repo, default_turn_seconds)
        planner = DeadlinePlanner(self.settings, clock)
        self.store = MatchStore(repo, planner)
        self.deadlines = DeadlineKeeper(self.store, planner, self.notifier, self, clock)
        self.ai_seats = AISeats(self.store, self, delay=ai_delay, think=ai_think, processes=ai_processes)
        self.rounds = PartyRounds(self.store, self.notifier, self, runs_guild)
        self.notifier.add_end_watcher(self.rounds)
        self.lobbies = MatchLobbies(self.store, self.notifier, self, self.rounds)
        self.parties = Parties(self.rounds, self.notifier, self)
        self.playing = MatchPlay(self.store, self.lobbies.seating, self.deadlines, self.notifier, self)
        self.hints = MatchHints(self.store, self.ai_seats)
        self.history = MatchHistory(repo)
        self.replays = Replays(repo)
        self.marks = TableMarks(repo)
        self.restorer = Restorer(
            self.store, self.deadlines, self.rounds, self.notifier, self, runs_guild, clock
        )

    # --- the flow between the parts (bot.service.flow) ----------------------------------

    async def after_change(self, snap: Snapshot, events: Sequence[Event]) -> None:
        """Tell listeners, then arm timers and wake the AI (or let an ended match go)."""
        self.notifier.tell(snap, events)
        if snap.status != MatchStatus.RUNNING:
            self.release(snap.id)
            return
        self.deadlines.arm(snap)
        self._wake_ai(snap)

    def release(self, match_id: int) -> None:
        """A match is over: drop its deadline and an AI seat's pending pause. The cache drops
        it by itself, its AI task as the task ends, and its lock with the lock's last holder."""
        self.deadlines.disarm(match_id)
        self.ai_seats.forget(match_id)

    def _wake_ai(self, snap: Snapshot) -> None:
        self.ai_seats.wake(snap)

    # --- listeners ----------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self.notifier.add_listener(listener)

    def add_party_listener(self, listener: PartyListener) -> None:
        self.notifier.add_party_listener(listener)

    # --- reading matches ----------------------------------------------------------------

    async def get(self, match_id: int) -> Snapshot:
        return await self.store.get(match_id)

    async def active_in_channel(self, channel_id: int) -> Snapshot | None:
        return await self.store.active_in_channel(channel_id)

    async def hand(self, match_id: int, user_id: int) -> tuple[Snapshot, int]:
        return await self.playing.hand(match_id, user_id)

    # --- a match's lobby ----------------------------------------------------------------

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
        return await self.lobbies.open_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            game_id=game_id,
            options=options,
        )

    async def learn(
        self, *, guild_id: int, channel_id: int, user_id: int, name: str, game_id: str
    ) -> Snapshot:
        """A guided practice match against AI seats, started at once (``/learn``)."""
        return await self.lobbies.learn(
            guild_id=guild_id, channel_id=channel_id, user_id=user_id, name=name, game_id=game_id
        )

    async def rematch(self, match_id: int, user_id: int, name: str) -> tuple[Snapshot, list[int]]:
        return await self.lobbies.rematch(match_id, user_id, name)

    async def join(self, match_id: int, user_id: int, name: str) -> Snapshot:
        return await self.lobbies.seating.join(match_id, user_id, name)

    async def leave_lobby(self, match_id: int, user_id: int) -> Snapshot:
        return await self.lobbies.seating.leave(match_id, user_id)

    async def add_ai(self, match_id: int, user_id: int, level: str = "normal") -> Snapshot:
        return await self.lobbies.seating.add_ai(match_id, user_id, level)

    async def remove_ai(self, match_id: int, user_id: int) -> Snapshot:
        return await self.lobbies.seating.remove_ai(match_id, user_id)

    async def set_option(self, match_id: int, user_id: int, key: str, value: str) -> Snapshot:
        return await self.lobbies.seating.set_option(match_id, user_id, key, value)

    async def start(self, match_id: int, user_id: int) -> Snapshot:
        return await self.lobbies.seating.start(match_id, user_id)

    async def cancel(self, match_id: int, user_id: int, *, is_admin: bool) -> Snapshot:
        return await self.lobbies.cancel(match_id, user_id, is_admin=is_admin)

    # --- playing ------------------------------------------------------------------------

    async def play(
        self, match_id: int, user_id: int, move: str | Move, *, version: int | None = None
    ) -> MoveResult:
        return await self.playing.play(match_id, user_id, move, version=version)

    async def leave_match(self, match_id: int, user_id: int) -> Snapshot:
        return await self.playing.leave_match(match_id, user_id)

    async def remove_seat(self, match_id: int, user_id: int, target_id: int, *, is_admin: bool) -> Snapshot:
        return await self.playing.remove_seat(match_id, user_id, target_id, is_admin=is_admin)

    # --- start and stop -----------------------------------------------------------------

    async def restore(self, *, freeze: bool = False) -> list[Snapshot]:
        return await self.restorer.restore(freeze=freeze)

    async def settle(self) -> None:
        """Wait for listener work in flight (tests and shutdown)."""
        await self.notifier.settle()

    async def close(self) -> None:
        self.deadlines.closed = self.ai_seats.closed = True
        try:
            await asyncio.wait_for(self.settle(), timeout=5)
        except TimeoutError:
            log.warning("table updates still pending at shutdown")
        tasks = [*self.deadlines.close(), *self.ai_seats.close()]
        await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["MatchService"]
