"""Parties: several tables at once, winners moving on (dynasty's "bridge party", for any game
whose outcome gives every seat a total).

A party is a lobby of players plus a series of ordinary matches: each round seats the
players at tables (:mod:`bot.service.seating`), every table's match plays in a channel of
its own (the Discord layer opens a thread), and when every table of the round is over the
winners move and the next round starts by itself. Everything is stored (the party, every
table of every round with its seating, match and results), so a restart loses nothing:
:meth:`PartyMixin._restore_parties` opens what was not opened and advances a round whose
matches all ended while the bot was down.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass, replace

from bot.games import GAMES
from bot.games.base import Event, Game, GameError
from bot.service import errors, seating
from bot.service.lobby import LobbyMixin
from bot.service.seating import AI_FILL, SeatingError, Standing, TableResult
from bot.service.snapshot import PartyListener, Snapshot
from db import repository as repo_mod
from db.parties import (
    PartyBusy,
    PartyChange,
    PartyPlayer,
    PartyRecord,
    PartyStats,
    PartyTableRecord,
    SeatOutcome,
)
from db.records import MatchStatus, Seat

log = logging.getLogger(__name__)

TABLE_CHOICES = (("2", "2 tables"), ("3", "3 tables"), ("4", "4 tables"))
ROUND_CHOICES = (("1", "1 round"), ("2", "2 rounds"), ("3", "3 rounds"), ("4", "4 rounds"), ("5", "5 rounds"))
DEFAULT_TABLES = 2
DEFAULT_ROUNDS = 3
PARTY_KEYS = ("tables", "rounds")  # the party's own options; the others are the matches'


@dataclass(frozen=True, slots=True)
class PartySnapshot:
    """A party as the service hands it out: the record, its game and every table so far."""

    record: PartyRecord
    game: Game
    tables: tuple[PartyTableRecord, ...] = ()

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def status(self) -> MatchStatus:
        return MatchStatus(self.record.status)

    @property
    def players(self) -> tuple[PartyPlayer, ...]:
        return self.record.players

    def player_of(self, user_id: int) -> int | None:
        for i, p in enumerate(self.record.players):
            if p.user_id == user_id and not p.ai:
                return i
        return None

    def round_tables(self, round_no: int | None = None) -> list[PartyTableRecord]:
        wanted = self.record.round if round_no is None else round_no
        return [t for t in self.tables if t.round == wanted]

    def standings(self) -> list[Standing]:
        """Every player's party score, best first (see :func:`seating.standings`)."""
        per_round: list[dict[int, int | None]] = []
        for round_no in range(1, self.record.round + 1):
            scores: dict[int, int | None] = {}
            for table in self.round_tables(round_no):
                for r in table.results or ():
                    if r.player != AI_FILL:
                        scores[r.player] = r.score
            per_round.append(scores)
        players = self.record.players
        return seating.standings(
            len(players), per_round, left=[p.left for p in players], ai=[p.ai for p in players],
            low_score_wins=self.game.low_score_wins,
        )

    def winner(self) -> int | None:
        """The party winner, once the party is over."""
        if self.status != MatchStatus.FINISHED:
            return None
        return seating.party_winner(self.standings())

    @property
    def partners(self) -> bool:
        return self.record.options.get("partners") == "on"


