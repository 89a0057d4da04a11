"""Run a bot in this process against a FakeDiscord living in another process.

Usage::

    FAKE_DISCORD_URL=http://127.0.0.1:PORT python -m tests.fakediscord.run_bot [MODULE [ARGS...]]

MODULE defaults to ``bot`` (so ``bot/__main__.py`` is run), or to the value of
``FAKE_DISCORD_BOT_MODULE``. discord.py is patched exactly as in-process tests
do it (REST base, gateway URL, small guild_ready_timeout; set
``FAKE_DISCORD_GUILD_READY_TIMEOUT`` to change the latter, ``none`` to keep
discord.py's default) and then the module runs as ``__main__``.
"""

from __future__ import annotations

import logging
import os
import runpy
import sys

from .patch import apply_patches

log = logging.getLogger("fakediscord.run_bot")


def _ready_timeout() -> float | None:
    raw = os.environ.get("FAKE_DISCORD_GUILD_READY_TIMEOUT", "0.05").strip().lower()
    if raw in ("", "none", "default"):
        return None
    return float(raw)


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    url = os.environ.get("FAKE_DISCORD_URL")
    if not url:
        raise SystemExit("FAKE_DISCORD_URL is not set (e.g. http://127.0.0.1:12345)")
    module = argv.pop(0) if argv else os.environ.get("FAKE_DISCORD_BOT_MODULE", "bot")
    apply_patches(url, ready_timeout=_ready_timeout())
    log.info("running %s against fake Discord at %s", module, url)
    sys.argv = [module, *argv]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
