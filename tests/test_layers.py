"""The import rules of docs/ARCHITECTURE.md, checked by reading every module's imports."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names) | {"__future__"}

# layer -> (files, allowed top-level third-party packages, allowed project packages)
RULES: dict[str, tuple[str, set[str], tuple[str, ...]]] = {
    "engines": ("bot/games/**/*.py", set(), ("bot.games",)),
    "database": ("db/**/*.py", {"sqlalchemy", "sqlmodel", "alembic", "openskill", "orjson"}, ("db",)),
    "service": ("bot/service/**/*.py", {"openskill"}, ("bot.games", "bot.service", "db")),
    "images": ("bot/images/**/*.py", {"PIL"}, ("bot.games", "bot.images")),
    "ui": ("bot/ui/**/*.py", {"discord"}, ("bot.games", "bot.service", "bot.ui", "bot.images")),
    "cogs": ("cogs/**/*.py", {"discord"}, ("bot.games", "bot.service", "bot.ui")),
    "simulate": ("bot/simulate.py", set(), ("bot.games",)),
}


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def _allowed(name: str, third_party: set[str], project: tuple[str, ...]) -> bool:
    top = name.split(".")[0]
    if top in STDLIB:
        return True
    if top in third_party:
        return True
    return any(name == p or name.startswith(p + ".") for p in project)


@pytest.mark.parametrize("layer", sorted(RULES))
def test_layer_imports(layer: str) -> None:
    pattern, third_party, project = RULES[layer]
    files = sorted(ROOT.glob(pattern))
    assert files, f"no files for {layer}"
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in files
        for name in imports_of(path)
        if not _allowed(name, third_party, project)
    ]
    assert not bad, "\n".join(bad)


def test_engines_have_no_clock_or_global_random() -> None:
    """Engines may seed a private ``random.Random`` from their own state, never use the global one."""
    for path in sorted(ROOT.glob("bot/games/**/*.py")):
        names = imports_of(path)
        for forbidden in ("time", "datetime", "asyncio", "secrets"):
            assert forbidden not in names, f"{path.relative_to(ROOT)} imports {forbidden}"
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert all(a.name == "Random" for a in node.names), f"{path.relative_to(ROOT)}: global random"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                assert node.attr == "Random", f"{path.relative_to(ROOT)} uses the global random.{node.attr}"


def test_nothing_imports_cogs() -> None:
    for path in sorted(ROOT.glob("**/*.py")):
        if ".venv" in path.parts or path.is_relative_to(ROOT / "tests"):
            continue
        for name in imports_of(path):
            assert not name.startswith("cogs"), f"{path.relative_to(ROOT)} imports {name}"


def test_sql_only_in_db() -> None:
    for path in sorted(ROOT.glob("**/*.py")):
        rel = path.relative_to(ROOT)
        if ".venv" in path.parts or rel.parts[0] in ("db", "tests", "benchmarks"):
            continue
        for name in imports_of(path):
            top = name.split(".")[0]
            assert top not in ("sqlalchemy", "sqlmodel", "aiosqlite", "asyncpg", "alembic"), f"{rel} imports {name}"