class PartyMixin(LobbyMixin):
    """Party lobbies, rounds, standings and restore (see the module docstring)."""

    # --- plumbing ---------------------------------------------------------------------

    def add_party_listener(self, listener: PartyListener) -> None:
        self.party_listeners.append(listener)

    async def get_party(self, party_id: int) -> PartySnapshot:
        record = await self.party_store.get(party_id)
        if record is None:
            raise errors.LobbyError("That party no longer exists.")
        return PartySnapshot(record, GAMES[record.game_id], tuple(await self.party_store.tables(party_id)))

    async def party_in_channel(self, channel_id: int) -> PartySnapshot | None:
        record = await self.party_store.active_in_channel(channel_id)
        return None if record is None else await self.get_party(record.id)

    async def party_of_match(self, match_id: int) -> int | None:
        """The party whose table this match is, if any."""
        table = await self.party_store.table_of_match(match_id)
        return None if table is None else table.party_id

    async def party_stats(self, guild_id: int, user_id: int) -> PartyStats:
        return await self.party_store.stats(guild_id, user_id)

    async def _notify_party(self, party: PartySnapshot) -> None:
        for listener in list(self.party_listeners):
            self._background(listener.party_changed(party), -party.id)

    async def set_party_message(self, party_id: int, message_id: int | None) -> None:
        await self.party_store.set_message(party_id, message_id)

    async def _party_change(self, party: PartySnapshot, change: PartyChange) -> PartySnapshot:
        try:
            record = await self.party_store.change(party.record, change)
        except repo_mod.StaleVersion:
            raise errors.StaleVersion() from None
        return PartySnapshot(record, party.game, tuple(await self.party_store.tables(party.id)))

    # --- the lobby --------------------------------------------------------------------

    async def open_party(
        self, *, guild_id: int, channel_id: int, host_id: int, host_name: str, game_id: str
    ) -> PartySnapshot:
        game = GAMES.get(game_id)
        if game is None:
            raise errors.LobbyError(f"There is no game called {game_id!r}.")
        if game.party_options is None:
            raise errors.LobbyError(f"{game.name} cannot be played as a party: its matches give no totals to add up.")
        options = {o.key: o.default_value for o in game.options} | dict(game.party_options)
        try:
            record = await self.party_store.create(
                guild_id=guild_id, channel_id=channel_id, host_id=host_id, game_id=game_id, options=options,
                tables=DEFAULT_TABLES, rounds=DEFAULT_ROUNDS, players=[PartyPlayer(host_id, host_name)],
                seed=secrets.randbits(62),
            )
        except PartyBusy as busy:
            raise errors.LobbyError(f"This channel already has a party (#{busy.party_id}); finish or cancel it first.") from None
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
            party = await self._party_change(party, PartyChange(players=(*party.players, PartyPlayer(user_id, name))))
        await self._notify_party(party)
        return party

    async def party_add_ai(self, party_id: int, user_id: int) -> PartySnapshot:
        async with self.party_lock(party_id):
            party = await self._party_lobby(party_id)
            if user_id != party.record.host_id:
                raise errors.NotHost("add AI players")
            if len(party.players) >= seating.MAX_PLAYERS:
                raise errors.LobbyError(f"This party is full ({seating.MAX_PLAYERS} players).")
            n = 1 + sum(1 for p in party.players if p.ai)
            party = await self._party_change(party, PartyChange(players=(*party.players, PartyPlayer(None, f"AI {n}", ai=True))))
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
                    count, tables, game_min=party.game.min_players, game_max=party.game.max_players,
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
                    status=MatchStatus.RUNNING, round=1,
                    new_tables=[(1, t, table) for t, table in enumerate(first)],
                ),
            )
            log.info("party %s: started, %d players at %d tables", party_id, count, tables)
            party = await self._open_round(party)
        await self._notify_party(party)
        return party

    # --- rounds -----------------------------------------------------------------------

    def _table_seats(self, party: PartySnapshot, table: PartyTableRecord) -> list[Seat]:
        seats: list[Seat] = []
        fill = 0
        for player in table.seating:
            if player == AI_FILL:
                fill += 1
                seats.append(Seat(None, f"AI {fill}", ai=True))
                continue
            p = party.players[player]
            if p.ai:
                seats.append(Seat(None, p.name, ai=True))
            elif p.left:
                seats.append(Seat(None, f"AI for {p.name}", ai=True))
            else:
                seats.append(Seat(p.user_id, p.name))
        return seats

    async def _open_round(self, party: PartySnapshot) -> PartySnapshot:
        """Open and start every table of the current round that is not yet playing (a
        restart may find some opened and some not). Party lock held."""
        if self.table_channels is None:
            raise errors.LobbyError("Parties need a place to seat their tables; none is set up.")
        started: list[Snapshot] = []
        for table in party.round_tables():
            if table.results is not None:
                continue
            match_id = table.match_id
            if match_id is None:
                channel_id = table.channel_id
                if channel_id is None:
                    channel_id = await self.table_channels.table_channel(party, table.round, table.table_no)
                    await self.party_store.set_channel(table.id, channel_id)
                record = await self.repo.create_match(
                    guild_id=party.record.guild_id, channel_id=channel_id, host_id=party.record.host_id,
                    game_id=party.game.id, options=dict(party.record.options),
                    seats=self._table_seats(party, table), seed=secrets.randbits(62),
                )
                match_id = record.id
                await self.party_store.set_match(table.id, match_id)
                log.info("party %s: round %d table %d is match %s", party.id, table.round, table.table_no + 1, match_id)
            self._party_of_match[match_id] = party.id
            async with self.lock(match_id):
                snap = await self.get(match_id)
                if snap.status == MatchStatus.LOBBY:
                    started.append(await self._begin(snap))
        for snap in started:
            await self._after_change(snap, [Event(f"Party round {party.record.round}: the match begins.")])
        return await self.get_party(party.id)

    async def _party_table_over(self, snap: Snapshot) -> None:
        """A party table's match ended: keep its results; advance the party if the round is done."""
        party_id = self._party_of_match.get(snap.id)
        if party_id is None:
            return
        async with self.party_lock(party_id):
            party = await self._record_table(party_id, snap.id)
            if party is not None:
                party = await self._advance(party)
        if party is not None:
            await self._notify_party(party)

    async def _record_table(self, party_id: int, match_id: int) -> PartySnapshot | None:
        """Store the seats' results of a party table whose match is over. Party lock held."""
        table = await self.party_store.table_of_match(match_id)
        snap = await self.get(match_id)
        if table is None or not snap.status.over:
            return None
        self._party_of_match.pop(match_id, None)
        if table.results is None:
            outcome = snap.game.outcome(snap.state) if snap.state is not None else None
            places = {r.seat: r for r in outcome.results} if outcome is not None else {}
            results = []
            for seat, player in enumerate(table.seating):
                found = places.get(seat)
                results.append(
                    SeatOutcome(
                        player,
                        found.place if found else len(table.seating),
                        found.score if found else None,
                        snap.seats[seat].left,
                    )
                )
            await self.party_store.set_results(table.id, results)
        return await self.get_party(party_id)

    async def _advance(self, party: PartySnapshot) -> PartySnapshot:
        """When every table of the round is over: the next round, or the party's end. Party lock held."""
        if party.status != MatchStatus.RUNNING:
            return party
        tables = party.round_tables()
        if not tables or any(t.results is None for t in tables):
            return party
        # People who left a table of this round are out of the party (ranked last).
        gone = {r.player for t in tables for r in t.results or () if r.left and r.player != AI_FILL}
        players = tuple(replace(p, left=True) if i in gone and not p.ai else p for i, p in enumerate(party.players))
        if party.record.round >= party.record.rounds:
            ended = PartySnapshot(replace(party.record, players=players, status=MatchStatus.FINISHED), party.game, party.tables)
            lines = ended.standings()
            winner = seating.party_winner(lines)
            results = [
                (user_id, place, line.total, line.player == winner, line.left)
                for place, line in enumerate(lines, start=1)
                if (user_id := players[line.player].user_id) is not None and not players[line.player].ai
            ]
            party = await self._party_change(party, PartyChange(players=players, status=MatchStatus.FINISHED, results=results))
            log.info("party %s: finished", party.id)
            return party
        winners = [
            seating.table_winner(
                [TableResult(r.player, r.place, r.score) for r in t.results or ()],
                low_score_wins=party.game.low_score_wins,
            )
            for t in tables
        ]
        rng = random.Random(party.record.seed + party.record.round)
        following = seating.next_seating(
            [list(t.seating) for t in tables], winners, rng, partners=party.partners, game_min=party.game.min_players
        )
        next_round = party.record.round + 1
        party = await self._party_change(
            party,
            PartyChange(players=players, round=next_round, new_tables=[(next_round, t, s) for t, s in enumerate(following)]),
        )
        log.info("party %s: round %d begins", party.id, next_round)
        return await self._open_round(party)

    # --- restart ------------------------------------------------------------------------

    async def _remember_parties(self) -> list[PartyRecord]:
        """Which running matches are party tables (before the matches are woken)."""
        records = [r for r in await self.party_store.active() if self.runs_guild(r.guild_id)]
        for record in records:
            if record.status != MatchStatus.RUNNING:
                continue
            for table in await self.party_store.tables(record.id, record.round):
                if table.match_id is not None and table.results is None:
                    self._party_of_match[table.match_id] = record.id
        return records

    async def _restore_parties(self, records: list[PartyRecord]) -> None:
        """Go on with every open party: keep results of tables that ended while the bot was
        down, open the tables not yet opened, advance a round that is done."""
        for record in records:
            try:
                async with self.party_lock(record.id):
                    party = await self.get_party(record.id)
                    if party.status == MatchStatus.RUNNING:
                        for table in party.round_tables():
                            if table.match_id is not None and table.results is None:
                                await self._record_table(party.id, table.match_id)
                        party = await self.get_party(party.id)
                        party = await self._open_round(party)
                        party = await self._advance(party)
                await self._notify_party(party)
            except Exception:  # one broken party must not keep the others from going on
                log.exception("party %s: could not be restored", record.id)
        log.info("restored %d open parties", len(records))
