"""A match's lobby: opening one (or a rematch), its seats as the seating lobby changes them,
its start and its cancelling. The seating rules are :mod:`bot.service.lobby_flow`'s."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping

from bot.games import GAMES
from bot.games.base import Event, player_counts
from bot.service import errors, practice
from bot.service.flow import MatchFlow, PartyOfMatch
from bot.service.lobby_flow import LobbyWords, SeatingLobby, check_option, default_options
from bot.service.notifier import Notifier
from bot.service.snapshot import Snapshot
from bot.service.store import MatchStore
from db import repository as repo_mod
from db.records import MatchStatus, Seat

log = logging.getLogger(__name__)

MATCH_WORDS = LobbyWords(
    noun="lobby",
    already_in="You are already seated in this lobby.",
    not_in="You are not in this lobby.",
    no_ai="There is no AI seat to remove.",
    start="start the match",
)


class MatchBook:
    """A match's lobby as the seating lobby reads and writes it: seats in the match record."""

    words = MATCH_WORDS

    def __init__(self, store: MatchStore, notifier: Notifier, flow: MatchFlow) -> None:
        self.store = store
        self.notifier = notifier
        self.flow = flow

    def lock(self, lobby_id: int) -> asyncio.Lock:
        return self.store.lock(lobby_id)

    async def open(self, lobby_id: int) -> Snapshot:
        snap = await self.store.get(lobby_id)
        if snap.status != MatchStatus.LOBBY:
            raise errors.LobbyError("This lobby is closed: the match has already started or ended.")
        return snap

    def seated(self, lobby: Snapshot) -> tuple[Seat, ...]:
        return lobby.seats

    def host_id(self, lobby: Snapshot) -> int:
        return lobby.record.host_id

    def capacity(self, lobby: Snapshot) -> int:
        """The most players the chosen options seat (a tourney of King and Crown: 2)."""
        counts = player_counts(lobby.game, practice.of_game(lobby.record.options))
        return max(counts) if counts else lobby.game.max_players

    def person(self, user_id: int, name: str) -> Seat:
        return Seat(user_id, name)

    def robot(self, name: str, level: str) -> Seat:
        return Seat(None, name, ai=True, level=level)

    async def seat(
        self, lobby: Snapshot, seated: tuple[Seat, ...], *, host_id: int | None = None, closed: bool = False
    ) -> Snapshot:
        status = MatchStatus.ABANDONED if closed else None
        return await self.store.change(lobby.id, seats=seated, host_id=host_id, status=status)

    async def set_option(self, lobby: Snapshot, key: str, value: str) -> Snapshot:
        check_option(lobby.game, key, value)
        return await self.store.change(lobby.id, options={**lobby.record.options, key: value})

    async def begin(self, lobby: Snapshot) -> Snapshot:
        return await self.store.deal(lobby)

    async def begun(self, lobby: Snapshot) -> None:
        await self.flow.after_change(lobby, [Event("The match begins.")])

    async def announce(self, lobby: Snapshot, text: str | None) -> None:
        self.notifier.tell(lobby, [Event(text)] if text else [])


class MatchLobbies:
    """Opens matches' lobbies (a new one, or a finished match's rematch) and cancels matches;
    their seats are the seating lobby's (``seating``)."""

    def __init__(self, store: MatchStore, notifier: Notifier, flow: MatchFlow, parties: PartyOfMatch) -> None:
        self.store = store
        self.notifier = notifier
        self.flow = flow
        self.parties = parties
        self.seating: SeatingLobby[Snapshot, Seat] = SeatingLobby(MatchBook(store, notifier, flow))

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
        chosen = default_options(game, tuple((options or {}).items()))
        try:
            record = await self.store.repo.create_match(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game_id=game_id,
                options=chosen,
                seats=[Seat(host_id, host_name)],
                seed=secrets.randbits(62),
            )
        except repo_mod.ChannelBusy as busy:
            raise errors.ChannelBusy(busy.match_id) from None
        log.info("match %s: lobby for %s opened in channel %s", record.id, game_id, channel_id)
        return self.store.load(record)

    async def learn(
        self, *, guild_id: int, channel_id: int, user_id: int, name: str, game_id: str
    ) -> Snapshot:
        """``/learn``: a guided practice match (:mod:`bot.service.practice`) in the channel,
        the caller against normal AI seats at the game's smallest table, started at once,
        with the options the game declares for a lesson (a short match)."""
        game = GAMES.get(game_id)
        if game is None:
            raise errors.LobbyError(f"There is no game called {game_id!r}.")
        options = {**dict(game.info.lesson), practice.KEY: practice.GUIDED}
        snap = await self.open_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=user_id,
            host_name=name,
            game_id=game_id,
            options=options,
        )
        players = player_counts(game, practice.of_game(default_options(game, tuple(options.items()))))[0]
        for _ in range(players - 1):
            snap = await self.seating.add_ai(snap.id, user_id, "normal")
        log.info("match %s: a guided practice match of %s for %s", snap.id, game_id, user_id)
        return await self.seating.start(snap.id, user_id)

    async def rematch(self, match_id: int, user_id: int, name: str) -> tuple[Snapshot, list[int]]:
        """A new lobby in the same channel with the same game, options and AI seats, hosted
        by ``user_id`` (one of the finished match's players). Returns it and the other
        players of the old match, to invite."""
        old = await self.store.get(match_id)
        if old.status != MatchStatus.FINISHED:
            raise errors.LobbyError("A rematch can be started once the match has finished.")
        party_id = await self.parties.party_of_match(match_id)
        if party_id is not None:
            raise errors.LobbyError(
                f"This table is part of party #{party_id}; the party seats its next round itself."
            )
        players = [seat.user_id for seat in old.seats if not seat.ai and seat.user_id is not None]
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
            other = await self.store.get(busy.match_id)
            if other.status != MatchStatus.LOBBY:
                raise
            if other.seat_of(user_id) is not None:
                raise errors.LobbyError(
                    f"Lobby #{other.id} is already open in this channel, and you are in it."
                ) from None
            raise errors.LobbyError(
                f"Lobby #{other.id} is already open in this channel: press Join on it to play."
            ) from None
        robots = [seat for seat in old.seats if seat.ai]
        if robots:
            async with self.store.lock(snap.id):
                seats = snap.seats + tuple(
                    Seat(None, f"AI {number}", ai=True, level=seat.level)
                    for number, seat in enumerate(robots, start=1)
                )
                snap = await self.store.change(snap.id, seats=seats)
        return snap, [player for player in players if player != user_id]

    async def cancel(self, match_id: int, user_id: int, *, is_admin: bool) -> Snapshot:
        async with self.store.lock(match_id):
            snap = await self.store.get(match_id)
            if snap.status not in (MatchStatus.LOBBY, MatchStatus.RUNNING):
                raise errors.NotRunning("This match has already ended.")
            if user_id != snap.record.host_id and not is_admin:
                raise errors.NotHost("cancel the match (or someone with Manage Server)")
            snap = await self.store.change(match_id, status=MatchStatus.ABANDONED)
            self.flow.release(match_id)
            log.info("match %s: cancelled by %s", match_id, user_id)
        self.notifier.tell(snap, [Event("The match was cancelled.")])
        return snap
