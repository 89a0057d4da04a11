"""mypy over bot/, cogs/ and db/ with the project's configuration (pyproject.toml): CI runs
only pytest, so the type check is a test."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_is_clean() -> None:
    out, err, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache")]
    )
    assert status == 0, out + err
