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

The parts reach each other only through what they are given at construction; where that is
the rest of the service (:mod:`bot.service.flow`), the front stands in for it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.base import Event, Move
from bot.games.search import Hint
from bot.service.ai_seats import AISeats
from bot.service.deadline_plans import DeadlinePlanner
from bot.service.deadlines import DeadlineKeeper
from bot.service.hints import MatchHints
from bot.service.history import MatchHistory
from bot.service.lobby import MatchLobbies
from bot.service.notifier import Notifier
from bot.service.parties import PartyLobbies
from bot.service.party_rounds import PartyRounds
from bot.service.playing import MatchPlay
from bot.service.preferences import DEFAULT_TURN_SECONDS, SettingsBook
from bot.service.replays import Replay, Replays
from bot.service.restart import Restorer
from bot.service.snapshot import Listener, MoveResult, PartyListener, PartySnapshot, Snapshot, TableChannels
from bot.service.store import MatchStore
from db.marks import Mark, TableMarks
from db.parties import PartyStats
from db.records import MatchStatus, Preferences, ServerSettings
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
        self.parties = PartyLobbies(self.rounds, self.notifier, self)
        self.playing = MatchPlay(self.store, self.lobbies.seating, self.deadlines, self.notifier, self)
        self.hints = MatchHints(self.store, self.ai_seats)
        self.history = MatchHistory(repo)
        self.replays = Replays(repo)
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

    # --- listeners and settings ---------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self.notifier.add_listener(listener)

    def add_party_listener(self, listener: PartyListener) -> None:
        self.notifier.add_party_listener(listener)

    @property
    def table_channels(self) -> TableChannels | None:
        return self.rounds.table_channels

    @table_channels.setter
    def table_channels(self, channels: TableChannels | None) -> None:
        self.rounds.table_channels = channels

    @property
    def ai_think(self) -> float:
        """A hard AI seat's thinking budget per move, in seconds."""
        return self.ai_seats.think

    @ai_think.setter
    def ai_think(self, seconds: float) -> None:
        self.ai_seats.think = seconds

    @property
    def default_turn_seconds(self) -> int:
        return self.settings.default_turn_seconds

    @default_turn_seconds.setter
    def default_turn_seconds(self, seconds: int) -> None:
        self.settings.default_turn_seconds = seconds

    async def turn_seconds(self, guild_id: int) -> int:
        return await self.settings.turn_seconds(guild_id)

    async def set_turn_seconds(self, guild_id: int, seconds: int, *, is_admin: bool) -> None:
        await self.settings.set_turn_seconds(guild_id, seconds, is_admin=is_admin)

    async def server_settings(self, guild_id: int) -> ServerSettings:
        return await self.settings.server_settings(guild_id)

    async def set_server_settings(self, guild_id: int, *, is_admin: bool, **values: bool) -> ServerSettings:
        return await self.settings.set_server_settings(guild_id, is_admin=is_admin, **values)

    async def web_key(self, guild_id: int) -> str | None:
        return await self.settings.web_key(guild_id)

    async def set_web(self, guild_id: int, on: bool, *, is_admin: bool) -> str | None:
        return await self.settings.set_web(guild_id, on, is_admin=is_admin)

    async def preferences(self, user_ids: Sequence[int]) -> dict[int, Preferences]:
        return await self.settings.preferences(user_ids)

    async def set_preferences(self, user_id: int, **values: bool) -> Preferences:
        return await self.settings.set_preferences(user_id, **values)

    # --- reading matches ----------------------------------------------------------------

    def lock(self, match_id: int) -> asyncio.Lock:
        return self.store.lock(match_id)

    async def get(self, match_id: int) -> Snapshot:
        return await self.store.get(match_id)

    async def active_in_channel(self, channel_id: int) -> Snapshot | None:
        return await self.store.active_in_channel(channel_id)

    async def matches_of(self, guild_id: int, user_id: int) -> list[Snapshot]:
        return await self.store.matches_of(guild_id, user_id)

    async def hand(self, match_id: int, user_id: int) -> tuple[Snapshot, int]:
        return await self.playing.hand(match_id, user_id)

    async def hint(self, match_id: int, user_id: int) -> Hint:
        """A practice match's hint for the player's seat (refused in a rated match)."""
        return await self.hints.hint(match_id, user_id)

    async def skill_changes(self, match_id: int) -> dict[int, float]:
        return await self.history.skill_changes(match_id)

    async def export_log(
        self, *, channel_id: int, match_id: int | None, user_id: int, is_admin: bool
    ) -> dict[str, Any]:
        return await self.history.export_log(
            channel_id=channel_id, match_id=match_id, user_id=user_id, is_admin=is_admin
        )

    async def replay(self, *, guild_id: int, channel_id: int, match_id: int | None) -> Replay:
        """A finished match of this server played again (the channel's latest by default)."""
        return await self.replays.find(guild_id=guild_id, channel_id=channel_id, match_id=match_id)

    async def replay_choices(self, channel_id: int, typed: str) -> list[tuple[int, str]]:
        """The channel's latest finished matches, for ``/match replay``'s autocomplete."""
        return await self.replays.choices(channel_id, typed, time.time())

    async def set_table_message(self, match_id: int, message_id: int | None) -> None:
        await self.store.set_table_message(match_id, message_id)

    async def set_turn_message(self, match_id: int, message_id: int | None) -> None:
        await self.store.set_turn_message(match_id, message_id)

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

    # --- parties ------------------------------------------------------------------------

    async def open_party(
        self, *, guild_id: int, channel_id: int, host_id: int, host_name: str, game_id: str
    ) -> PartySnapshot:
        return await self.parties.open_party(
            guild_id=guild_id, channel_id=channel_id, host_id=host_id, host_name=host_name, game_id=game_id
        )

    async def get_party(self, party_id: int) -> PartySnapshot:
        return await self.rounds.get_party(party_id)

    async def party_in_channel(self, channel_id: int) -> PartySnapshot | None:
        return await self.rounds.party_in_channel(channel_id)

    async def party_of_match(self, match_id: int) -> int | None:
        return await self.rounds.party_of_match(match_id)

    async def party_stats(self, guild_id: int, user_id: int) -> PartyStats:
        return await self.rounds.party_stats(guild_id, user_id)

    async def set_party_message(self, party_id: int, message_id: int | None) -> None:
        await self.rounds.set_party_message(party_id, message_id)

    async def party_join(self, party_id: int, user_id: int, name: str) -> PartySnapshot:
        return await self.parties.seating.join(party_id, user_id, name)

    async def party_add_ai(self, party_id: int, user_id: int, level: str = "normal") -> PartySnapshot:
        return await self.parties.seating.add_ai(party_id, user_id, level)

    async def party_remove_ai(self, party_id: int, user_id: int) -> PartySnapshot:
        return await self.parties.seating.remove_ai(party_id, user_id)

    async def party_set_option(self, party_id: int, user_id: int, key: str, value: str) -> PartySnapshot:
        return await self.parties.seating.set_option(party_id, user_id, key, value)

    async def party_start(self, party_id: int, user_id: int) -> PartySnapshot:
        return await self.parties.seating.start(party_id, user_id)

    async def party_leave(self, party_id: int, user_id: int) -> PartySnapshot:
        return await self.parties.leave(party_id, user_id)

    async def party_cancel(self, party_id: int, user_id: int, *, is_admin: bool) -> PartySnapshot:
        return await self.parties.cancel(party_id, user_id, is_admin=is_admin)

    # --- start and stop -----------------------------------------------------------------

    async def restore(self, *, freeze: bool = False) -> list[Snapshot]:
        return await self.restorer.restore(freeze=freeze)

    async def settle(self) -> None:
        """Wait for listener work in flight (tests and shutdown)."""
        await self.notifier.settle()

    async def table_marks(self, match_ids: Sequence[int]) -> dict[int, Mark]:
        """What these matches' tables and turn messages showed, as last saved."""
        return await TableMarks(self.repo).load(match_ids)

    async def save_table_marks(self, marks: Mapping[int, Mark], ended: Sequence[int] = ()) -> None:
        """Save what tables and turn messages show now; forget those of ended matches."""
        store = TableMarks(self.repo)
        await store.save(marks)
        await store.forget(ended)

    async def close(self) -> None:
        self.deadlines.closed = self.ai_seats.closed = True
        try:
            await asyncio.wait_for(self.settle(), timeout=5)
        except TimeoutError:
            log.warning("table updates still pending at shutdown")
        tasks = [*self.deadlines.close(), *self.ai_seats.close()]
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- what the tests look into: each part's own state --------------------------------

    @property
    def party_store(self) -> Any:
        return self.rounds.party_store

    @property
    def _cache(self) -> dict[int, Snapshot]:
        return self.store.cache

    @property
    def _in_channel(self) -> dict[int, int]:
        return self.store.in_channel

    @property
    def _locks(self) -> Any:
        return self.store.locks

    @property
    def _timers(self) -> Any:
        return self.deadlines.timers

    @property
    def _ai_tasks(self) -> Any:
        return self.ai_seats.tasks

    @property
    def _ai_pauses(self) -> Any:
        return self.ai_seats.pauses

    @property
    def _party_locks(self) -> Any:
        return self.rounds.locks

    @property
    def _party_of_match(self) -> dict[int, int]:
        return self.rounds.party_of

    def _remember(self, snap: Snapshot) -> None:
        self.store.remember(snap)


__all__ = ["MatchService"]
