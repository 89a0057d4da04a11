"""Text on the pages: Discord's markdown as HTML, an embed's parts, and the small formats the
templates use (dates, percentages, game names)."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from markupsafe import Markup, escape

from bot.service.leaderboard import ChampionRecord, game_name

# Discord's inline marks, on text already escaped (so no mark can open a tag of its own).
MARKS = (
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"__(.+?)__"), r"<u>\1</u>"),
    (re.compile(r"~~(.+?)~~"), r"<s>\1</s>"),
    (re.compile(r"`([^`]+?)`"), r"<code>\1</code>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
)


def markdown(value: str) -> Markup:
    """Discord's bold, underline, strike-through, code and italics as HTML, line breaks kept."""
    html = str(escape(value))
    for pattern, replacement in MARKS:
        html = pattern.sub(replacement, html)
    return Markup(html.replace("\n", "<br>\n"))


@dataclass(frozen=True, slots=True)
class EmbedParts:
    title: str
    description: Markup
    fields: tuple[tuple[Markup, Markup], ...]
    footer: str


def embed_parts(embed: discord.Embed) -> EmbedParts:
    """What a table's embed shows, ready for a template."""
    return EmbedParts(
        title=embed.title or "",
        description=markdown(embed.description or ""),
        fields=tuple((markdown(f.name or ""), markdown(f.value or "")) for f in embed.fields),
        footer=embed.footer.text or "",
    )


def day(timestamp: float | None) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(timestamp)) if timestamp else ""


def percent(share: float) -> str:
    return f"{share:.0%}"


def by_game(champions: Sequence[ChampionRecord]) -> list[tuple[str, list[ChampionRecord]]]:
    """A season's champions grouped by game (games by name), each podium in place order."""
    games: dict[str, list[ChampionRecord]] = {}
    for c in sorted(champions, key=lambda c: c.place):
        games.setdefault(c.game_id, []).append(c)
    return sorted(games.items(), key=lambda kv: game_name(kv[0]))


FILTERS: dict[str, Any] = {"day": day, "percent": percent, "game_name": game_name, "markdown": markdown}
