"""Every setting the bot reads from the environment is in `.env.example` and in the README's
settings table, and neither names a setting the bot does not read."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTING = re.compile(
    r"""\(\s*["']([A-Z][A-Z0-9_]+)["']"""
)  # _float("AI_DELAY", ...), environ.get("DISCORD_TOKEN")


def read_by_the_bot() -> set[str]:
    return set(SETTING.findall((ROOT / "bot" / "settings.py").read_text()))


def test_the_settings_are_found_at_all() -> None:
    assert {
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "AI_PROCESSES",
        "ANSWERS_FIRST_SECONDS",
        "SHARD_IDS",
    } <= read_by_the_bot()


def test_env_example_lists_exactly_the_settings() -> None:
    lines = (ROOT / ".env.example").read_text().splitlines()
    listed = {line.split("=", 1)[0] for line in lines if re.match(r"[A-Z][A-Z0-9_]*=", line)}
    assert listed == read_by_the_bot()


def test_readme_settings_table_lists_exactly_the_settings() -> None:
    readme = (ROOT / "README.md").read_text()
    rows = [line for line in readme.splitlines() if line.startswith("| `")]
    named = {
        name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1])
    }  # first cells
    assert named == read_by_the_bot()
