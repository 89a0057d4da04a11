"""Server settings and players' preferences, read once and kept."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from bot.service import errors
from db.records import Preferences, ServerSettings
from db.repository import Repository

DEFAULT_TURN_SECONDS = 180
WEB_KEY_BYTES = 18  # 144 random bits: the web pages' key, 24 characters


class SettingsBook:
    """Owns the cached turn timers, display settings of every server and players' preferences."""

    def __init__(self, repo: Repository, default_turn_seconds: int = DEFAULT_TURN_SECONDS) -> None:
        self.repo = repo
        self.default_turn_seconds = default_turn_seconds
        self._turn_seconds: dict[int, int] = {}
        self._server_settings: dict[int, ServerSettings] = {}
        self._preferences: dict[int, Preferences] = {}
        self._web_keys: dict[int, str | None] = {}

    async def turn_seconds(self, guild_id: int) -> int:
        """The server's seconds per decision (0: no turn timer)."""
        cached = self._turn_seconds.get(guild_id)
        if cached is None:
            stored = await self.repo.turn_seconds(guild_id)
            cached = self.default_turn_seconds if stored is None else stored
            self._turn_seconds[guild_id] = cached
        return cached

    async def set_turn_seconds(self, guild_id: int, seconds: int, *, is_admin: bool) -> None:
        if not is_admin:
            raise errors.NotHost("change the server settings (Manage Server is needed)")
        if seconds < 0 or seconds > 7 * 24 * 3600:
            raise errors.LobbyError("The turn timer must be between 0 seconds (off) and 7 days.")
        await self.repo.set_turn_seconds(guild_id, seconds)
        self._turn_seconds[guild_id] = seconds

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """This server's display settings (turn pings, card pictures), cached."""
        cached = self._server_settings.get(guild_id)
        if cached is None:
            cached = self._server_settings[guild_id] = await self.repo.server_settings(guild_id)
        return cached

    async def set_server_settings(self, guild_id: int, *, is_admin: bool, **values: bool) -> ServerSettings:
        if not is_admin:
            raise errors.NotHost("change the server settings (Manage Server is needed)")
        self._server_settings[guild_id] = settings = await self.repo.set_server_settings(guild_id, **values)
        return settings

    async def web_key(self, guild_id: int) -> str | None:
        """The key of the server's web pages (None: off), cached."""
        if guild_id not in self._web_keys:
            self._web_keys[guild_id] = await self.repo.web_key(guild_id)
        return self._web_keys[guild_id]

    async def set_web(self, guild_id: int, on: bool, *, is_admin: bool) -> str | None:
        """Turn the server's web pages on (a new unguessable key, unless they are on already)
        or off (the key is forgotten: its pages answer nothing). Returns the key."""
        if not is_admin:
            raise errors.NotHost("change the server settings (Manage Server is needed)")
        key = await self.repo.web_key(guild_id)
        if on and key is None:
            key = secrets.token_urlsafe(WEB_KEY_BYTES)
        elif not on:
            key = None
        await self.repo.set_web_key(guild_id, key)
        self._web_keys[guild_id] = key
        return key

    async def preferences(self, user_ids: Sequence[int]) -> dict[int, Preferences]:
        """These users' own settings, cached."""
        missing = [user for user in user_ids if user not in self._preferences]
        if missing:
            self._preferences.update(await self.repo.preferences(missing))
        return {user: self._preferences[user] for user in user_ids}

    async def set_preferences(self, user_id: int, **values: bool) -> Preferences:
        self._preferences[user_id] = prefs = await self.repo.set_preferences(user_id, **values)
        return prefs
