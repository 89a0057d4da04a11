"""Point an unmodified discord.py at the fake server (in this process).

Three class attributes are changed and can be restored:

* ``discord.http.Route.BASE``: REST, interaction callbacks and webhooks;
* ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``: the gateway URL;
* optionally ``discord.state.ConnectionState.__init__`` is wrapped so that
  clients created without an explicit ``guild_ready_timeout`` use a small one
  (the fake sends every GUILD_CREATE at once, so waiting 2 s for more is waste).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import yarl

log = logging.getLogger("fakediscord")

API_VERSION = 10


def rest_base(url: str) -> str:
    return f"{url.rstrip('/')}/api/v{API_VERSION}"


def gateway_url(url: str) -> str:
    parsed = yarl.URL(url)
    scheme = "wss" if parsed.scheme == "https" else "ws"
    return str(parsed.with_scheme(scheme).with_path("/ws"))


def apply_patches(url: str, *, ready_timeout: float | None = 0.05) -> Callable[[], None]:
    """Patch discord.py to talk to the fake at ``url`` (``http://127.0.0.1:PORT``).

    Returns a function that undoes exactly these patches.
    """
    import discord.gateway
    import discord.http
    import discord.state

    route = discord.http.Route
    ws_cls = discord.gateway.DiscordWebSocket
    state_cls = discord.state.ConnectionState

    old_base = route.BASE
    old_gateway = ws_cls.DEFAULT_GATEWAY
    old_init = state_cls.__dict__["__init__"]

    route.BASE = rest_base(url)
    ws_cls.DEFAULT_GATEWAY = yarl.URL(gateway_url(url))
    if ready_timeout is not None:

        @functools.wraps(old_init)
        def patched_init(self: Any, *args: Any, **options: Any) -> None:
            options.setdefault("guild_ready_timeout", ready_timeout)
            old_init(self, *args, **options)

        state_cls.__init__ = patched_init  # type: ignore[method-assign]
    log.debug("discord.py patched: REST %s, gateway %s", route.BASE, ws_cls.DEFAULT_GATEWAY)

    def restore() -> None:
        route.BASE = old_base
        ws_cls.DEFAULT_GATEWAY = old_gateway
        state_cls.__init__ = old_init  # type: ignore[method-assign]
        log.debug("discord.py patches restored")

    return restore


@contextmanager
def patched_discord(url: str, *, ready_timeout: float | None = 0.05) -> Iterator[None]:
    restore = apply_patches(url, ready_timeout=ready_timeout)
    try:
        yield
    finally:
        restore()
