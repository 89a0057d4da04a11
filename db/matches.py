"""The matches: created in a channel's lobby, changed at their version, moved, read back."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from db.database import Database, execute, rowcount
from db.moves import move, move_on_postgresql, move_params, move_values, versioned_update
from db.records import MatchRecord, MatchStatus, MatchUpdate, MoveRecord, ResultRow, Seat
from db.rows import (
    ACTIVE,
    MT,
    MV,
    OVER,
    RS,
    ChannelBusy,
    dump_json,
    match_record,
    match_table,
    move_table,
    result_table,
)
from db.sqlite_moves import matches_on_sqlite, move_on_sqlite


class MatchStore:
    """Every statement on a match's rows (the match, its moves, its results)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def create_match(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game_id: str,
        options: dict[str, str],
        seats: Iterable[Seat],
        seed: int,
    ) -> MatchRecord:
        now = time.time()

        def create(conn: Connection) -> MatchRecord:
            busy = conn.execute(
                select(MT.id).where(MT.channel_id == channel_id, MT.status.in_(ACTIVE)).limit(1)
            )
            existing = busy.scalar()
            if existing is not None:
                raise ChannelBusy(existing)
            res = conn.execute(
                insert(match_table).values(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    game_id=game_id,
                    options=dump_json(options),
                    status=MatchStatus.LOBBY,
                    seats=dump_json([s.to_json() for s in seats]),
                    version=0,
                    seed=seed,
                    notes="{}",
                    created_at=now,
                    updated_at=now,
                )
            )
            key = res.inserted_primary_key
            assert key is not None
            row = conn.execute(select(match_table).where(MT.id == int(key[0]))).first()
            assert row is not None
            return match_record(row)

        return await self.database.write(create)

    async def get_match(self, match_id: int) -> MatchRecord | None:
        async with self.database.reader.connect() as conn:
            return await self._get(conn, match_id)

    async def _get(self, conn: AsyncConnection, match_id: int) -> MatchRecord | None:
        row = (await conn.execute(select(match_table).where(MT.id == match_id))).first()
        return match_record(row) if row else None

    async def active_in_channel(self, channel_id: int) -> MatchRecord | None:
        async with self.database.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(match_table)
                    .where(MT.channel_id == channel_id, MT.status.in_(ACTIVE))
                    .order_by(MT.id.desc())
                    .limit(1)
                )
            ).first()
            return match_record(row) if row else None

    async def latest_in_channel(self, channel_id: int) -> MatchRecord | None:
        async with self.database.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(match_table).where(MT.channel_id == channel_id).order_by(MT.id.desc()).limit(1)
                )
            ).first()
            return match_record(row) if row else None

    async def finished_in_channel(self, channel_id: int, limit: int) -> list[MatchRecord]:
        """The channel's latest finished matches, newest first (a replay's choices)."""
        async with self.database.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(match_table)
                    .where(MT.channel_id == channel_id, MT.status == MatchStatus.FINISHED)
                    .order_by(MT.id.desc())
                    .limit(limit)
                )
            ).all()
            return [match_record(r) for r in rows]

    async def matches_with_status(self, *statuses: MatchStatus) -> list[MatchRecord]:
        """Every match in one of ``statuses`` (a restart reads every open match with it). On
        a SQLite file, read straight on the writer thread's sqlite3 connection, as a move is
        written: read and parsed side by side, 10,000 open matches took 1.0 s this way against
        1.3 to 1.6 s through SQLAlchemy and aiosqlite (the collector running in both)."""
        if self.database.writer_thread is not None:
            return await self.database.writer_thread.run(
                functools.partial(matches_on_sqlite, tuple(statuses))
            )
        async with self.database.reader.connect() as conn:
            rows = (
                await conn.execute(select(match_table).where(MT.status.in_(statuses)).order_by(MT.id))
            ).all()
            return [match_record(r) for r in rows]

    async def ended_since(self, since: float) -> list[MatchRecord]:
        """Matches that finished or were cancelled at ``since`` or later."""
        async with self.database.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(match_table).where(MT.status.in_(OVER), MT.finished_at >= since).order_by(MT.id)
                )
            ).all()
            return [match_record(r) for r in rows]

    async def active_for_user(self, guild_id: int, user_id: int) -> list[MatchRecord]:
        """Running or open matches in a guild where ``user_id`` holds a seat."""
        async with self.database.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(match_table)
                    .where(MT.guild_id == guild_id, MT.status.in_(ACTIVE))
                    .order_by(MT.id.desc())
                )
            ).all()
        records = [match_record(r) for r in rows]
        return [m for m in records if any(s.user_id == user_id for s in m.seats)]

    async def update_lobby(
        self,
        match_id: int,
        expected_version: int,
        *,
        seats: Iterable[Seat] | None = None,
        options: dict[str, str] | None = None,
        host_id: int | None = None,
        status: MatchStatus | None = None,
        notes: dict[str, Any] | None = None,
    ) -> MatchRecord:
        """Change a lobby (or end a match, or change its seats, without a move); bumps the version."""
        values: dict[str, Any] = {"updated_at": time.time()}
        if notes is not None:
            values["notes"] = dump_json(notes)
        if seats is not None:
            values["seats"] = dump_json([s.to_json() for s in seats])
        if options is not None:
            values["options"] = dump_json(options)
        if host_id is not None:
            values["host_id"] = host_id
        if status is not None:
            values["status"] = status
            if status.over:
                values["finished_at"] = time.time()
                values["deadline_at"] = None
                values["deadline"] = None
        return await self._versioned_update(match_id, expected_version, values)

    async def start_match(
        self,
        match_id: int,
        expected_version: int,
        *,
        state: dict[str, Any],
        seats: Iterable[Seat],
        deadline_at: float | None,
        deadline: dict[str, Any] | None,
        notes: dict[str, Any] | None = None,
    ) -> MatchRecord:
        values = {
            "status": MatchStatus.RUNNING,
            "state": dump_json(state),
            "seats": dump_json([s.to_json() for s in seats]),
            "deadline_at": deadline_at,
            "deadline": dump_json(deadline) if deadline else None,
            "updated_at": time.time(),
        }
        if notes is not None:
            values["notes"] = dump_json(notes)
        return await self._versioned_update(match_id, expected_version, values)

    async def set_message(self, match_id: int, message_id: int | None) -> None:
        await self.database.write(
            execute, update(match_table).where(MT.id == match_id).values(message_id=message_id)
        )

    async def _versioned_update(
        self, match_id: int, expected_version: int, values: dict[str, Any]
    ) -> MatchRecord:
        return await self.database.write(versioned_update, match_id, expected_version, values)

    async def apply_move(self, upd: MatchUpdate) -> MatchRecord:
        """State + version + move row (+ results when finished): one transaction or nothing."""
        now = time.time()
        values = move_values(upd, now)
        if self.database.writer_thread is not None:
            # The hot path: every move, straight on SQLite's own connection; at once on the
            # event loop when the writer is idle (a quiet server), else in the writer's queue.
            return await self.database.writer_thread.run(
                functools.partial(move_on_sqlite, upd, values, now), inline=True
            )
        movers = self.database.movers
        if movers is not None and not upd.results:
            # PostgreSQL: one statement, one round trip, beside the other moves. A match's last
            # move (results, standings, ratings: reads then writes) takes the one writer.
            return await move_on_postgresql(
                movers, tuple(values), move_params(upd, values, now), upd.match_id
            )
        return await self.database.write(move, upd, values, now)

    async def moves(self, match_id: int) -> list[MoveRecord]:
        async with self.database.reader.connect() as conn:
            rows = (
                await conn.execute(select(move_table).where(MV.match_id == match_id).order_by(MV.version))
            ).all()
            return [MoveRecord(r.version, r.seat, r.user_id, r.code, r.created_at) for r in rows]

    async def results(self, match_id: int) -> list[ResultRow]:
        async with self.database.reader.connect() as conn:
            rows = (
                await conn.execute(select(result_table).where(RS.match_id == match_id).order_by(RS.seat))
            ).all()
            return [
                ResultRow(r.seat, r.user_id, r.is_ai, r.place, r.score, r.team, r.left, r.skill_change)
                for r in rows
            ]

    async def set_turn_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the match's current "your turn" message (None: there is none)."""
        await self.database.write(
            execute, update(match_table).where(MT.id == match_id).values(turn_message_id=message_id)
        )

    async def set_deadline(
        self, match_id: int, version: int, deadline_at: float | None, deadline: dict[str, Any] | None
    ) -> bool:
        """Replace the stored deadline of this version (no version bump); False if stale."""
        statement = (
            update(match_table)
            .where(MT.id == match_id, MT.version == version)
            .values(deadline_at=deadline_at, deadline=dump_json(deadline) if deadline else None)
        )
        return bool(await self.database.write(rowcount, statement) == 1)
