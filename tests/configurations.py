"""The option configurations the suites play, derived from what each engine declares (its
options and their choices), so a new game is covered with no test edit."""

from __future__ import annotations

from typing import Any


def option_values(option: Any) -> list[str]:
    """The values to try for one option: every choice; for a multi-choice option (a
    comma-joined subset, "" for none) the default, each choice alone and all of them."""
    choices = [value for value, _label in option.choices]
    if not getattr(option, "multi", False):
        return choices
    values = [option.default_value, "", *choices, ",".join(choices)]
    return list(dict.fromkeys(values))


def option_sets(game: Any) -> list[dict[str, str]]:
    """The defaults, then every other value of every option with the rest at default."""
    base = {o.key: o.default_value for o in game.options}
    sets = [dict(base)]
    for option in game.options:
        for value in option_values(option):
            candidate = {**base, option.key: value}
            if candidate not in sets:
                sets.append(candidate)
    return sets
