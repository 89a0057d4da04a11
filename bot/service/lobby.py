"""Lobbies: open, join, leave, AI seats, options, start and cancel."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from typing import Any

from bot.games import GAMES
from bot.games.base import Event, Game, GameError
from bot.games.search import LEVELS
from bot.service import errors
from bot.service.core import ServiceCore
from bot.service.snapshot import Snapshot
from db import repository as repo_mod
from db.records import MatchStatus, Seat

log = logging.getLogger(__name__)


class LobbyMixin(ServiceCore):
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

    async def rematch(self, match_id: int, user_id: int, name: str) -> tuple[Snapshot, list[int]]:
        """A new lobby in the same channel with the same game, options and AI seats, hosted
        by ``user_id`` (one of the finished match's players). Returns it and the other
        players of the old match, to invite."""
        old = await self.get(match_id)
        if old.status != MatchStatus.FINISHED:
            raise errors.LobbyError("A rematch can be started once the match has finished.")
        party_id = await self.party_of_match(match_id)
        if party_id is not None:
            raise errors.LobbyError(
                f"This table is part of party #{party_id}; the party seats its next round itself."
            )
        players = [s.user_id for s in old.seats if not s.ai and s.user_id is not None]
        if user_id not in players:
            raise errors.NotSeated("Only the players of this match can start its rematch.")
        try:
            snap = await self.open_lobby(
                guild_id=old.record.guild_id,
                channel_id=old.record.channel_id,
                host_id=user_id,
                host_name=name,
                game_id=old.record.game_id,
                options=old.record.options,
            )
        except errors.ChannelBusy as busy:
            # Mostly the rematch itself, opened by another player (or by an earlier click):
            # say where to go rather than to finish or cancel it.
            other = await self.get(busy.match_id)
            if other.status != MatchStatus.LOBBY:
                raise
            if other.seat_of(user_id) is not None:
                raise errors.LobbyError(
                    f"Lobby #{other.id} is already open in this channel, and you are in it."
                ) from None
            raise errors.LobbyError(
                f"Lobby #{other.id} is already open in this channel: press Join on it to play."
            ) from None
        ais = [s for s in old.seats if s.ai]
        if ais:
            async with self.lock(snap.id):
                seats = snap.seats + tuple(
                    Seat(None, f"AI {n}", ai=True, level=s.level) for n, s in enumerate(ais, start=1)
                )
                snap = await self._lobby_change(snap.id, seats=seats)
        return snap, [u for u in players if u != user_id]

    @staticmethod
    def _check_level(level: str) -> None:
        """An AI's level (a match's seat or a party's player) must be one of ``LEVELS``."""
        if level not in LEVELS:
            raise errors.LobbyError(f"{level!r} is not an AI level; the levels are {', '.join(LEVELS)}.")

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
            self._patch_cached(match_id, message_id=message_id)

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
        if snap.status != MatchStatus.LOBBY:
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
            snap = await self._lobby_change(snap.id, seats=seats, status=MatchStatus.ABANDONED)
            return snap, f"{name} {verb}; the lobby is closed."
        if snap.seats[seat].user_id == snap.record.host_id:
            snap = await self._lobby_change(snap.id, seats=seats, host_id=humans[0].user_id)
            return snap, f"{name} {verb}; {humans[0].name} is the host now."
        snap = await self._lobby_change(snap.id, seats=seats)
        return snap, f"{name} {verb}."

    async def add_ai(self, match_id: int, user_id: int, level: str = "normal") -> Snapshot:
        """Seat an AI playing at ``level``: easy (random legal moves), normal (the game's own
        AI) or hard (the search of bot.games.search)."""
        self._check_level(level)
        async with self.lock(match_id):
            snap = await self._open_lobby(match_id)
            if user_id != snap.record.host_id:
                raise errors.NotHost("add AI players")
            if len(snap.seats) >= snap.game.max_players:
                raise errors.LobbyError(f"This lobby is full ({snap.game.max_players} players).")
            n = 1 + sum(1 for s in snap.seats if s.ai)
            seat = Seat(None, f"AI {n}", ai=True, level=level)
            snap = await self._lobby_change(match_id, seats=snap.seats + (seat,))
        await self._notify(snap, [Event(f"AI {n} ({level}) joined.")])
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
            snap = await self._begin(snap)
        events = [Event("The match begins.")]
        await self._after_change(snap, events)
        return snap

    async def _begin(self, snap: Snapshot) -> Snapshot:
        """Deal and start a lobby's match. Lock held."""
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
                snap.id,
                snap.version,
                state=game.dump(state),
                seats=snap.seats,
                deadline_at=deadline_at,
                deadline=deadline,
            )
        except repo_mod.StaleVersion:
            await self._fresh(snap.id)
            raise errors.StaleVersion() from None
        snap = self._snapshot(record)
        log.info("match %s: started with %d seats", snap.id, len(snap.seats))
        return snap

    async def cancel(self, match_id: int, user_id: int, *, is_admin: bool) -> Snapshot:
        async with self.lock(match_id):
            snap = await self.get(match_id)
            if snap.status not in (MatchStatus.LOBBY, MatchStatus.RUNNING):
                raise errors.NotRunning("This match has already ended.")
            if user_id != snap.record.host_id and not is_admin:
                raise errors.NotHost("cancel the match (or someone with Manage Server)")
            snap = await self._lobby_change(match_id, status=MatchStatus.ABANDONED)
            self._release(match_id)
            log.info("match %s: cancelled by %s", match_id, user_id)
        await self._notify(snap, [Event("The match was cancelled.")])
        return snap
