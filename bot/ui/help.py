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
from bot.service import seating
from bot.service.parties import ROUND_CHOICES, TABLE_CHOICES
from bot.ui.party import party_games
from bot.ui.render import COLOUR_LOBBY, DESCRIPTION_LIMIT, clip, player_range
from bot.ui.replies import Interaction, component_view, guarded, wrong_kind

BUTTONS_PER_ROW = 5


@dataclass(frozen=True, slots=True)
class Page:
    label: str  # the button's label
    title: str
    text: str


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def in_words(count: int) -> str:
    """A small count as a word ("five"), a larger one in figures."""
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)


def games_in_words() -> str:
    """How many games the bot offers, from the registry: "five King card games"."""
    return f"{in_words(len(GAMES))} King card game{'' if len(GAMES) == 1 else 's'}"


def start_page() -> Page:
    return Page(
        "Getting started",
        "Getting started",
        f"This bot deals {games_in_words()} in your server's channels.\n\n"
        "1. In a channel, type `/play` and choose a game. A lobby appears.\n"
        "2. Friends press **Join**. The host chooses the options, such as how long the match "
        "lasts, and may press **Add AI** to fill seats.\n"
        "3. The host presses **Start**. The lobby becomes the **table**, a public message that "
        "follows the match.\n"
        "4. Press **My hand** on the table (or type `/hand`): your cards and a button for every "
        "move you may make. Only you see it.\n\n"
        "New to a game? `/learn game:` starts a practice match against the AI that explains each "
        "new situation in your hand, with a **Hint** button. A lobby's **Practice (unrated)** makes "
        "any match practice: it counts on no leaderboard, and every hand has **Hint**.\n\n"
        "Stuck? `/rules game:` explains a game, and `/help` brings back this guide. "
        "The buttons below open the other pages.",
    )


def glance_page() -> Page:
    """The games at a glance: one line per game of the registry."""
    games = f"The {in_words(len(GAMES))} game{'' if len(GAMES) == 1 else 's'}"
    return Page(games, f"{games} at a glance", game_list())


# A few sentences per game, by game id: what a player does, and how long a match takes
# (docs/MEASUREMENTS.md#match-lengths: AI-only matches, six seconds a move).
GAME_NOTES: dict[str, str] = {
    "crown": (
        "Five small games with the cards King, Dragon, Knight, Witch and Beggar (in defend, "
        "support and tourney each player holds all five). "
        "**find**, **support** and **tourney** are for two players, **defend** (the default) for "
        "two to eight, **The King at Court** (a game of questions and bluff) for three to five.\n\n"
        "Length, at six seconds a pick: a minute or less for find (one or two reveals), support "
        "and defend for two (best of three) and tourney (five rounds). Defend with more players "
        "goes on until one is left: about 1 minute for four, 2 for six and 8 for eight (everyone "
        "picks at once, so often less). The King at Court allows up to five minutes of "
        "questioning; the rest takes under a minute."
    ),
    "dreams": (
        "Everyone starts with nothing. On your turn take a coin, buy a card, sell one, attack, "
        "or shuffle or peek at the trump pile. Collect an attack card, a Jack and a Queen; the "
        "first to buy the King wins.\n\n"
        "Length: about 6 minutes for two players and 12 for four. The lobby's turn cap (15, 25 "
        "or 40 turns each) makes it shorter."
    ),
    "dynasty": (
        "A shedding game in the family of UNO: match the top card's suit or kind, or play a "
        "Kingdom card on anything. Dragons, Wizards and Drawbridges make the next player draw. "
        "Call **On Guard** when one card is left. Points are penalties: the lowest total wins. "
        "The lobby chooses the deck: with the Dynasty expansion (the default), the classic deck "
        "alone, or with the Bonus cards.\n\n"
        "Length: five hands by default, about 38 minutes for two players and 95 for eight with "
        "the default deck; the classic deck takes about 20 and 38, the Bonus cards longer. "
        "The lobby also offers 1, 3 or 8 hands, or play to the score limit (the printed rule)."
    ),
    "four": (
        "Play a card to the field, then flip one from the pile. A card of the same colour and "
        "item captures. Score sets for the King (four items of one number and colour), the "
        "Queen (straights) and the Joker (high sums of one item).\n\n"
        "Length: one deal each by default, about 8 minutes for three players and 11 for four. "
        "The lobby also offers wild cards, and two deals each or the printed three (about 25 "
        "minutes for three players, 34 for four)."
    ),
    "court": (
        "Four players, each with a secret King whose suit is theirs. Win tricks with singles, "
        "sets or straight flushes, take cards back from the shared pool, and court runs of your "
        "suit face down. Knock to end a round.\n\n"
        "Length: about 37 minutes to 500 points (the printed rule, the default), 19 to 250 "
        "and 9 to 120."
    ),
}

