"""/config, /settings and /match: server and personal settings, match tools and bug reports."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import commands as ui_commands
from bot.ui import replay as replay_ui


class Admin(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="config", description="Show or change this server's settings (changing needs Manage Server)."
    )
    @app_commands.describe(
        turn_timer="Time each player has per decision before the default move is made",
        turn_pings="Mention players in the channel when it is their turn",
        pictures="Show cards as pictures beside the text (off: text only)",
        web="Web pages of this server's leaderboards, players and replays (off by default)",
    )
    @app_commands.choices(
        turn_timer=[
            app_commands.Choice(name=label, value=value)
            for value, label in ui_commands.TURN_TIMER_CHOICES.items()
        ]
    )
    @app_commands.guild_only()
    async def config(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Choice[str] | None = None,
        turn_pings: bool | None = None,
        pictures: bool | None = None,
        web: bool | None = None,
    ) -> None:
        await ui_commands.config_command(
            interaction, int(turn_timer.value) if turn_timer else None, turn_pings, pictures, web
        )

    @app_commands.command(name="settings", description="Your own settings for this bot (only you see them).")
    @app_commands.describe(
        turn_pings="Be mentioned in the channel when it is your turn",
        pictures="See your cards as pictures beside the text (off: text only)",
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_pings: bool | None = None,
        pictures: bool | None = None,
    ) -> None:
        await ui_commands.settings_command(interaction, turn_pings, pictures)

    match = app_commands.Group(name="match", description="Match tools", guild_only=True)

    @match.command(name="log", description="Export a finished match's move log (host or Manage Server).")
    @app_commands.describe(match_id="The match number (default: the latest in this channel)")
    async def log(
        self,
        interaction: discord.Interaction[Any],
        match_id: app_commands.Range[int, 1, 10**12] | None = None,
    ) -> None:
        await ui_commands.match_log_command(interaction, match_id)

    @match.command(name="replay", description="Step through a finished match, move by move, for the channel.")
    @app_commands.describe(match_id="The match number (default: the latest in this channel)")
    @app_commands.autocomplete(match_id=replay_ui.replay_autocomplete)
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match_id: app_commands.Range[int, 1, 10**12] | None = None,
    ) -> None:
        await replay_ui.replay_command(interaction, match_id)

    @match.command(
        name="kick",
        description="Remove a player from this channel's match; the AI plays their seat (host or Manage Server).",
    )
    @app_commands.describe(user="The player to remove")
    async def kick(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        await ui_commands.kick_command(interaction, user)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
