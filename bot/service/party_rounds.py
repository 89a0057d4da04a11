"""A running party: each round's tables opened and started, their results kept, the next
round seated (winners moving on) or the party ended, and all of it taken up again after a
restart. The lobby that starts a party is :mod:`bot.service.parties`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import weakref
from collections.abc import Callable
from dataclasses import replace

from bot.games import GAMES
from bot.games.base import Event
from bot.service import errors, seating
from bot.service.flow import MatchFlow
from bot.service.notifier import Notifier
from bot.service.seating import AI_FILL, TableResult
from bot.service.snapshot import PartySnapshot, Snapshot, TableChannels
from bot.service.store import MatchStore, lock_in
from db import repository as repo_mod
from db.parties import PartyChange, PartyRecord, PartyStats, PartyStore, PartyTableRecord, SeatOutcome
from db.records import MatchStatus, Seat

log = logging.getLogger(__name__)


class PartyRounds:
    """Owns the parties' records (their store), their locks, which running match is whose
    table and where tables are seated: reading and changing a party, its rounds, and its
    restore (see the module docstring)."""

    def __init__(
        self,
        store: MatchStore,
        notifier: Notifier,
        flow: MatchFlow,
        runs_guild: Callable[[int], bool],
    ) -> None:
        self.store = store
        self.notifier = notifier
        self.flow = flow
        self.runs_guild = runs_guild
        self.party_store = PartyStore(store.repo)
        # Who opens a table's channel (the Discord layer makes a thread); set once it exists.
        self.table_channels: TableChannels | None = None
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.party_of: dict[int, int] = {}  # running match -> the party whose table it is

    def lock(self, party_id: int) -> asyncio.Lock:
        """A party's lock, kept (like a match's) only while someone holds or waits for it."""
        return lock_in(self.locks, party_id)

    async def party_of_match(self, match_id: int) -> int | None:
        """The party whose table ``match_id`` is, if it is one."""
        party_id = self.party_of.get(match_id)
        if party_id is not None:
            return party_id
        table = await self.party_store.table_of_match(match_id)
        return None if table is None else table.party_id

    def forget_table(self, match_id: int) -> None:
        """The match is no table any more (its party was cancelled)."""
        self.party_of.pop(match_id, None)

    async def get_party(self, party_id: int) -> PartySnapshot:
        record = await self.party_store.get(party_id)
        if record is None:
            raise errors.LobbyError("That party no longer exists.")
        return PartySnapshot(record, GAMES[record.game_id], tuple(await self.party_store.tables(party_id)))

    async def party_in_channel(self, channel_id: int) -> PartySnapshot | None:
        record = await self.party_store.active_in_channel(channel_id)
        return None if record is None else await self.get_party(record.id)

    async def party_stats(self, guild_id: int, user_id: int) -> PartyStats:
        return await self.party_store.stats(guild_id, user_id)

    async def set_party_message(self, party_id: int, message_id: int | None) -> None:
        await self.party_store.set_message(party_id, message_id)

    async def change(self, party: PartySnapshot, change: PartyChange) -> PartySnapshot:
        try:
            record = await self.party_store.change(party.record, change)
        except repo_mod.StaleVersion:
            raise errors.StaleVersion() from None
        return PartySnapshot(record, party.game, tuple(await self.party_store.tables(party.id)))

    # --- rounds -----------------------------------------------------------------------

    def _table_seats(self, party: PartySnapshot, table: PartyTableRecord) -> list[Seat]:
        seats: list[Seat] = []
        fills = iter(party.fill_names(table))  # named after the party's own AI players
        for player in table.seating:
            if player == AI_FILL:
                seats.append(Seat(None, next(fills), ai=True))
                continue
            p = party.players[player]
            if p.ai:
                seats.append(Seat(None, p.name, ai=True, level=p.level))
            elif p.left:
                seats.append(Seat(None, f"AI for {p.name}", ai=True))
            else:
                seats.append(Seat(p.user_id, p.name))
        return seats

    async def open_round(self, party: PartySnapshot) -> PartySnapshot:
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
                record = await self.store.repo.create_match(
                    guild_id=party.record.guild_id,
                    channel_id=channel_id,
                    host_id=party.record.host_id,
                    game_id=party.game.id,
                    options=dict(party.record.options),
                    seats=self._table_seats(party, table),
                    seed=secrets.randbits(62),
                )
                match_id = record.id
                await self.party_store.set_match(table.id, match_id)
                log.info(
                    "party %s: round %d table %d is match %s",
                    party.id,
                    table.round,
                    table.table_no + 1,
                    match_id,
                )
            self.party_of[match_id] = party.id
            async with self.store.lock(match_id):
                snap = await self.store.get(match_id)
                if snap.status == MatchStatus.LOBBY:
                    started.append(await self.store.deal(snap))
        for snap in started:
            await self.flow.after_change(
                snap, [Event(f"Party round {party.record.round}: the match begins.")]
            )
        return await self.get_party(party.id)

    def watches(self, match_id: int) -> bool:
        """Whether the match is a running party table (its end is awaited)."""
        return match_id in self.party_of

    async def match_over(self, snap: Snapshot) -> None:
        """A party table's match ended: keep its results; advance the party if the round is done."""
        party_id = self.party_of.get(snap.id)
        if party_id is None:
            return
        async with self.lock(party_id):
            party = await self._record_table(party_id, snap.id)
            if party is not None:
                party = await self._advance(party)
        if party is not None:
            self.notifier.tell_party(party)

    async def _record_table(self, party_id: int, match_id: int) -> PartySnapshot | None:
        """Store the seats' results of a party table whose match is over. Party lock held."""
        table = await self.party_store.table_of_match(match_id)
        snap = await self.store.get(match_id)
        if table is None or not snap.status.over:
            return None
        self.party_of.pop(match_id, None)
        if table.results is None:
            outcome = snap.game.outcome(snap.state) if snap.state is not None else None
            places = {r.seat: r for r in snap.standings(outcome)} if outcome is not None else {}
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
        players = tuple(
            replace(p, left=True) if i in gone and not p.ai else p for i, p in enumerate(party.players)
        )
        if party.record.round >= party.record.rounds:
            ended = PartySnapshot(
                replace(party.record, players=players, status=MatchStatus.FINISHED), party.game, party.tables
            )
            lines = ended.standings()
            spots = ended.places()  # ties share a place, and a tie for first shares the win
            results = [
                (user_id, place, line.total, place == 1 and not line.left, line.left)
                for line in lines
                if (user_id := players[line.player].user_id) is not None and not players[line.player].ai
                for place in (spots.get(line.player, len(spots) + 1),)
            ]
            party = await self.change(
                party, PartyChange(players=players, status=MatchStatus.FINISHED, results=results)
            )
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
            [list(t.seating) for t in tables],
            winners,
            rng,
            partners=party.partners,
            game_min=party.game.min_players,
        )
        next_round = party.record.round + 1
        party = await self.change(
            party,
            PartyChange(
                players=players,
                round=next_round,
                new_tables=[(next_round, t, s) for t, s in enumerate(following)],
            ),
        )
        log.info("party %s: round %d begins", party.id, next_round)
        return await self.open_round(party)

    # --- restart ------------------------------------------------------------------------

    async def remember_parties(self) -> list[PartyRecord]:
        """Which running matches are party tables (before the matches are woken)."""
        records = [r for r in await self.party_store.active() if self.runs_guild(r.guild_id)]
        for record in records:
            if record.status != MatchStatus.RUNNING:
                continue
            for table in await self.party_store.tables(record.id, record.round):
                if table.match_id is not None and table.results is None:
                    self.party_of[table.match_id] = record.id
        return records

    async def restore_parties(self, records: list[PartyRecord]) -> None:
        """Go on with every open party: keep results of tables that ended while the bot was
        down, open the tables not yet opened, advance a round that is done."""
        for record in records:
            try:
                async with self.lock(record.id):
                    party = await self.get_party(record.id)
                    if party.status == MatchStatus.RUNNING:
                        for table in party.round_tables():
                            if table.match_id is not None and table.results is None:
                                await self._record_table(party.id, table.match_id)
                        party = await self.get_party(party.id)
                        party = await self.open_round(party)
                        party = await self._advance(party)
                self.notifier.tell_party(party)
            except Exception:  # one broken party must not keep the others from going on
                log.exception("party %s: could not be restored", record.id)
        log.info("restored %d open parties", len(records))
