"""A match's row: the tables' columns the SQL is written against, the JSON columns' text,
and a row read back as a :class:`~db.records.MatchRecord`."""

from __future__ import annotations

import functools
from collections import namedtuple
from typing import Any

import orjson
from sqlalchemy import Table

from db.models import GuildConfig, Match, MoveLog, Result, UserSettings
from db.records import MatchRecord, MatchStatus, Seat

ACTIVE = (MatchStatus.LOBBY, MatchStatus.RUNNING)
OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
# SQL is written against the tables' columns (typed SQL expressions), not model attributes.
match_table: Table = Match.__table__  # type: ignore[attr-defined]
move_table: Table = MoveLog.__table__  # type: ignore[attr-defined]
result_table: Table = Result.__table__  # type: ignore[attr-defined]
config_table: Table = GuildConfig.__table__  # type: ignore[attr-defined]
settings_table: Table = UserSettings.__table__  # type: ignore[attr-defined]
MT, MV, RS, GC, US = match_table.c, move_table.c, result_table.c, config_table.c, settings_table.c
MATCH_COLUMNS = tuple(match_table.columns)


class StaleVersion(Exception):
    """The match moved on since the caller loaded it; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an active match (lobby or running)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(match_id)
        self.match_id = match_id


def dump_json(value: Any) -> str:
    """A JSON column's text (keys sorted, so equal values give equal text)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


load_json = orjson.loads  # several times faster than json.loads: a restart parses every open match


@functools.lru_cache(maxsize=1024)
def seats_of(text: str) -> tuple[Seat, ...]:
    """A seats column's value, parsed once for each text: seats are frozen, and most writes
    (every move but a seat change) return the seats as they were."""
    return tuple(Seat.from_json(s) for s in load_json(text))


def match_record(row: Any, state: Any = None, notes: Any = None) -> MatchRecord:
    """A match's row as its record. ``state``, ``notes``: their values when the caller has
    them at hand (a move just dumped them), instead of parsing their text again."""
    return MatchRecord(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        host_id=row.host_id,
        game_id=row.game_id,
        options=load_json(row.options),
        status=MatchStatus(row.status),
        seats=seats_of(row.seats),
        version=row.version,
        seed=row.seed,
        state=state if state is not None else load_json(row.state) if row.state else None,
        notes=notes if notes is not None else load_json(row.notes),
        deadline_at=row.deadline_at,
        deadline=load_json(row.deadline) if row.deadline else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        turn_message_id=row.turn_message_id,
    )


MatchRow = namedtuple("MatchRow", [c.name for c in MATCH_COLUMNS])  # type: ignore[misc]  # a row as match_record reads it
