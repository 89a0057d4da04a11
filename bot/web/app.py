"""The web application: its routes, templates, static files and headers, and a server that
runs it beside the bot (``WEB_PORT``) or alone (``python -m bot web``).

Every page of a server lives under ``/s/<key>/``; a key no server holds, or a path that leads
nowhere, answers 404 with an empty body. Pages carry no referrer to other sites (the key is
in their address) and ask search engines to keep away; static files are cached for a year,
their address changing with their content.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from bot.service.web import WebPages
from bot.web import views
from bot.web.keys import PAGES, ROOT, TEMPLATES

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
STATIC_CACHE = "public, max-age=31536000, immutable"
PAGE_CACHE = "no-cache"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def static_version() -> str:
    """A short hash of the static files, added to their addresses: a change is fetched anew."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.iterdir()):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


@web.middleware
async def nothing_when_missing(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A 404 says nothing: not whether the server exists, nor what the address held."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        return web.Response(status=404, text="", headers={"Cache-Control": PAGE_CACHE})


async def headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    if request.path.startswith("/static/") and response.status == 200:
        response.headers["Cache-Control"] = STATIC_CACHE
    else:
        response.headers.setdefault("Cache-Control", PAGE_CACHE)


def make_app(pages: WebPages, root: str = "") -> web.Application:
    """The application. ``root``: the path the pages are reached under through a reverse
    proxy that strips it (the path of ``WEB_URL``), for the links the pages write."""
    app = web.Application(middlewares=[nothing_when_missing])
    app[PAGES] = pages
    app[ROOT] = root.rstrip("/")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals["static"] = f"{app[ROOT]}/static/style.css?v={static_version()}"
    app[TEMPLATES] = env
    app.on_response_prepare.append(headers)
    app.router.add_static("/static/", STATIC)
    views.add_routes(app)
    return app


class WebPortError(OSError):
    """The web pages' port could not be taken (another process holds it, or no right to it)."""


class WebServer:
    """The application on a host and port, started and stopped with the bot."""

    def __init__(self, pages: WebPages, host: str, port: int, root: str = "") -> None:
        self.app = make_app(pages, root)
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as err:
            await self._runner.cleanup()
            self._runner = None
            raise WebPortError(f"Could not serve the web pages on {self.host}:{self.port} ({err})") from err
        sockets: Any = getattr(site._server, "sockets", None) or ()
        if sockets:  # port 0: the port the system chose
            self.port = sockets[0].getsockname()[1]
        log.info("web pages on http://%s:%d/", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
