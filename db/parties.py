"""Every SQL statement of parties, and the plain records they return.

Reads run on the reader pool, writes through :meth:`db.repository.Repository.write` (one
transaction each). A party's record carries a version: every change is ``WHERE version = ?``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Integer, Table, func, insert, select, update
from sqlalchemy.engine import Connection

from db.models import Party, PartyResult, PartyTable
from db.records import MatchStatus
from db.repository import Repository, StaleVersion, dump_json, load_json

T = TypeVar("T")

party_table: Table = Party.__table__  # type: ignore[attr-defined]
party_tables_table: Table = PartyTable.__table__  # type: ignore[attr-defined]
party_results_table: Table = PartyResult.__table__  # type: ignore[attr-defined]
PT, TT, PR = party_table.c, party_tables_table.c, party_results_table.c
ACTIVE = (MatchStatus.LOBBY, MatchStatus.RUNNING)


class PartyBusy(Exception):
    """The channel already has an open party."""

    def __init__(self, party_id: int) -> None:
        super().__init__(party_id)
        self.party_id = party_id


@dataclass(frozen=True, slots=True)
class PartyPlayer:
    user_id: int | None  # None for an AI player
    name: str
    ai: bool = False
    left: bool = False
    level: str = "normal"  # an AI player's level (bot.games.search.LEVELS); parties stored before it: normal

    def to_json(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "name": self.name,
            "ai": self.ai,
            "left": self.left,
            "level": self.level,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> PartyPlayer:
        return PartyPlayer(
            d.get("user_id"), d["name"], bool(d.get("ai")), bool(d.get("left")), d.get("level", "normal")
        )


@dataclass(frozen=True, slots=True)
class PartyRecord:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game_id: str
    options: dict[str, str]
    tables: int
    rounds: int
    round: int
    status: MatchStatus
    players: tuple[PartyPlayer, ...]
    seed: int
    version: int
    created_at: float
    finished_at: float | None = None


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat's result at a party table: the party player (-1: AI fill), place, total."""

    player: int
    place: int
    score: int | None
    left: bool = False

    def to_json(self) -> list[Any]:
        return [self.player, self.place, self.score, self.left]

    @staticmethod
    def from_json(d: list[Any]) -> SeatOutcome:
        return SeatOutcome(int(d[0]), int(d[1]), None if d[2] is None else int(d[2]), bool(d[3]))


@dataclass(frozen=True, slots=True)
class PartyTableRecord:
    id: int
    party_id: int
    round: int
    table_no: int
    seating: tuple[int, ...]
    match_id: int | None
    results: tuple[SeatOutcome, ...] | None  # None until the table's match is over
    channel_id: int | None = None  # the thread it plays in, stored before its match is created


@dataclass(frozen=True, slots=True)
class PartyChange:
    """What one party write changes (besides the version): only the fields given."""

    players: Sequence[PartyPlayer] | None = None
    options: dict[str, str] | None = None
    tables: int | None = None
    rounds: int | None = None
    round: int | None = None
    status: MatchStatus | None = None
    host_id: int | None = None
    new_tables: Sequence[tuple[int, int, Sequence[int]]] = field(
        default_factory=tuple
    )  # (round, table, seating)
    results: Sequence[tuple[int, int, int, bool, bool]] = field(
        default_factory=tuple
    )  # (user, place, score, won, left)


@dataclass(frozen=True, slots=True)
class PartyStats:
    played: int
    won: int


def _party(row: Any) -> PartyRecord:
    return PartyRecord(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        host_id=row.host_id,
        game_id=row.game_id,
        options=load_json(row.options),
        tables=row.tables,
        rounds=row.rounds,
        round=row.round,
        status=MatchStatus(row.status),
        players=tuple(PartyPlayer.from_json(p) for p in load_json(row.players)),
        seed=row.seed,
        version=row.version,
        created_at=row.created_at,
        finished_at=row.finished_at,
    )


def _table(row: Any) -> PartyTableRecord:
    return PartyTableRecord(
        id=row.id,
        party_id=row.party_id,
        round=row.round,
        table_no=row.table_no,
        seating=tuple(load_json(row.seating)),
        match_id=row.match_id,
        channel_id=row.channel_id,
        results=None
        if row.results is None
        else tuple(SeatOutcome.from_json(r) for r in load_json(row.results)),
    )


# --- the SQL, as synchronous functions of one connection ------------------------------------


def _create(conn: Connection, values: dict[str, Any]) -> PartyRecord:
    busy = conn.execute(
        select(PT.id).where(PT.channel_id == values["channel_id"], PT.status.in_(ACTIVE)).limit(1)
    ).scalar()
    if busy is not None:
        raise PartyBusy(int(busy))
    key = conn.execute(insert(party_table).values(**values)).inserted_primary_key
    assert key is not None
    return _get(conn, int(key[0]))


def _get(conn: Connection, party_id: int) -> PartyRecord:
    row = conn.execute(select(party_table).where(PT.id == party_id)).first()
    if row is None:
        raise KeyError(party_id)
    return _party(row)


