"""Parties: several tables at once, winners moving on (dynasty's "bridge party", for any game
whose outcome gives every seat a total).

A party is a lobby of players plus a series of ordinary matches: each round seats the
players at tables (:mod:`bot.service.seating`), every table's match plays in a channel of
its own (the Discord layer opens a thread), and when every table of the round is over the
winners move and the next round starts by itself. Everything is stored (the party, every
table of every round with its seating, match and results), so a restart loses nothing:
:meth:`PartyRounds._restore_parties` opens what was not opened and advances a round whose
matches all ended while the bot was down.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import replace

from bot.games import GAMES
from bot.games.base import GameError
from bot.service import errors, seating
from bot.service.party_rounds import PartyRounds
from bot.service.seating import SeatingError
from bot.service.snapshot import PartySnapshot
from db.parties import PartyBusy, PartyChange, PartyPlayer
from db.records import MatchStatus

log = logging.getLogger(__name__)

TABLE_CHOICES = (("2", "2 tables"), ("3", "3 tables"), ("4", "4 tables"))
ROUND_CHOICES = (("1", "1 round"), ("2", "2 rounds"), ("3", "3 rounds"), ("4", "4 rounds"), ("5", "5 rounds"))
DEFAULT_TABLES = 2
DEFAULT_ROUNDS = 3
PARTY_KEYS = ("tables", "rounds")  # the party's own options; the others are the matches'


class PartyMixin(PartyRounds):
    """Party lobbies: opening, joining, options, leaving, cancelling and starting; the rounds
    that follow are :class:`PartyRounds`'."""

    # --- the lobby --------------------------------------------------------------------

    async def open_party(
        self, *, guild_id: int, channel_id: int, host_id: int, host_name: str, game_id: str
    ) -> PartySnapshot:
        game = GAMES.get(game_id)
        if game is None:
            raise errors.LobbyError(f"There is no game called {game_id!r}.")
        if game.parties is None:
            raise errors.LobbyError(
                f"{game.name} cannot be played as a party: its matches give no totals to add up."
            )
        options = {o.key: o.default_value for o in game.options} | dict(game.parties.options)
        try:
            record = await self.party_store.create(
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

    async def _party_lobby(self, party_id: int) -> PartySnapshot:
        party = await self.get_party(party_id)
        if party.status != MatchStatus.LOBBY:
            raise errors.LobbyError("This party has already started or ended.")
        return party

    async def party_join(self, party_id: int, user_id: int, name: str) -> PartySnapshot:
        async with self.party_lock(party_id):
            party = await self._party_lobby(party_id)
            if party.player_of(user_id) is not None:
                raise errors.LobbyError("You are already in this party.")
            if len(party.players) >= seating.MAX_PLAYERS:
                raise errors.LobbyError(f"This party is full ({seating.MAX_PLAYERS} players).")
            party = await self._party_change(
                party, PartyChange(players=(*party.players, PartyPlayer(user_id, name)))
            )
        await self._notify_party(party)
        return party

    async def party_add_ai(self, party_id: int, user_id: int, level: str = "normal") -> PartySnapshot:
        """An AI player playing at ``level`` (easy, normal or hard, as a match's AI seat) at
        every table it is seated at."""
        self._check_level(level)
        async with self.party_lock(party_id):
            party = await self._party_lobby(party_id)
            if user_id != party.record.host_id:
                raise errors.NotHost("add AI players")
            if len(party.players) >= seating.MAX_PLAYERS:
                raise errors.LobbyError(f"This party is full ({seating.MAX_PLAYERS} players).")
            n = 1 + sum(1 for p in party.players if p.ai)
            player = PartyPlayer(None, f"AI {n}", ai=True, level=level)
            party = await self._party_change(party, PartyChange(players=(*party.players, player)))
        await self._notify_party(party)
        return party

    async def party_remove_ai(self, party_id: int, user_id: int) -> PartySnapshot:
        async with self.party_lock(party_id):
            party = await self._party_lobby(party_id)
            if user_id != party.record.host_id:
                raise errors.NotHost("remove AI players")
            ais = [i for i, p in enumerate(party.players) if p.ai]
            if not ais:
                raise errors.LobbyError("There is no AI player to remove.")
            players = party.players[: ais[-1]] + party.players[ais[-1] + 1 :]
            party = await self._party_change(party, PartyChange(players=players))
        await self._notify_party(party)
        return party

    async def party_set_option(self, party_id: int, user_id: int, key: str, value: str) -> PartySnapshot:
        async with self.party_lock(party_id):
            party = await self._party_lobby(party_id)
            if user_id != party.record.host_id:
                raise errors.NotHost("change the options")
            if key == "tables":
                if value not in dict(TABLE_CHOICES):
                    raise errors.LobbyError(f"{value!r} is not a choice for Tables.")
                change = PartyChange(tables=int(value))
            elif key == "rounds":
                if value not in dict(ROUND_CHOICES):
                    raise errors.LobbyError(f"{value!r} is not a choice for Rounds.")
                change = PartyChange(rounds=int(value))
            else:
                self._check_option(party.game, key, value)
                change = PartyChange(options={**party.record.options, key: value})
            party = await self._party_change(party, change)
        await self._notify_party(party)
        return party

    async def party_leave(self, party_id: int, user_id: int) -> PartySnapshot:
        """Leave a party: from its lobby, the place goes (the next person hosts, or the lobby
        closes); in a running party, the AI plays the seat at the table of this round and
        of the rounds to come, and the player is ranked last."""
        running_match: int | None = None
        async with self.party_lock(party_id):
            party = await self.get_party(party_id)
            me = party.player_of(user_id)
            if me is None or party.players[me].left:
                raise errors.NotSeated("You are not in this party.")
            if party.status == MatchStatus.LOBBY:
                players = party.players[:me] + party.players[me + 1 :]
                people = [p for p in players if not p.ai]
                if not people:
                    change = PartyChange(players=players, status=MatchStatus.ABANDONED)
                elif user_id == party.record.host_id:
                    change = PartyChange(players=players, host_id=people[0].user_id)
                else:
                    change = PartyChange(players=players)
            elif party.status == MatchStatus.RUNNING:
                players = tuple(replace(p, left=True) if i == me else p for i, p in enumerate(party.players))
                change = PartyChange(players=players)
                for table in party.round_tables():
                    if me in table.seating and table.results is None:
                        running_match = table.match_id
            else:
                raise errors.NotRunning("This party is over.")
            party = await self._party_change(party, change)
        if running_match is not None:
            try:
                await self.leave_match(running_match, user_id)
            except errors.ServiceError:
                pass  # the table ended meanwhile, or the seat was already the AI's
        await self._notify_party(party)
        return party

    async def party_cancel(self, party_id: int, user_id: int, *, is_admin: bool) -> PartySnapshot:
        """End a party (host or Manage Server): its running matches are cancelled."""
        async with self.party_lock(party_id):
            party = await self.get_party(party_id)
            if party.status.over:
                raise errors.NotRunning("This party has already ended.")
            if user_id != party.record.host_id and not is_admin:
                raise errors.NotHost("cancel the party (or someone with Manage Server)")
            party = await self._party_change(party, PartyChange(status=MatchStatus.ABANDONED))
            matches = [t.match_id for t in party.round_tables() if t.match_id is not None]
            log.info("party %s: cancelled by %s", party_id, user_id)
        for match_id in matches:
            self._party_of_match.pop(match_id, None)
            try:
                await self.cancel(match_id, party.record.host_id, is_admin=True)
            except errors.NotRunning:
                pass  # that table had finished
        await self._notify_party(party)
        return party

    async def party_start(self, party_id: int, user_id: int) -> PartySnapshot:
        async with self.party_lock(party_id):
            party = await self._party_lobby(party_id)
            if user_id != party.record.host_id:
                raise errors.NotHost("start the party")
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
                    party.game.check_players(len(table), party.record.options)
                except GameError as err:
                    raise errors.LobbyError(f"A table of {len(table)}: {err}") from None
            party = await self._party_change(
                party,
                PartyChange(
                    status=MatchStatus.RUNNING,
                    round=1,
                    new_tables=[(1, t, table) for t, table in enumerate(first)],
                ),
            )
            log.info("party %s: started, %d players at %d tables", party_id, count, tables)
            party = await self._open_round(party)
        await self._notify_party(party)
        return party
