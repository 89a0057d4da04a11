"""/dynasty ...: King's Court / King's Dynasty moves as slash commands.

Every command offers, through autocomplete, only the caller's legal moves of its kind; the
hand's buttons reach the same moves. Out-of-turn moves (On Guard catches, answers to draw
cards, Defender, Risk cards, Dungeon escape, Warlord) work whenever their window is open.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import flow

GAME = "dynasty"
PLAYS = ("p", "t")  # a card from the hand ("t": the dealer's answer to the first table card)


@app_commands.guild_only()
class Dynasty(commands.GroupCog, group_name="dynasty", group_description="Moves of King's Court / King's Dynasty"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _do(self, interaction: discord.Interaction[Any], prefix: str | tuple[str, ...], text: str = "") -> None:
        await flow.play_command(interaction, GAME, prefix, text)

    @app_commands.command(name="play", description="Play a card (with its suit, direction or extra card choices).")
    @app_commands.describe(card="The card and its choices (the list shows what you may play now)")
    @app_commands.autocomplete(card=flow.move_autocomplete(GAME, PLAYS))
    async def play(self, interaction: discord.Interaction[Any], card: str) -> None:
        await self._do(interaction, PLAYS, card)

    @app_commands.command(name="draw", description="Draw a card instead of playing.")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, "d")

    @app_commands.command(name="pass", description="Pass after drawing, or end the turn without an extra card.")
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, ("pass", "x"))

    @app_commands.command(name="onguard", description="Call On Guard with one card left.")
    async def onguard(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, "og")

    @app_commands.command(name="catch", description="Catch a player who did not call On Guard (they draw 2).")
    @app_commands.describe(player="Who to catch")
    @app_commands.autocomplete(player=flow.move_autocomplete(GAME, "c"))
    async def catch(self, interaction: discord.Interaction[Any], player: str = "") -> None:
        await self._do(interaction, "c", player)

    @app_commands.command(name="accept", description="Take a draw card or battle card aimed at you without answering.")
    async def accept(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, ("acc", "take"))

    @app_commands.command(name="defend", description="Answer a battle card with a Defender.")
    async def defend(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, "def")

    @app_commands.command(name="risk", description="Play a Risk card from in front of you (any time in the hand).")
    @app_commands.describe(card="The Risk card")
    @app_commands.autocomplete(card=flow.move_autocomplete(GAME, "r"))
    async def risk(self, interaction: discord.Interaction[Any], card: str) -> None:
        await self._do(interaction, "r", card)

    @app_commands.command(name="escape", description="Escape the Dungeon by discarding it (right after your second draw).")
    async def escape(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, "esc")

    @app_commands.command(name="warlord", description="Play the Warlord: make this player's turn for them.")
    async def warlord(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, "war")

    @app_commands.command(name="ask", description="Partners: ask your partner whether you may go out.")
    async def ask(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, "ask")

    @app_commands.command(name="reply", description="Partners: answer your partner, or decline to go out after a Yes.")
    @app_commands.describe(answer="Your answer")
    @app_commands.autocomplete(answer=flow.move_autocomplete(GAME, ("yes", "no", "f")))
    async def reply(self, interaction: discord.Interaction[Any], answer: str) -> None:
        await self._do(interaction, ("yes", "no", "f"), answer)

    @app_commands.command(name="key", description="Secret Key: take any card of your choice from the draw pile.")
    @app_commands.describe(card="The card to take")
    @app_commands.autocomplete(card=flow.move_autocomplete(GAME, "k"))
    async def key(self, interaction: discord.Interaction[Any], card: str) -> None:
        await self._do(interaction, "k", card)

    @app_commands.command(name="deal", description="Dealer: cut for the dealing bonus, or deal normally.")
    @app_commands.describe(choice="Cut for the bonus, or deal")
    @app_commands.autocomplete(choice=flow.move_autocomplete(GAME, ("cut", "deal")))
    async def deal(self, interaction: discord.Interaction[Any], choice: str) -> None:
        await self._do(interaction, ("cut", "deal"), choice)

    @app_commands.command(name="wait", description="Let an open window pass without an out-of-turn play.")
    async def wait(self, interaction: discord.Interaction[Any]) -> None:
        await self._do(interaction, "wait")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Dynasty(bot))
