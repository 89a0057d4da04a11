"""The web pages' port taken by another process: `python -m bot web` (and the bot with
WEB_PORT) stop with one sentence that names the port and the likely cause, not a network
failure."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bot import run


def test_a_taken_port_is_named_with_the_likely_cause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        monkeypatch.setenv("WEB_PORT", str(port))
        monkeypatch.setenv("WEB_HOST", "127.0.0.1")
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'bot.db'}")
        assert run.run_web() == 1
    said = capsys.readouterr().err
    assert f"Could not serve the web pages on 127.0.0.1:{port}" in said, said
    assert "Give WEB_PORT to one process only" in said and "Discord" not in said, said
    assert said.count("\n") == 1  # one sentence
