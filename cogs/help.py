"""/help, and the bot's first message in a server it joins (which points to /help)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import help as help_ui


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="help", description="A short guide to this bot, one topic a page (only you see it)."
    )
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await help_ui.help_command(interaction)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await help_ui.welcome(guild)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
