"""Settings from the environment (and ``.env``), in one frozen object."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from bot.service.thinkers import default_workers


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


def _count(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise SystemExit(f"{name} must be a whole number (0 or more), not {raw!r}.")
    return int(raw)


def _int_or_none(name: str) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"{name} must be a whole number of shards (1 or more), not {raw!r}.")
    return int(raw)


def _port(name: str) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise SystemExit(f"{name} must be a port number (1 to 65535), not {raw!r}.")
    return int(raw)


def _ids(name: str) -> tuple[int, ...] | None:
    """A list of shard ids: ``0,1,2`` or a range ``0-3`` (both ends included)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    ids: list[int] = []
    try:
        for part in raw.split(","):
            first, _, last = part.strip().partition("-")
            ids.extend(range(int(first), int(last or first) + 1))
    except ValueError:
        raise SystemExit(f"{name} must list shard ids like 0,1,2 or 0-3, not {raw!r}.") from None
    return tuple(sorted(set(ids)))


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_url: str = "sqlite:///data/kinggames.db"
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    sync_commands: bool = True
    ai_delay: float = 0.8
    ai_think: float = 0.8  # a hard AI seat's search budget per move, within ai_delay
    ai_processes: int = field(
        default_factory=default_workers
    )  # worker processes for hard AI searches (0: a thread)
    table_edit_seconds: float = 1.0  # at most one edit of a table per this many seconds
    # a turn mentions its players once it has waited this long for them, so whoever moves
    # sooner is never pinged (0: at once, as built here; TURN_PING_SECONDS, 15 s, when run)
    turn_ping_seconds: float = 0.0
    answers_first_seconds: float = (
        0.3  # how long table edits, pings and pictures may wait for answers (0: off)
    )
    shard_count: int | None = None  # Discord shards in the whole deployment (None: Discord's advice)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all)
    web_port: int | None = None  # serve the servers' web pages on this port (None: no web pages)
    web_host: str = "127.0.0.1"  # the address they listen on (a reverse proxy in front)
    web_url: str = ""  # the pages' public address, for the links in Discord ("": no links)

    def runs_guild(self, guild_id: int) -> bool:
        """Whether this process holds the server's shard (Discord: ``(id >> 22) % count``)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

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
            ai_think=_float("AI_THINK", 0.8),
            ai_processes=_count("AI_PROCESSES", default_workers()),
            table_edit_seconds=_float("TABLE_EDIT_SECONDS", 1.0),
            turn_ping_seconds=_float("TURN_PING_SECONDS", 15.0),
            answers_first_seconds=_float("ANSWERS_FIRST_SECONDS", 0.3),
            shard_count=_int_or_none("SHARD_COUNT"),
            shard_ids=_ids("SHARD_IDS"),
            web_port=_port("WEB_PORT"),
            web_host=os.environ.get("WEB_HOST", "").strip() or "127.0.0.1",
            web_url=os.environ.get("WEB_URL", "").strip().rstrip("/"),
        )
