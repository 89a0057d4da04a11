"""Parties: several tables at once, winners moving on (dynasty's "bridge party", for any game
whose outcome gives every seat a total).

A party is a lobby of players plus a series of ordinary matches: each round seats the
players at tables (:mod:`bot.service.seating`), every table's match plays in a channel of
its own (the Discord layer opens a thread), and when every table of the round is over the
winners move and the next round starts by itself. Everything is stored (the party, every
table of every round with its seating, match and results), so a restart loses nothing:
:meth:`bot.service.party_rounds.PartyRounds.restore_parties` opens what was not opened and
advances a round whose matches all ended while the bot was down.

This module is the party's lobby: its seats are the seating lobby's
(:mod:`bot.service.lobby_flow`), as for a match; the rounds are :mod:`bot.service.party_rounds`'.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from dataclasses import replace

from bot.games import GAMES
from bot.games.base import GameError
from bot.service import errors, practice, seating
from bot.service.flow import MatchSeats
from bot.service.lobby_flow import LobbyWords, SeatingLobby, check_option
from bot.service.notifier import Notifier
from bot.service.party_rounds import PartyRounds
from bot.service.seating import SeatingError
from bot.service.snapshot import PartySnapshot
from db.parties import PartyBusy, PartyChange, PartyPlayer, PartyStats
from db.records import MatchStatus

log = logging.getLogger(__name__)

TABLE_CHOICES = (("2", "2 tables"), ("3", "3 tables"), ("4", "4 tables"))
ROUND_CHOICES = (("1", "1 round"), ("2", "2 rounds"), ("3", "3 rounds"), ("4", "4 rounds"), ("5", "5 rounds"))
DEFAULT_TABLES = 2
DEFAULT_ROUNDS = 3
PARTY_KEYS = ("tables", "rounds")  # the party's own options; the others are the matches'

PARTY_WORDS = LobbyWords(
    noun="party",
    already_in="You are already in this party.",
    not_in="You are not in this party.",
    no_ai="There is no AI player to remove.",
    start="start the party",
)


class PartyBook:
    """A party's lobby as the seating lobby reads and writes it: players in the party record."""

    words = PARTY_WORDS

    def __init__(self, rounds: PartyRounds, notifier: Notifier) -> None:
        self.rounds = rounds
        self.notifier = notifier

    def lock(self, lobby_id: int) -> asyncio.Lock:
        return self.rounds.lock(lobby_id)

    async def open(self, lobby_id: int) -> PartySnapshot:
        party = await self.rounds.get_party(lobby_id)
        if party.status != MatchStatus.LOBBY:
            raise errors.LobbyError("This party has already started or ended.")
        return party

    def seated(self, lobby: PartySnapshot) -> tuple[PartyPlayer, ...]:
        return lobby.players

    def host_id(self, lobby: PartySnapshot) -> int:
        return lobby.record.host_id

    def capacity(self, lobby: PartySnapshot) -> int:
        return seating.MAX_PLAYERS

    def person(self, user_id: int, name: str) -> PartyPlayer:
        return PartyPlayer(user_id, name)

    def robot(self, name: str, level: str) -> PartyPlayer:
        return PartyPlayer(None, name, ai=True, level=level)

    async def seat(
        self,
        lobby: PartySnapshot,
        seated: tuple[PartyPlayer, ...],
        *,
        host_id: int | None = None,
        closed: bool = False,
    ) -> PartySnapshot:
        status = MatchStatus.ABANDONED if closed else None
        return await self.rounds.change(lobby, PartyChange(players=seated, host_id=host_id, status=status))

    async def set_option(self, lobby: PartySnapshot, key: str, value: str) -> PartySnapshot:
        if key == "tables":
            if value not in dict(TABLE_CHOICES):
                raise errors.LobbyError(f"{value!r} is not a choice for Tables.")
            change = PartyChange(tables=int(value))
        elif key == "rounds":
            if value not in dict(ROUND_CHOICES):
                raise errors.LobbyError(f"{value!r} is not a choice for Rounds.")
            change = PartyChange(rounds=int(value))
        else:
            check_option(lobby.game, key, value)
            change = PartyChange(options={**lobby.record.options, key: value})
        return await self.rounds.change(lobby, change)

    async def begin(self, lobby: PartySnapshot) -> PartySnapshot:
        """Seat the first round (every table one the game can start) and open its tables."""
        party = lobby
        count, tables = len(party.players), party.record.tables
        try:
            seating.check_seating(
                count,
                tables,
                game_min=party.game.min_players,
                game_max=party.game.max_players,
                partners=party.partners,
            )
        except SeatingError as err:
            raise errors.LobbyError(str(err)) from None
        first = seating.fill_ai(
            seating.first_seating(count, tables, random.Random(party.record.seed)), party.game.min_players
        )
        for table in first:  # every table must be one the game can start (its options too)
            try:
                party.game.check_players(len(table), practice.of_game(party.record.options))
            except GameError as err:
                raise errors.LobbyError(f"A table of {len(table)}: {err}") from None
        party = await self.rounds.change(
            party,
            PartyChange(
                status=MatchStatus.RUNNING,
                round=1,
                new_tables=[(1, number, table) for number, table in enumerate(first)],
            ),
        )
        log.info("party %s: started, %d players at %d tables", party.id, count, tables)
        return await self.rounds.open_round(party)

    async def begun(self, lobby: PartySnapshot) -> None:
        self.notifier.tell_party(lobby)

    async def announce(self, lobby: PartySnapshot, text: str | None) -> None:
        self.notifier.tell_party(lobby)


