"""The repository: the one object the service holds for every SQL statement of the bot.

A thin front over one class per concern, each on the same :class:`~db.database.Database`
(its engines and its one writer): ``db.matches`` (matches, their moves and results, whose
writes are ``db.moves`` and, on a SQLite file, ``db.sqlite_moves``) and ``db.settings`` (a
server's and a player's settings). The parties and the leaderboards have stores of their own
over the same repository (``db.parties``, ``db.leaderboard_store``). Every public method of
the stores is an attribute of the repository, so callers write ``repo.apply_move(...)``.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import Database, normalise_url
from db.matches import MatchStore
from db.rows import (
    ChannelBusy,
    StaleVersion,
    dump_json,
    load_json,
    match_table,
    move_table,
    result_table,
)
from db.settings import SettingsStore
from db.sqlite_moves import compile_the_moves

__all__ = [
    "ChannelBusy",
    "Repository",
    "StaleVersion",
    "dump_json",
    "load_json",
    "match_table",
    "move_table",
    "normalise_url",
    "result_table",
]


class Repository:
    def __init__(self, url: str) -> None:
        self.database = Database(url)
        self.url = self.database.url
        self.is_sqlite = self.database.is_sqlite
        self.reading = self.database.reading
        self.write = self.database.write
        self.close = self.database.close

        self.matches = MatchStore(self.database)
        self.create_match = self.matches.create_match
        self.get_match = self.matches.get_match
        self.active_in_channel = self.matches.active_in_channel
        self.latest_in_channel = self.matches.latest_in_channel
        self.finished_in_channel = self.matches.finished_in_channel
        self.matches_with_status = self.matches.matches_with_status
        self.ended_since = self.matches.ended_since
        self.active_for_user = self.matches.active_for_user
        self.update_lobby = self.matches.update_lobby
        self.start_match = self.matches.start_match
        self.set_message = self.matches.set_message
        self.set_turn_message = self.matches.set_turn_message
        self.set_deadline = self.matches.set_deadline
        self.apply_move = self.matches.apply_move
        self.moves = self.matches.moves
        self.results = self.matches.results

        self.settings = SettingsStore(self.database)
        self.turn_seconds = self.settings.turn_seconds
        self.set_turn_seconds = self.settings.set_turn_seconds
        self.server_settings = self.settings.server_settings
        self.set_server_settings = self.settings.set_server_settings
        self.web_key = self.settings.web_key
        self.set_web_key = self.settings.set_web_key
        self.web_guild = self.settings.web_guild
        self.preferences = self.settings.preferences
        self.set_preferences = self.settings.set_preferences

    @property
    def writer(self) -> AsyncEngine:
        return self.database.writer

    @property
    def reader(self) -> AsyncEngine:
        return self.database.reader

    @property
    def movers(self) -> AsyncEngine | None:
        return self.database.movers

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (keeps running matches); on a
        SQLite file, compile the move's statements now, not in the first players' moves."""
        await self.database.migrate()
        if self.database.writer_thread is not None:
            compile_the_moves()
