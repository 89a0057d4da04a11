"""/crown ...: King and Crown moves as slash commands (the hand's buttons do the same)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import flow

GAME = "crown"


@app_commands.guild_only()
class Crown(commands.GroupCog, group_name="crown", group_description="Moves of King and Crown"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="pick", description="Pick your secret card (defend, support, tourney).")
    @app_commands.describe(card="The card to pick")
    @app_commands.autocomplete(card=flow.move_autocomplete(GAME, "pick"))
    async def pick(self, interaction: discord.Interaction[Any], card: str) -> None:
        await flow.play_command(interaction, GAME, "pick", card)

    @app_commands.command(name="reveal", description="Find the King: reveal a face-down place.")
    @app_commands.describe(place="The place to reveal (1-5)")
    @app_commands.autocomplete(place=flow.move_autocomplete(GAME, "reveal"))
    async def reveal(self, interaction: discord.Interaction[Any], place: str) -> None:
        await flow.play_command(interaction, GAME, "reveal", place)

    @app_commands.command(name="end", description="The King at Court: the King ends the questioning.")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await flow.play_command(interaction, GAME, "end", "")

    @app_commands.command(name="witch", description="The King at Court: the Witch reveals every card and re-deals.")
    async def witch(self, interaction: discord.Interaction[Any]) -> None:
        await flow.play_command(interaction, GAME, "witch", "")

    @app_commands.command(name="peek", description="The King at Court: the former Knight looks at one card.")
    @app_commands.describe(player="Whose card to look at")
    @app_commands.autocomplete(player=flow.move_autocomplete(GAME, "peek"))
    async def peek(self, interaction: discord.Interaction[Any], player: str) -> None:
        await flow.play_command(interaction, GAME, "peek", player)

    @app_commands.command(name="accuse", description="The King at Court: accuse a player of being the Dragon.")
    @app_commands.describe(player="Who you accuse")
    @app_commands.autocomplete(player=flow.move_autocomplete(GAME, "accuse"))
    async def accuse(self, interaction: discord.Interaction[Any], player: str) -> None:
        await flow.play_command(interaction, GAME, "accuse", player)

    @app_commands.command(name="beggar", description="The King at Court: as the Beggar, join the Wicked or stay.")
    @app_commands.describe(choice="Join the Wicked, or stay hidden")
    @app_commands.choices(
        choice=[app_commands.Choice(name="Join the Wicked", value="join"), app_commands.Choice(name="Stay", value="stay")]
    )
    async def beggar(self, interaction: discord.Interaction[Any], choice: app_commands.Choice[str]) -> None:
        await flow.play_command(interaction, GAME, choice.value, "")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Crown(bot))
