"""One slash command group per registered game, built from the commands its engine declares.

``/<game id> <command> [option:]`` plays the caller's legal move of the kinds the command
covers (see :class:`bot.games.base.Command`); its option autocompletes with those moves.
No move code is written here: a game's commands are data in its engine module.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.games.base import Command, Game
from bot.ui import commands as ui_commands

Interaction = discord.Interaction[Any]


def game_command(game_id: str, spec: Command) -> app_commands.Command[Any, Any, None]:
    """The slash command for one declared game command."""
    kinds = spec.moves
    if spec.option:

        async def with_option(interaction: Interaction, choice: str) -> None:
            await ui_commands.play_command(interaction, game_id, kinds, choice)

        callback: Any = app_commands.rename(choice=spec.option)(with_option)
        callback = app_commands.describe(choice=spec.option_description or spec.description)(callback)
        callback = app_commands.autocomplete(choice=ui_commands.move_autocomplete(game_id, kinds))(callback)
    else:

        async def without_option(interaction: Interaction) -> None:
            await ui_commands.play_command(interaction, game_id, kinds, "")

        callback = without_option
    return app_commands.Command(name=spec.name, description=spec.description, callback=callback)


def game_group(game: Game) -> app_commands.Group | None:
    """``/<game id>`` with the game's declared commands, or None if it declares none."""
    if not game.commands:
        return None
    group = app_commands.Group(name=game.id, description=f"Moves of {game.name}"[:100], guild_only=True)
    for spec in game.commands:
        group.add_command(game_command(game.id, spec))
    return group


class GameCommands(commands.Cog):
    """Holds the groups so that unloading the extension removes them again."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.groups = [g for g in (game_group(game) for game in GAMES.values()) if g is not None]

    async def cog_load(self) -> None:
        for group in self.groups:
            self.bot.tree.add_command(group)

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCommands(bot))