TURN = Page(
    "Playing a turn",
    "Playing a turn",
    "The table's first line says whose decision is awaited, with a countdown.\n\n"
    "- **My hand** (or `/hand`) shows your cards and one button per legal move. A move with "
    "choices asks one step at a time.\n"
    "- Every game also has its own commands, such as `/dynasty play card:`, and "
    "`/move move:` lists every move you may make now.\n"
    "- When you run out of time the game's default move is made for you; after three missed "
    "turns in a row the AI takes your seat, and the match counts as a loss for you.\n"
    "- `/leave` hands your seat to the AI once you confirm (it counts as a loss).\n"
    "- `/cancel` ends the match for everyone, and then it counts for nobody. Only the host or "
    "someone with **Manage Server** may cancel, and only they may remove a player with "
    "`/match kick user:` (the AI takes the seat).\n"
    "- **Log** shows the latest moves. When the match ends the table shows the result, "
    "**Rematch**, **Replay** (the match again, move by move; `/match replay` posts one for the "
    "channel) and **Log**; the host or someone with Manage Server may export every move with "
    "`/match log`.",
)

AI = Page(
    "AI levels",
    "AI levels",
    "In the lobby the host adds AI seats at three levels:\n\n"
    "- **Add easy AI**: plays a random legal move.\n"
    "- **Add AI** (normal): plays the game's own strategy.\n"
    "- **Add hard AI**: tries its moves out on many possible deals before choosing. It thinks "
    "for up to about a second.\n\n"
    '**Remove AI** takes a seat back. The seat shows its level, e.g. "AI 1 (hard AI)". Matches '
    "with an AI seat count for wins and losses but do not change anyone's skill rating.",
)


def span(choices: tuple[tuple[str, str], ...]) -> str:
    """The first to the last of a party option's numeric choices: "2 to 4"."""
    return f"{choices[0][0]} to {choices[-1][0]}"


def and_list(words: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else "".join(words)


def parties_page() -> Page:
    games = [GAMES[g] for g in party_games()]
    low = and_list([g.name for g in games if g.low_score_wins])
    lowest = f" (the lowest, in {low})" if low else ""
    return Page(
        "Parties",
        "Parties",
        f"`/party game:` seats {seating.MIN_PLAYERS} to {seating.MAX_PLAYERS} players at several "
        f"tables, one thread each: the host chooses {span(TABLE_CHOICES)} tables and "
        f"{span(ROUND_CHOICES)} rounds. Every round each table plays one match; then each "
        "table's winner moves to the next table.\n\n"
        f"Games: {and_list([g.name for g in games])}. Your party score adds up your match totals; "
        f"the best score after the last round wins{lowest}. The AI fills seats to make up a "
        "table but never wins a party. `/leave` at a table leaves the whole party (the AI plays "
        "on for you); `/cancel` in the party's channel ends it (the host or someone with Manage "
        "Server).",
    )


LEADERBOARDS = Page(
    "Leaderboards",
    "Leaderboards and seasons",
    "Every finished match counts on this server's boards, except practice matches.\n\n"
    "- `/leaderboard game:` ranks the players of one game (skill, wins and losses, placing, "
    "points); add `season:` for a past season.\n"
    "- `/stats` shows your record across every game; add `user:` for another player's.\n"
    "- `/season start name:` closes the current season, keeping its champions, and opens a "
    "new one with that name; `/season end` closes it and opens the next. Both need **Manage "
    "Server**. `/season list` shows every season and its champions.\n\n"
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
    "`/settings` holds your own choices, the same in every server: `turn_pings` and "
    "`pictures`.",
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
    """Every page in order: getting started, the games (as many as the registry holds), then
    the topics."""
    games = [game_page(g) for g in GAMES]
    return [start_page(), glance_page(), *games, TURN, AI, parties_page(), LEADERBOARDS, SETTINGS]


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
    f"Hello! I deal {games_in_words()}. Type `/help` for a short guide, or `/play` to open a "
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
