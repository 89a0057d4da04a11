"""The Discord client: start-up, cogs, persistent components and the error handler."""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.sending import write_bodies_at_once
from bot.service import MatchService
from bot.service.leaderboard import LeaderboardService
from bot.service.web import WebPages
from bot.settings import Settings
from bot.ui import replies
from bot.ui.answers import AnswersFirst
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.hand import rerender
from bot.ui.leaderboard import DYNAMIC_ITEMS as LEADERBOARD_ITEMS
from bot.ui.party import PartyPublisher
from bot.ui.restoring import Restoring
from bot.ui.table import TablePublisher
from bot.ui.tracker import HandTracker
from bot.web.app import WebServer
from db.repository import Repository

log = logging.getLogger(__name__)

COGS = ("cogs.lobby", "cogs.games", "cogs.admin", "cogs.leaderboard", "cogs.help")


class KingTree(app_commands.CommandTree["KingBot"]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await replies.restored(interaction)  # a command deferred on arrival during the restore
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure) and not isinstance(
            error, app_commands.CommandInvokeError
        ):
            await replies.say(interaction, str(error) or "You cannot use that command here.")
            return
        await replies.refuse(interaction, original)


class KingBot(commands.AutoShardedBot):
    """The bot. One process runs the Discord shards of ``SHARD_IDS`` out of ``SHARD_COUNT``
    (all of them by default); several processes share one database (PostgreSQL, or the
    SQLite file on one machine), each with its own shards: a match lives with the shard of its server, so each process restores,
    times and plays only its servers' matches (the version check keeps two processes from
    ever applying a move twice)."""

    def __init__(self, settings: Settings, *, freeze_heap: bool = False, **kwargs: Any) -> None:
        """``freeze_heap``: the restored matches, and once ready all else alive, go to the
        garbage collector's permanent generation (``gc.freeze``), so that no full collection
        walks them again (one of the started bot took 90 to 100 ms, every player waiting; see
        ``benchmarks/bench_bot.py --phases``); for a bot that owns its process (``python -m
        bot``), not for one of many in a test run."""
        intents = discord.Intents.none()
        intents.guilds = True
        if settings.shard_count is not None:
            kwargs.setdefault("shard_count", settings.shard_count)
            if settings.shard_ids is not None:
                kwargs.setdefault("shard_ids", list(settings.shard_ids))
        # Table edits, pings, hand refreshes and pictures wait while players are unanswered:
        # arrivals are counted in dispatch (below), answers as their callback requests end.
        self.answers = AnswersFirst(settings.answers_first_seconds, hold_collector=freeze_heap)
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self.answers.request_ended)
        trace.on_request_exception.append(self.answers.request_ended)
        kwargs.setdefault("http_trace", trace)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=KingTree,
            help_command=None,
            **kwargs,
        )
        self.settings = settings
        self._freeze_heap = freeze_heap
        self.repo = Repository(settings.database_url)
        self.service = MatchService(
            self.repo,
            ai_delay=settings.ai_delay,
            ai_think=settings.ai_think,
            ai_processes=settings.ai_processes,
            runs_guild=settings.runs_guild,
        )
        self.leaderboard = LeaderboardService(self.repo)
        self.web: WebServer | None = None
        if settings.web_port is not None:
            root = urlsplit(settings.web_url).path
            self.web = WebServer(
                WebPages(self.repo, self.leaderboard, self.service.replays),
                settings.web_host,
                settings.web_port,
                root,
            )
        self.hands = HandTracker(self.service, rerender, answers=self.answers)
        self.restoring = Restoring()

    async def setup_hook(self) -> None:
        write_bodies_at_once(asyncio.get_running_loop())  # an answer's bytes leave when it is handed over
        await self.repo.migrate()
        self.tables = TablePublisher(
            self,
            self.service,
            self.hands,
            self.settings.table_edit_seconds,
            self.answers,
            ping_seconds=self.settings.turn_ping_seconds,
        )
        self.service.add_listener(self.tables)
        parties = PartyPublisher(self, self.service)
        self.service.add_party_listener(parties)
        self.service.rounds.table_channels = parties
        self.add_dynamic_items(*DYNAMIC_ITEMS, *LEADERBOARD_ITEMS)
        for name in COGS:
            await self.load_extension(name)
        if self.web is not None:
            await self.web.start()
        # A long restore goes on connected: what waits for it is deferred meanwhile.
        await self.restoring.start(self._restore())
        if self.settings.sync_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()

    async def _restore(self) -> None:
        try:
            restored = await self.service.restore(freeze=self._freeze_heap)
        except Exception:
            log.exception("restoring the open matches failed")
            raise
        log.info("%d open matches restored", len(restored))

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":  # every interaction, before any handler runs
            self.answers.arrived(args[0].id)
            self.restoring.arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        if self._freeze_heap:  # what came after the restore's freeze: gateway, guild caches
            gc.freeze()
            self._freeze_heap = False  # once: a reconnection's on_ready finds it done

    async def close(self) -> None:
        if self.web is not None:
            await self.web.close()
        await self.restoring.close()
        await self.hands.close()
        await self.service.close()
        if hasattr(self, "tables"):
            await self.tables.close()  # what the tables show, for the next start
        await super().close()
        await self.repo.close()
