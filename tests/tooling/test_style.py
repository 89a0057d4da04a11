"""The code's form: ``ruff format`` and ``ruff check`` agree with every file (CI runs this)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_format_changes_nothing() -> None:
    result = ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_passes() -> None:
    result = ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
