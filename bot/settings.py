"""Settings from the environment (and ``.env``), in one frozen object."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a number of seconds, not {raw!r}.") from None


def _bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    return raw in ("1", "true", "yes", "on")


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_url: str = "sqlite:///data/kinggames.db"
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    sync_commands: bool = True
    ai_delay: float = 0.8
    table_edit_seconds: float = 1.0  # at most one edit of a table per this many seconds

    @staticmethod
    def from_env(load_dotenv_file: bool = True) -> Settings:
        if load_dotenv_file:
            from dotenv import load_dotenv

            load_dotenv()
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        return Settings(
            token=os.environ.get("DISCORD_TOKEN", "").strip(),
            database_url=os.environ.get("DATABASE_URL", "").strip() or "sqlite:///data/kinggames.db",
            log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            dev_guild_id=int(guild) if guild.isdigit() else None,
            sync_commands=_bool("SYNC_COMMANDS", True),
            ai_delay=_float("AI_DELAY", 0.8),
            table_edit_seconds=_float("TABLE_EDIT_SECONDS", 1.0),
        )
