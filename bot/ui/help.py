"""/help: a short guide to the bot, one topic per page, with a button for every page.

    kg:help:<page>    the button that shows that page (the page number is all it carries)

The guide is ephemeral. A button on it turns the page in place; the same button on a public
message (none today, but a custom id can be pasted anywhere) answers with a fresh private
guide instead. Each game has a page of its own, pointing to ``/rules game:<id>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.games import GAMES
from bot.ui.render import COLOUR_LOBBY, DESCRIPTION_LIMIT, clip, player_range
from bot.ui.replies import Interaction, component_view, guarded, wrong_kind

BUTTONS_PER_ROW = 5


@dataclass(frozen=True, slots=True)
class Page:
    label: str  # the button's label
    title: str
    text: str


START = Page(
    "Getting started",
    "Getting started",
    "This bot deals five King card games in your server's channels.\n\n"
    "1. In a channel, type `/play` and choose a game. A lobby appears.\n"
    "2. Friends press **Join**; the host may press **Add AI** to fill seats.\n"
    "3. The host presses **Start**. The lobby becomes the **table**, a public message that "
    "follows the match.\n"
    "4. Press **My hand** on the table (or type `/hand`): your cards and a button for every "
    "move you may make. Only you see it.\n\n"
    "New to a game? `/learn game:` starts a practice match against the AI that explains each "
    "new situation in your hand, with a **Hint** button. A lobby's **Practice (unrated)** makes any "
    "match practice: no rating, and Hint in every hand.\n\n"
    "Stuck? `/rules game:` explains a game, and `/help` brings back this guide. "
    "The buttons below open the other pages.",
)

GAMES_AT_A_GLANCE = Page(
    "The five games",
    "The five games at a glance",
    "",  # filled in from the registry: see game_list()
)

# A few sentences per game, by game id: what a player does, and how long a match takes.
GAME_NOTES: dict[str, str] = {
    "crown": (
        "Five small games played with a deck of five cards each (King, Dragon, Knight, Witch, "
        "Beggar). **find**, **support** and **tourney** are for two players, **defend** for two to "
        "eight, **The King at Court** (a game of questions and bluff) for three to five.\n\n"
        "Length: a few picks. find is one or two reveals; support, and defend for two, are best "
        "of three (defend with more players goes on until one is left); "
        "tourney has five rounds; The King at Court allows at most five minutes of questioning."
    ),
    "dreams": (
        "Everyone starts with nothing. On your turn take a coin, buy a card, sell one, attack, "
        "or shuffle or peek at the trump pile. Collect an attack card, a Jack and a Queen; the "
        "first to buy the King wins.\n\n"
        "Length: about 6 minutes for two players and 12 for four. The lobby's turn cap makes "
        "it shorter."
    ),
    "dynasty": (
        "A shedding game in the family of UNO: match the top card's suit or kind, or play a "
        "Kingdom card on anything. Dragons, Wizards and Drawbridges make the next player draw. "
        "Call **On Guard** when one card is left. Points are penalties: the lowest total wins. "
        "The lobby chooses the deck: classic, with the Dynasty expansion, or with the Bonus cards.\n\n"
        "Length: five hands by default, about 20 minutes for two players and 38 for eight "
        "with the classic deck; the expansions take longer. The lobby offers 1, 3 or 8 hands."
    ),
    "four": (
        "Play a card to the field, then flip one from the pile. A card of the same colour and "
        "item captures. Score sets for the King (four items of one number and colour), the "
        "Queen (straights) and the Joker (high sums of one item).\n\n"
        "Length: one deal each by default, about 8 minutes for three players and 11 for four; "
        "the lobby also offers two deals or the printed three."
    ),
    "court": (
        "Four players, each with a secret King whose suit is theirs. Win tricks with singles, "
        "sets or straight flushes, take cards back from the shared pool, and court runs of your "
        "suit face down. Knock to end a round.\n\n"
        "Length: about 34 minutes to 500 points (the printed rule), 17 to 250 and 8 to 120."
    ),
}

TURN = Page(
    "Playing a turn",
    "Playing a turn",
    "The table's first line says whose decision is awaited, with a countdown.\n\n"
    "- **My hand** (or `/hand`) shows your cards and one button per legal move. A move with "
    "choices asks one step at a time.\n"
    "- Every game also has its own commands, such as `/dynasty play card:`, and `/move` "
    "lists every move you may make now.\n"
    "- When you run out of time the game's default move is made for you; after three missed "
    "turns in a row the AI takes your seat.\n"
    "- `/leave` hands your seat to the AI (it counts as a loss) once you confirm. The host can `/cancel`.\n"
    "- When the match ends the table shows the result, **Rematch**, **Replay** (the match again, "
    "move by move; `/match replay` posts one for the channel) and **Log**.",
)

AI = Page(
    "AI levels",
    "AI levels",
    "In the lobby the host adds AI seats at three levels:\n\n"
    "- **Add easy AI**: plays a random legal move.\n"
    "- **Add AI** (normal): plays the game's own strategy.\n"
    "- **Add hard AI**: tries its moves out on many possible deals before choosing. It thinks "
    "for up to about a second.\n\n"
    'The seat shows its level, e.g. "AI 1 (hard AI)". Matches with an AI seat do not change '
    "anyone's skill rating.",
)

PARTIES = Page(
    "Parties",
    "Parties",
    "`/party game:` seats 4 to 16 players at two or more tables, one thread each. Every round "
    "each table plays one match; then each table's winner moves to the next table.\n\n"
    "Games: King's Dynasty, Kingdom Four and King's Court (trick-and-meld). Your party score "
    "adds up your match totals; the best score after the last round wins. AI players fill "
    "empty seats but never win a party.",
)

LEADERBOARDS = Page(
    "Leaderboards",
    "Leaderboards and seasons",
    "Every finished match counts on this server's boards.\n\n"
    "- `/leaderboard game:` ranks the players of one game (skill, wins, losses, points).\n"
    "- `/stats user:` shows one player across every game.\n"
    "- `/season start name:` and `/season end` close a season and keep its champions "
    "(Manage Server); `/season list` shows them all.\n\n"
    "Cancelled matches count for nobody, and leaving a match counts as a loss.",
)

SETTINGS = Page(
    "Server settings",
    "Server settings",
    "`/config` shows this server's settings; changing them needs **Manage Server**.\n\n"
    "- `turn_timer`: time for each decision: 1, 3 (default) or 10 minutes, 24 hours, or off.\n"
    "- `turn_pings`: mention players when it is their turn (default on).\n"
    "- `pictures`: card pictures beside the text (default on).\n"
    "- `web`: web pages of this server's leaderboards, players and replays, at an address "
    "nobody can guess (default off).\n\n"
    "`/settings` holds your own choices in every server: turn mentions and card pictures. "
    "The host or a manager can `/match kick user:` a player and export a finished match with "
    "`/match log`.",
)


def game_page(game_id: str) -> Page:
    game = GAMES[game_id]
    notes = GAME_NOTES.get(game_id, game.summary)
    text = (
        f"{player_range(game)}.\n\n{notes}\n\n"
        f"Full rules and this bot's rulings: `/rules game:{game_id}`. Start a match: `/play game:{game_id}`."
    )
    return Page(game.name, game.name, text)


def game_list() -> str:
    lines = [f"**{g.name}** ({player_range(g)}): {g.summary}" for g in GAMES.values()]
    return "\n".join(lines) + "\n\nEach game's own page (buttons below) says how long a match takes."


def pages() -> list[Page]:
    """Every page in order: getting started, the games, then the topics."""
    glance = Page(GAMES_AT_A_GLANCE.label, GAMES_AT_A_GLANCE.title, game_list())
    return [START, glance, *(game_page(g) for g in GAMES), TURN, AI, PARTIES, LEADERBOARDS, SETTINGS]


def help_message(page: int) -> tuple[discord.Embed, discord.ui.View]:
    every = pages()
    page = max(0, min(page, len(every) - 1))
    shown = every[page]
    embed = discord.Embed(
        title=f"Guide: {shown.title}"[:256],
        description=clip(shown.text, DESCRIPTION_LIMIT),
        colour=COLOUR_LOBBY,
    )
    embed.set_footer(text=f"Page {page + 1} of {len(every)} · only you see this")
    view = component_view()
    for index, target in enumerate(every[:25]):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(target.label, 80),
            custom_id=f"kg:help:{index}",
            style=discord.ButtonStyle.primary if index == page else discord.ButtonStyle.secondary,
            disabled=index == page,
            row=index // BUTTONS_PER_ROW,
        )
        view.add_item(HelpButton(index, button))
    return embed, view


class HelpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kg:help:(?P<page>\d{1,2})"):
    def __init__(self, page: int, button: discord.ui.Button[Any] | None = None) -> None:
        super().__init__(button or discord.ui.Button(label="Guide", custom_id=f"kg:help:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Any, match: re.Match[str], /) -> HelpButton:
        return cls(int(match["page"]), item)

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, turn_page(interaction, self.page))


async def turn_page(interaction: Interaction, page: int) -> None:
    embed, view = help_message(page)
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def help_command(interaction: Interaction) -> None:
    embed, view = help_message(0)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


WELCOME = (
    "Hello! I deal five King card games. Type `/help` for a short guide, or `/play` to open a "
    "lobby in a channel."
)


async def welcome(guild: discord.Guild) -> None:
    """The bot's first message in a server it joins: where to start (the system channel, or
    the first text channel it may write in; nothing if there is none)."""
    me = guild.me
    candidates = [guild.system_channel, *sorted(guild.text_channels, key=lambda c: c.position)]
    for channel in candidates:
        if channel is None or me is None:
            continue
        perms = channel.permissions_for(me)
        if perms.view_channel and perms.send_messages:
            await channel.send(WELCOME)
            return


HELP_ITEMS = (HelpButton,)
