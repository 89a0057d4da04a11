"""/rules: a game's rules, one section per page, with a select to turn the pages.

    kg:rules:<game id>    the section select (the chosen value is the page number)

The first page is the game's overview; the rest follow the rules text's bold headings
(``**Title**`` at the start of a line), so an engine's ``rules`` needs no extra markup.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.games import GAMES
from bot.games.base import Game
from bot.ui.render import COLOUR_LOBBY, DESCRIPTION_LIMIT, clip, player_range
from bot.ui.replies import Interaction, component_view, guarded, say, wrong_kind

HEADING = re.compile(r"^\*\*(?P<title>[^*]+)\*\*")


def rules_pages(game: Game) -> list[tuple[str, str]]:
    """(title, text) per section of the rules, in order."""
    pages: list[tuple[str, list[str]]] = []
    for line in game.rules.strip().splitlines():
        found = HEADING.match(line)
        if found or not pages:
            title = found["title"].strip(" :") if found else "How to play"
            pages.append((title, []))
        pages[-1][1].append(line)
    return [(title, "\n".join(lines).strip()) for title, lines in pages]


def rules_message(game: Game, page: int) -> tuple[discord.Embed, discord.ui.View]:
    pages = rules_pages(game)
    page = max(0, min(page, len(pages) - 1))
    title, text = pages[page]
    header = f"{game.summary}\n{player_range(game)}\n\n" if page == 0 else ""
    footer = "\n\n*Choose a section below.*" if page == 0 and len(pages) > 1 else ""
    embed = discord.Embed(
        title=f"Rules: {game.name}" + ("" if page == 0 else f" · {title}"),
        description=clip(header + text + footer, DESCRIPTION_LIMIT),
        colour=COLOUR_LOBBY,
    )
    embed.set_footer(text=f"Section {page + 1} of {len(pages)} · only you see this")
    view = component_view()
    if len(pages) > 1:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"kg:rules:{game.id}",
            placeholder="Go to a section",
            options=[
                discord.SelectOption(label=clip(t, 100), value=str(i), default=i == page)
                for i, (t, _text) in enumerate(pages[:25])
            ],
        )
        view.add_item(RulesSelect(game.id, select))
    return embed, view


class RulesSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"kg:rules:(?P<game>[a-z0-9_]{1,32})"
):
    def __init__(self, game_id: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select
            or discord.ui.Select(custom_id=f"kg:rules:{game_id}", options=[discord.SelectOption(label="-")])
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Any, match: re.Match[str], /
    ) -> RulesSelect:
        return cls(match["game"], item)

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        await guarded(interaction, turn_page(interaction, self.game_id, list(self.item.values)))


async def turn_page(interaction: Interaction, game_id: str, values: list[str]) -> None:
    game = GAMES.get(game_id)
    if game is None:
        await say(interaction, "That game is not available any more.")
        return
    try:
        page = int(values[0])
    except (IndexError, ValueError):
        page = 0
    embed, view = rules_message(game, page)
    await interaction.response.edit_message(embed=embed, view=view)


async def rules_command(interaction: Interaction, game_id: str) -> None:
    embed, view = rules_message(GAMES[game_id], 0)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


RULES_ITEMS = (RulesSelect,)
