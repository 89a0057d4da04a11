"""The README's game command rows and the commands the engines declare are the same set.

Each game's slash commands are built from its engine's ``commands`` (``cogs/games.py``); the
README lists them in rows whose first cell names them, e.g. ``| `/court knock`, `/court flop` |``.
A command added, renamed or given another option must show in the README, and a row must
not name a command the bot does not have.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"`/(?P<game>[a-z0-9_]+) (?P<name>[a-z0-9_]+)(?: (?P<option>[a-z0-9_]+):)?`")


def readme_rows() -> list[str]:
    return [line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("| `/")]


def documented() -> set[tuple[str, str, str]]:
    """(game id, command, option or "") for every game command a row's first cell names."""
    found = set()
    for row in readme_rows():
        for named in NAMED.finditer(row.split("|")[1]):
            if named["game"] in GAMES:
                found.add((named["game"], named["name"], named["option"] or ""))
    return found


def declared() -> set[tuple[str, str, str]]:
    return {(game.id, spec.name, spec.option) for game in GAMES.values() for spec in game.commands}


def test_the_rows_are_found_at_all() -> None:
    assert ("court", "knock", "") in documented() and ("dynasty", "play", "card") in documented()


def test_readme_game_command_rows_match_the_declared_commands() -> None:
    rows, engines = documented(), declared()
    assert not engines - rows, f"declared but not in the README: {sorted(engines - rows)}"
    assert not rows - engines, f"in the README but not declared: {sorted(rows - engines)}"


def test_each_game_command_is_named_once() -> None:
    names = [
        (m["game"], m["name"])
        for row in readme_rows()
        for m in NAMED.finditer(row.split("|")[1])
        if m["game"] in GAMES
    ]
    assert len(names) == len(set(names))
