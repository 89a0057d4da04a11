"""Commands shared by every game: /play, /learn, /party, /hand, /move, /rules, /leave, /cancel."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.ui import commands as ui_commands
from bot.ui import lobby, replies
from bot.ui import party as party_ui
from bot.ui import rules as rules_ui
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.leaderboard import DYNAMIC_ITEMS as LEADERBOARD_ITEMS

GAME_CHOICES = [app_commands.Choice(name=g.name, value=g.id) for g in GAMES.values()]
PARTY_CHOICES = [app_commands.Choice(name=GAMES[g].name, value=g) for g in party_ui.party_games()]


class Lobby(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Open a lobby for a card game in this channel.")
    @app_commands.describe(game="The game to play")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        await lobby.open_lobby(interaction, game.value)

    @app_commands.command(
        name="learn", description="Learn a game: a practice match against the AI that explains itself."
    )
    @app_commands.describe(game="The game to learn")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def learn(self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        await ui_commands.learn_command(interaction, game.value)

    @app_commands.command(
        name="party", description="Open a party: several tables at once, winners moving on."
    )
    @app_commands.describe(game="The game the tables play")
    @app_commands.choices(game=PARTY_CHOICES)
    @app_commands.guild_only()
    async def party(self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        await party_ui.open_party(interaction, game.value)

    @app_commands.command(
        name="hand", description="See your cards and moves in this channel's match (only you see it)."
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await ui_commands.hand_command(interaction)

    @app_commands.command(
        name="move", description="Make any of your moves in this channel's match (the list shows them)."
    )
    @app_commands.describe(move="One of your legal moves now")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction[Any], move: str) -> None:
        await ui_commands.play_command(interaction, None, (), move)

    @move.autocomplete("move")
    async def move_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await ui_commands.autocomplete_moves(interaction, None, (), current)

    @app_commands.command(name="rules", description="The rules of a game, with this bot's rulings.")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        await rules_ui.rules_command(interaction, game.value)

    @app_commands.command(
        name="leave",
        description="Leave this channel's lobby, or hand your seat in a running match to the AI (asks first).",
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await ui_commands.leave_command(interaction)

    @app_commands.command(name="cancel", description="End this channel's match (host or Manage Server).")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await ui_commands.cancel_command(interaction)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Forged, truncated or retired custom ids get one ephemeral sentence, not silence."""
        await replies.answer_stray(interaction, (*DYNAMIC_ITEMS, *LEADERBOARD_ITEMS))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