class Parties:
    """Parties as the Discord layer sees them: opens their lobbies, lets players leave and
    hosts cancel a party, also once it runs, and reads a party; the lobby's seats are the
    seating lobby's (``seating``), the rounds once it runs :class:`PartyRounds`'."""

    def __init__(self, rounds: PartyRounds, notifier: Notifier, matches: MatchSeats) -> None:
        self.rounds = rounds
        self.notifier = notifier
        self.matches = matches
        self.seating: SeatingLobby[PartySnapshot, PartyPlayer] = SeatingLobby(PartyBook(rounds, notifier))

    async def open(
        self, *, guild_id: int, channel_id: int, host_id: int, host_name: str, game_id: str
    ) -> PartySnapshot:
        game = GAMES.get(game_id)
        if game is None:
            raise errors.LobbyError(f"There is no game called {game_id!r}.")
        if game.parties is None:
            raise errors.LobbyError(
                f"{game.name} cannot be played as a party: its matches give no totals to add up."
            )
        options = {option.key: option.default_value for option in game.options} | dict(game.parties.options)
        try:
            record = await self.rounds.party_store.create(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game_id=game_id,
                options=options,
                tables=DEFAULT_TABLES,
                rounds=DEFAULT_ROUNDS,
                players=[PartyPlayer(host_id, host_name)],
                seed=secrets.randbits(62),
            )
        except PartyBusy as busy:
            raise errors.LobbyError(
                f"This channel already has a party (#{busy.party_id}); finish or cancel it first."
            ) from None
        log.info("party %s: lobby for %s opened in channel %s", record.id, game_id, channel_id)
        return PartySnapshot(record, game)

    async def get(self, party_id: int) -> PartySnapshot:
        return await self.rounds.get_party(party_id)

    async def in_channel(self, channel_id: int) -> PartySnapshot | None:
        """The party of this channel that is not over (in its lobby or running)."""
        return await self.rounds.party_in_channel(channel_id)

    async def of_match(self, match_id: int) -> int | None:
        """The party a match is a table of, if any."""
        return await self.rounds.party_of_match(match_id)

    async def stats(self, guild_id: int, user_id: int) -> PartyStats:
        return await self.rounds.party_stats(guild_id, user_id)

    async def set_message(self, party_id: int, message_id: int | None) -> None:
        await self.rounds.set_party_message(party_id, message_id)

    async def leave(self, party_id: int, user_id: int) -> PartySnapshot:
        """Leave a party: from its lobby, the place goes (the next person hosts, or the lobby
        closes); in a running party, the AI plays the seat at the table of this round and
        of the rounds to come, and the player is ranked last."""
        running_match: int | None = None
        async with self.rounds.lock(party_id):
            party = await self.rounds.get_party(party_id)
            me = party.player_of(user_id)
            if me is None or party.players[me].left:
                raise errors.NotSeated(PARTY_WORDS.not_in)
            if party.status == MatchStatus.LOBBY:
                party, _sentence = await self.seating.drop(party, me, "left")
            elif party.status == MatchStatus.RUNNING:
                players = tuple(
                    replace(player, left=True) if index == me else player
                    for index, player in enumerate(party.players)
                )
                for table in party.round_tables():
                    if me in table.seating and table.results is None:
                        running_match = table.match_id
                party = await self.rounds.change(party, PartyChange(players=players))
            else:
                raise errors.NotRunning("This party is over.")
        if running_match is not None:
            try:
                await self.matches.leave_match(running_match, user_id)
            except errors.ServiceError:
                pass  # the table ended meanwhile, or the seat was already the AI's
        self.notifier.tell_party(party)
        return party

    async def cancel(self, party_id: int, user_id: int, *, is_admin: bool) -> PartySnapshot:
        """End a party (host or Manage Server): its running matches are cancelled."""
        async with self.rounds.lock(party_id):
            party = await self.rounds.get_party(party_id)
            if party.status.over:
                raise errors.NotRunning("This party has already ended.")
            if user_id != party.record.host_id and not is_admin:
                raise errors.NotHost("cancel the party (or someone with Manage Server)")
            party = await self.rounds.change(party, PartyChange(status=MatchStatus.ABANDONED))
            matches = [table.match_id for table in party.round_tables() if table.match_id is not None]
            log.info("party %s: cancelled by %s", party_id, user_id)
        for match_id in matches:
            self.rounds.forget_table(match_id)
            try:
                await self.matches.cancel(match_id, party.record.host_id, is_admin=True)
            except errors.NotRunning:
                pass  # that table had finished
        self.notifier.tell_party(party)
        return party
