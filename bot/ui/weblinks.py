"""Links to a server's web pages, for the messages that have a page: none unless the server
turned its pages on (``/config web:``) and the bot's host set ``WEB_URL``."""

from __future__ import annotations

from typing import Any


async def page_url(client: Any, guild_id: int | None, path: str = "") -> str | None:
    """The address of ``path`` (``board/four?season=2``, ``match/12``) among the server's pages."""
    settings = getattr(client, "settings", None)
    base = getattr(settings, "web_url", "")
    if not base or guild_id is None:
        return None
    key = await client.service.settings.web_key(guild_id)
    return None if key is None else f"{base}/s/{key}/{path}"
