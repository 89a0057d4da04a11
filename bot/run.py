"""Start the bot from settings, with one clear sentence when something is missing."""

from __future__ import annotations

import asyncio
import logging
import sys
from urllib.parse import urlsplit

import discord

from bot.app import KingBot
from bot.service import thinkers
from bot.settings import Settings
from bot.web.app import WebPortError

# What a host does when the web pages' port is taken: most often every process read WEB_PORT.
WEB_PORT_ADVICE = "is another process serving it? Give WEB_PORT to one process only (docs/OPERATIONS.md, 'Several processes and shards')."


def _logging(settings: Settings) -> None:
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord").setLevel(logging.WARNING if settings.log_level != "DEBUG" else logging.DEBUG)
    logging.getLogger("discord.client").setLevel(
        logging.ERROR
    )  # "voice will NOT be supported": no voice here


def run() -> int:
    settings = Settings.from_env()
    _logging(settings)
    if not settings.token:
        print(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it "
            "(see README, 'Getting started').",
            file=sys.stderr,
        )
        return 2
    if settings.ai_processes:  # the hard AI's worker processes start while the bot starts
        thinkers.start(settings.ai_processes)
    bot = KingBot(settings, freeze_heap=True)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN: check the token in .env (Bot page of your application).",
            file=sys.stderr,
        )
        return 2
    except WebPortError as err:
        print(f"{err}; {WEB_PORT_ADVICE}", file=sys.stderr)
        return 1
    except (OSError, discord.GatewayNotFound) as err:
        print(
            f"Could not reach Discord ({err}); check the network connection and try again.", file=sys.stderr
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused the requested intents; this bot needs none, so please report this.",
            file=sys.stderr,
        )
        return 2
    finally:
        thinkers.shutdown()
    return 0


def run_web() -> int:
    """``python -m bot web``: the web pages alone, on the bot's database (no Discord)."""
    settings = Settings.from_env()
    _logging(settings)
    if settings.web_port is None:
        print(
            "WEB_PORT is not set: put the port for the web pages in .env (see docs/OPERATIONS.md).",
            file=sys.stderr,
        )
        return 2
    try:
        asyncio.run(_serve_web(settings))
    except KeyboardInterrupt:
        pass
    except WebPortError as err:
        print(f"{err}; {WEB_PORT_ADVICE}", file=sys.stderr)
        return 1
    except OSError as err:
        print(
            f"Could not serve the web pages on {settings.web_host}:{settings.web_port} ({err}).",
            file=sys.stderr,
        )
        return 1
    return 0


async def _serve_web(settings: Settings) -> None:
    from bot.service.web import WebPages
    from bot.web.app import WebServer
    from db.repository import Repository

    repo = Repository(settings.database_url)
    await repo.migrate()
    assert settings.web_port is not None
    server = WebServer(WebPages(repo), settings.web_host, settings.web_port, urlsplit(settings.web_url).path)
    await server.start()
    try:
        await asyncio.Event().wait()  # until interrupted
    finally:
        await server.close()
        await repo.close()
