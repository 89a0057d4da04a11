"""A bot running in a subprocess (``python -m tests.fakediscord.run_bot``)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import tempfile
from pathlib import Path

log = logging.getLogger("fakediscord.process")

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_DIR.parent.parent


class BotProcess:
    """A bot subprocess whose output goes to a temporary log file.

    ``kill()`` sends SIGKILL (a crash), ``terminate()`` SIGTERM (then SIGKILL).
    """

    def __init__(
        self,
        module: str = "bot",
        *,
        env: dict[str, str],
        args: tuple[str, ...] = (),
        cwd: str | Path | None = None,
    ) -> None:
        self.module = module
        self.args = args
        self.cwd = Path(cwd) if cwd is not None else PROJECT_ROOT
        self.env = dict(env)
        paths = [str(PROJECT_ROOT), str(PACKAGE_DIR.parent)]
        if self.env.get("PYTHONPATH"):
            paths.append(self.env["PYTHONPATH"])
        self.env["PYTHONPATH"] = os.pathsep.join(paths)
        self.env.setdefault("PYTHONUNBUFFERED", "1")
        fd, name = tempfile.mkstemp(prefix="fakediscord-bot-", suffix=".log")
        self._log_fd = fd
        self.log_path = Path(name)
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def runner_module(self) -> str:
        return f"{__package__}.run_bot"

    async def start(self) -> BotProcess:
        cmd = [sys.executable, "-m", self.runner_module, self.module, *self.args]
        self.proc = await asyncio.create_subprocess_exec(
            *cmd,
            cwd=str(self.cwd),
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log_fd,
            stderr=asyncio.subprocess.STDOUT,
        )
        log.info("bot process %s started: %s (log %s)", self.proc.pid, " ".join(cmd), self.log_path)
        return self

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.proc else None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def wait(self, timeout: float | None = None) -> int:
        assert self.proc is not None
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def kill(self) -> int:
        """SIGKILL: the bot dies without closing anything."""
        assert self.proc is not None
        if self.running:
            self.proc.send_signal(signal.SIGKILL)
        return await self.wait(10)

    async def terminate(self, timeout: float = 5.0) -> int:
        assert self.proc is not None
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return await self.wait(timeout)
            except TimeoutError:
                log.warning("bot process %s ignored SIGTERM; killing it", self.proc.pid)
        return await self.kill()

    def cleanup(self) -> None:
        try:
            os.close(self._log_fd)
        except OSError:
            pass
        try:
            self.log_path.unlink()
        except FileNotFoundError:
            pass
