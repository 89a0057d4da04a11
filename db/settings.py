"""The settings: a server's (turn timer, pings, text only, web pages) and each player's own."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from db.database import Database
from db.records import Preferences, ServerSettings
from db.rows import GC, US, config_table, settings_table


def upsert(conn: Connection, table: Table, where: Any, values: dict[str, Any], key: dict[str, Any]) -> None:
    """Update the row ``where`` selects, or insert it with ``key`` if there is none."""
    if conn.execute(update(table).where(where).values(**values)).rowcount == 0:
        conn.execute(insert(table).values(**key, **values))


class SettingsStore:
    """Every statement on the servers' and players' settings."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def turn_seconds(self, guild_id: int) -> int | None:
        """The server's turn timer in seconds (None: not set, 0: off)."""
        async with self.database.reader.connect() as conn:
            row = (await conn.execute(select(GC.turn_seconds).where(GC.guild_id == guild_id))).first()
            return None if row is None else row[0]

    async def set_turn_seconds(self, guild_id: int, seconds: int | None) -> None:
        now = time.time()
        await self.database.write(
            upsert,
            config_table,
            GC.guild_id == guild_id,
            {"turn_seconds": seconds, "updated_at": now},
            {"guild_id": guild_id},
        )

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The server's display settings (defaults where never changed)."""
        async with self.database.reader.connect() as conn:
            row = (
                await conn.execute(select(GC.turn_pings, GC.text_only).where(GC.guild_id == guild_id))
            ).first()
        if row is None:
            return ServerSettings()
        return ServerSettings(turn_pings=row[0] is not False, text_only=bool(row[1]))

    async def set_server_settings(self, guild_id: int, **values: bool) -> ServerSettings:
        now = time.time()
        await self.database.write(
            upsert,
            config_table,
            GC.guild_id == guild_id,
            {**values, "updated_at": now},
            {"guild_id": guild_id},
        )
        return await self.server_settings(guild_id)

    async def web_key(self, guild_id: int) -> str | None:
        """The key of the server's web pages (None: they are off)."""
        async with self.database.reader.connect() as conn:
            row = (await conn.execute(select(GC.web_key).where(GC.guild_id == guild_id))).first()
        return None if row is None else row[0]

    async def set_web_key(self, guild_id: int, key: str | None) -> None:
        """Turn the server's web pages on at ``key``, or off (None)."""
        await self.database.write(
            upsert,
            config_table,
            GC.guild_id == guild_id,
            {"web_key": key, "updated_at": time.time()},
            {"guild_id": guild_id},
        )

    async def web_guild(self, key: str) -> int | None:
        """The server whose web pages are at ``key`` (None: no server, or turned off)."""
        async with self.database.reader.connect() as conn:
            row = (await conn.execute(select(GC.guild_id).where(GC.web_key == key))).first()
        return None if row is None else int(row[0])

    async def preferences(self, user_ids: Sequence[int]) -> dict[int, Preferences]:
        """The settings of these users (defaults for those who never changed any)."""
        out = {u: Preferences() for u in user_ids}
        if not user_ids:
            return out
        async with self.database.reader.connect() as conn:
            rows = await conn.execute(
                select(US.user_id, US.turn_pings, US.text_only).where(US.user_id.in_(list(user_ids)))
            )
            for user_id, pings, text_only in rows:
                out[user_id] = Preferences(turn_pings=pings is not False, text_only=bool(text_only))
        return out

    async def set_preferences(self, user_id: int, **values: bool) -> Preferences:
        now = time.time()
        await self.database.write(
            upsert,
            settings_table,
            US.user_id == user_id,
            {**values, "updated_at": now},
            {"user_id": user_id},
        )
        return (await self.preferences([user_id]))[user_id]
