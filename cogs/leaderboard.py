"""/leaderboard, /stats and /season start|end|list: thin wrappers over bot.ui.leaderboard."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.ui import leaderboard as ui

GAME_CHOICES = [app_commands.Choice(name=g.name, value=g.id) for g in GAMES.values()]


@app_commands.guild_only()
class Seasons(
    commands.GroupCog, group_name="season", group_description="Seasons of this server's leaderboards"
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="start",
        description="End the current season, crown its champions and start a new one (Manage Server).",
    )
    @app_commands.describe(name="The new season's name")
    async def start(
        self, interaction: discord.Interaction[Any], name: app_commands.Range[str, 1, 64]
    ) -> None:
        await ui.season_start_command(interaction, name)

    @app_commands.command(
        name="end", description="End the current season and crown its champions (Manage Server)."
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await ui.season_end_command(interaction)

    @app_commands.command(name="list", description="This server's seasons and their champions.")
    async def list_seasons(self, interaction: discord.Interaction[Any]) -> None:
        await ui.season_list_command(interaction)


class Leaderboards(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="A game's ranking on this server.")
    @app_commands.describe(game="The game", season="A past season (default: the current one)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(season=ui.season_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        season: app_commands.Range[int, 1, 999999] | None = None,
    ) -> None:
        await ui.leaderboard_command(interaction, game.value, season)

    @app_commands.command(name="stats", description="A player's record, skill and rank on this server.")
    @app_commands.describe(user="The player (default: you)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        await ui.stats_command(interaction, user)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Seasons(bot))
    await bot.add_cog(Leaderboards(bot))