def _change(conn: Connection, party_id: int, version: int, change: PartyChange, guild_id: int) -> PartyRecord:
    now = time.time()
    values: dict[str, Any] = {"version": PT.version + 1, "updated_at": now}
    if change.players is not None:
        values["players"] = dump_json([p.to_json() for p in change.players])
    if change.options is not None:
        values["options"] = dump_json(change.options)
    for name in ("tables", "rounds", "round", "status", "host_id"):
        value = getattr(change, name)
        if value is not None:
            values[name] = value
    if change.status is not None and change.status.over:
        values["finished_at"] = now
    done = conn.execute(update(party_table).where(PT.id == party_id, PT.version == version).values(**values))
    if done.rowcount != 1:
        raise StaleVersion(party_id)
    for round_no, table_no, seating in change.new_tables:
        conn.execute(
            insert(party_tables_table).values(
                party_id=party_id, round=round_no, table_no=table_no, seating=dump_json(list(seating))
            )
        )
    if change.results:
        conn.execute(
            insert(party_results_table),
            [
                {
                    "party_id": party_id,
                    "guild_id": guild_id,
                    "user_id": user,
                    "place": place,
                    "score": score,
                    "won": won,
                    "left": left,
                    "created_at": now,
                }
                for user, place, score, won, left in change.results
            ],
        )
    return _get(conn, party_id)


def _tables(conn: Connection, party_id: int, round_no: int | None) -> list[PartyTableRecord]:
    query = select(party_tables_table).where(TT.party_id == party_id)
    if round_no is not None:
        query = query.where(TT.round == round_no)
    return [_table(r) for r in conn.execute(query.order_by(TT.round, TT.table_no)).all()]


def _execute(conn: Connection, statement: Any) -> None:
    conn.execute(statement)


class PartyStore:
    """Async access to parties for the service."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def _read(self, fn: Callable[..., T], *args: Any) -> T:
        async with self.repo.reading() as conn:
            return await conn.run_sync(fn, *args)

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game_id: str,
        options: dict[str, str],
        tables: int,
        rounds: int,
        players: Sequence[PartyPlayer],
        seed: int,
    ) -> PartyRecord:
        now = time.time()
        values = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "host_id": host_id,
            "game_id": game_id,
            "options": dump_json(options),
            "tables": tables,
            "rounds": rounds,
            "round": 0,
            "status": MatchStatus.LOBBY,
            "players": dump_json([p.to_json() for p in players]),
            "seed": seed,
            "version": 0,
            "created_at": now,
            "updated_at": now,
        }
        return await self.repo.write(_create, values)

    async def get(self, party_id: int) -> PartyRecord | None:
        try:
            return await self._read(_get, party_id)
        except KeyError:
            return None

    async def change(self, party: PartyRecord, change: PartyChange) -> PartyRecord:
        """Apply ``change`` if the party is still at ``party.version``; raises StaleVersion."""
        return await self.repo.write(_change, party.id, party.version, change, party.guild_id)

    async def tables(self, party_id: int, round_no: int | None = None) -> list[PartyTableRecord]:
        return await self._read(_tables, party_id, round_no)

    async def set_match(self, table_id: int, match_id: int) -> None:
        await self.repo.write(
            _execute, update(party_tables_table).where(TT.id == table_id).values(match_id=match_id)
        )

    async def set_channel(self, table_id: int, channel_id: int) -> None:
        """Remember the thread a table plays in (before its match exists)."""
        await self.repo.write(
            _execute, update(party_tables_table).where(TT.id == table_id).values(channel_id=channel_id)
        )

    async def set_results(self, table_id: int, results: Sequence[SeatOutcome]) -> None:
        statement = (
            update(party_tables_table)
            .where(TT.id == table_id, TT.results.is_(None))
            .values(results=dump_json([r.to_json() for r in results]))
        )
        await self.repo.write(_execute, statement)

    async def set_message(self, party_id: int, message_id: int | None) -> None:
        await self.repo.write(
            _execute, update(party_table).where(PT.id == party_id).values(message_id=message_id)
        )

    async def active(self) -> list[PartyRecord]:
        def read(conn: Connection) -> list[PartyRecord]:
            rows = conn.execute(select(party_table).where(PT.status.in_(ACTIVE)).order_by(PT.id)).all()
            return [_party(r) for r in rows]

        return await self._read(read)

    async def active_in_channel(self, channel_id: int) -> PartyRecord | None:
        def read(conn: Connection) -> PartyRecord | None:
            row = conn.execute(
                select(party_table)
                .where(PT.channel_id == channel_id, PT.status.in_(ACTIVE))
                .order_by(PT.id.desc())
                .limit(1)
            ).first()
            return _party(row) if row else None

        return await self._read(read)

    async def table_of_match(self, match_id: int) -> PartyTableRecord | None:
        def read(conn: Connection) -> PartyTableRecord | None:
            row = conn.execute(select(party_tables_table).where(TT.match_id == match_id)).first()
            return _table(row) if row else None

        return await self._read(read)

    async def stats(self, guild_id: int, user_id: int) -> PartyStats:
        def read(conn: Connection) -> PartyStats:
            row = conn.execute(
                select(func.count(), func.coalesce(func.sum(PR.won.cast(Integer)), 0)).where(
                    PR.guild_id == guild_id, PR.user_id == user_id
                )
            ).first()
            return PartyStats(int(row[0]) if row else 0, int(row[1]) if row else 0)

        return await self._read(read)
