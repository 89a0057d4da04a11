"""A real PostgreSQL server for the tests, started from the machine's own binaries.

The server runs in a temporary directory, on a free loopback port, as the ``postgres``
system user when the tests run as root (PostgreSQL refuses to run as root), and is stopped
at the end of the session. Where PostgreSQL is not installed the PostgreSQL cases are
skipped, unless ``KINGS_REQUIRE_POSTGRES=1`` (then they fail, so CI cannot pass silently
without the real server).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

BIN_DIRS = ("/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin")


def _binary(name: str) -> str | None:
    for folder in BIN_DIRS:
        path = Path(folder) / name
        if path.exists():
            return str(path)
    return shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    def __init__(self) -> None:
        initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise FileNotFoundError("PostgreSQL's initdb and pg_ctl are not installed")
        self.pg_ctl = pg_ctl
        self.dir = Path(tempfile.mkdtemp(prefix="kinggames-pg-"))
        self.data = self.dir / "data"
        self.user: list[str] = []
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.dir, account.pw_uid, account.pw_gid)
            self.user = ["runuser", "-u", "postgres", "--"]
        self._run(initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        # The port is free when chosen, but another process (the other pytest-xdist worker, a
        # fake Discord) may bind it before the server does: then the start fails, and a
        # newly chosen port is tried.
        for attempt in range(3):
            self.port = _free_port()
            options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
            try:
                self._run(
                    pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w", "start"
                )
                break
            except subprocess.CalledProcessError:
                if attempt == 2:
                    raise

    def _run(self, *cmd: str) -> None:
        subprocess.run([*self.user, *cmd], check=True, capture_output=True, timeout=120)

    def database(self) -> str:
        """A fresh, empty database on this server; its URL."""
        createdb = _binary("createdb")
        assert createdb is not None, "createdb is missing beside initdb"
        name = "t_" + uuid.uuid4().hex[:12]
        subprocess.run(
            [createdb, "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name],
            check=True,
            capture_output=True,
            timeout=60,
        )
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    try:
        server = PostgresServer()
    except (FileNotFoundError, KeyError, subprocess.CalledProcessError) as err:
        if os.environ.get("KINGS_REQUIRE_POSTGRES"):
            raise
        pytest.skip(f"no PostgreSQL server available here: {err}")
    yield server
    server.stop()


BACKENDS = ("sqlite", "postgres")


def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL for a parametrised backend: ``sqlite`` or ``postgres``."""
    if request.param == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return server.database()
    return f"sqlite:///{tmp_path / 'bot.db'}"
