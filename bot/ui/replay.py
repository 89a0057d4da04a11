"""Replays: a finished match's table again, step by step, with the move that led there.

    kg:replay:<match>                          the end screen's Replay (a replay only you see)
    kg:rp:<match>:<step>:<reveal>:<f|b|n|l|r>  first, back, next, last; r shows or hides the hands
    kg:rps:<match>:<reveal>                    the select of the match's hands (deals, rounds)

``/match replay`` posts the replay for the channel; the end screen's Replay answers with one
only its presser sees, to step at their own pace. Each step is the table as it was (its text
and picture, as :mod:`bot.service.replays` deals it again) and the public events of the move
that led there. Only what the table showed is shown, until one of the match's players
presses Show hands: then every seat's hand is listed beside the table, for whoever looks.
Everything a button needs is in its custom id: the step, and whether hands are shown.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from bot.images import table_png
from bot.service import MatchStatus
from bot.service.replays import Replay, Section, Step
from bot.ui import render
from bot.ui.placement import OfReplay
from bot.ui.replies import Interaction, component_view, guarded, say, service_of, wrong_kind

log = logging.getLogger(__name__)
PICTURE = "replay.png"
SECTIONS_SHOWN = 25  # a select's most options: the hands around the current one
EMBED_LIMIT = 6000
PRIVATE_LINE = 120  # characters of a seat's private line shown beside its hand
GOES = {"f": ("First", "⏮"), "b": ("Back", "◀"), "n": ("Next", "▶"), "l": ("Last", "⏭")}


def target(replay: Replay, number: int, go: str) -> int:
    """The step a button leads to from step ``number``."""
    return {"f": 0, "b": number - 1, "n": number + 1, "l": replay.last}.get(go, number)


def move_lines(replay: Replay, step: Step) -> str:
    if step.seat is None:
        return "The cards are dealt."
    if step.events:
        return "\n".join(f"• {text}" for text in step.events)
    return f"• {replay.record.seats[step.seat].name} moved."


def hands_text(step: Step) -> str:
    """Every seat's hand at this step, one line each (for a replay whose hands are shown),
    with the first thing the hand told that seat alone (a secret pick, a hidden King)."""
    snap = step.snapshot
    lines = []
    for seat, sat in enumerate(snap.seats):
        view = snap.view(seat)
        text = "; ".join(render.hand_lines(snap, view)) or "no cards"
        if view.private:
            text += f" · {render.clip(snap.name_text(view.private[0]), PRIVATE_LINE)}"
        lines.append(f"**{sat.name}**: {text}")
    return "\n".join(lines)


def replay_embed(replay: Replay, step: Step, reveal: bool) -> discord.Embed:
    """The table of ``step`` (as the live table showed it), the move that led there and,
    when a player chose to show them, every hand."""
    embed = render.table_embed(step.snapshot)
    embed.title = f"Replay: {embed.title}"
    # The move's events once, under where the step is (the table's own "Last moves" are
    # the same events); where it is once, there (not again in the footer).
    for index, f in enumerate(embed.fields):
        if f.name == "Last moves":
            embed.remove_field(index)
            break
    embed.insert_field_at(
        0,
        name=f"The deal ({replay.last} moves follow)"
        if step.seat is None
        else f"Move {step.number} of {replay.last}",
        value=render.clip(move_lines(replay, step), render.FIELD_LIMIT),
        inline=False,
    )
    section = replay.section_of(step.number)
    shown = "hands shown by a player" if reveal else "hands hidden (the match's players may show them)"
    embed.set_footer(text=f"{section.label} · {shown}")
    if reveal:
        room = EMBED_LIMIT - len(embed) - 40
        if room > 50:
            embed.add_field(name="Hands", value=render.clip(hands_text(step), min(room, 1024)), inline=False)
    return embed


def section_window(replay: Replay, number: int) -> list[Section]:
    """At most SECTIONS_SHOWN sections, the current one among them."""
    sections = replay.sections()
    here = sections.index(replay.section_of(number))
    start = max(0, min(here - SECTIONS_SHOWN // 2, len(sections) - SECTIONS_SHOWN))
    return sections[start : start + SECTIONS_SHOWN]


def replay_view(replay: Replay, number: int, reveal: bool) -> discord.ui.View:
    view = component_view()
    for go, (label, emoji) in GOES.items():
        to = target(replay, number, go)
        view.add_item(
            StepButton(
                replay.id,
                number,
                reveal,
                go,
                label=label,
                emoji=emoji,
                disabled=to == number or not 0 <= to <= replay.last,
            )
        )
    view.add_item(
        StepButton(replay.id, number, reveal, "r", label="Hide hands" if reveal else "Show hands", emoji="🂠")
    )
    sections = section_window(replay, number)
    if len(sections) > 1:
        current = replay.section_of(number)
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"kg:rps:{replay.id}:{int(reveal)}",
            placeholder="Go to a hand",
            options=[
                discord.SelectOption(
                    label=f"{s.label} (steps {s.first} to {s.last})",
                    value=str(s.first),
                    default=s == current,
                )
                for s in sections
            ],
            row=1,
        )
        view.add_item(SectionSelect(replay.id, reveal, select))
    return view


async def replay_message(
    interaction: Interaction, replay: Replay, number: int, reveal: bool
) -> tuple[discord.Embed, discord.ui.View, list[discord.File]]:
    """The embed, buttons and picture of step ``number``."""
    step = replay.step(number)
    embed = replay_embed(replay, step, reveal)
    files: list[discord.File] = []
    server = await service_of(interaction).settings.server_settings(replay.record.guild_id)
    if step.snapshot.status == MatchStatus.RUNNING and not server.text_only:
        png = await asyncio.to_thread(table_png, replay.game.id, step.view)
        if png is not None:
            embed.set_image(url=f"attachment://{PICTURE}")
            files.append(discord.File(io.BytesIO(png), filename=PICTURE))
    return embed, replay_view(replay, number, reveal), files


async def replay_command(interaction: Interaction, match_id: int | None) -> None:
    """``/match replay [match_id]``: the replay, public, from the deal."""
    replay = await service_of(interaction).replays.find(
        guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0, match_id=match_id
    )
    embed, view, files = await replay_message(interaction, replay, 0, False)
    await interaction.response.send_message(
        embed=embed, view=view, files=files, allowed_mentions=discord.AllowedMentions.none()
    )


async def replay_autocomplete(
    interaction: Interaction, current: str
) -> list[discord.app_commands.Choice[int]]:
    """``/match replay match_id:``: the channel's latest finished matches, what each was."""
    try:
        found = await service_of(interaction).replays.choices(interaction.channel_id or 0, current)
    except Exception:  # an autocomplete offers nothing rather than fail
        log.warning("replay choices failed in channel %s", interaction.channel_id, exc_info=True)
        return []
    return [discord.app_commands.Choice(name=render.clip(text, 100), value=mid) for mid, text in found]


async def open_replay(interaction: Interaction, match_id: int) -> None:
    """The end screen's Replay: a replay only the presser sees."""
    replay = await service_of(interaction).replays.get(match_id, interaction.guild_id)
    embed, view, files = await replay_message(interaction, replay, 0, False)
    await interaction.response.send_message(embed=embed, view=view, files=files, ephemeral=True)


async def show_step(interaction: Interaction, match_id: int, number: int, reveal: bool) -> None:
    replay = await service_of(interaction).replays.get(match_id, interaction.guild_id)
    embed, view, files = await replay_message(interaction, replay, replay.clamp(number), reveal)
    await interaction.response.edit_message(embed=embed, view=view, attachments=files)


async def step_pressed(interaction: Interaction, match_id: int, number: int, reveal: bool, go: str) -> None:
    if go == "r":
        replay = await service_of(interaction).replays.get(match_id, interaction.guild_id)
        if not reveal and interaction.user.id not in replay.players():
            await say(interaction, f"Only the players of match #{match_id} may show its hands.")
            return
        await show_step(interaction, match_id, number, not reveal)
        return
    replay = await service_of(interaction).replays.get(match_id, interaction.guild_id)
    await show_step(interaction, match_id, target(replay, number, go), reveal)


class ReplayButton(
    OfReplay, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kg:replay:(?P<mid>\d{1,12})"
):
    """The end screen's Replay."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Replay",
                style=discord.ButtonStyle.secondary,
                emoji="🎞",
                custom_id=f"kg:replay:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Any, match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["mid"]))

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(interaction, open_replay(interaction, self.match_id))


class StepButton(
    OfReplay,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kg:rp:(?P<mid>\d{1,12}):(?P<step>\d{1,6}):(?P<reveal>[01]):(?P<go>[fbnlr])",
):
    def __init__(
        self,
        match_id: int,
        number: int,
        reveal: bool,
        go: str,
        *,
        label: str = "",
        emoji: str = "",
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or go,
                emoji=emoji or None,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"kg:rp:{match_id}:{number}:{int(reveal)}:{go}",
            )
        )
        self.match_id, self.number, self.reveal, self.go = match_id, number, reveal, go

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Any, match: re.Match[str], /) -> StepButton:
        return cls(int(match["mid"]), int(match["step"]), match["reveal"] == "1", match["go"])

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.button):
            return
        await guarded(
            interaction, step_pressed(interaction, self.match_id, self.number, self.reveal, self.go)
        )


class SectionSelect(
    OfReplay,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"kg:rps:(?P<mid>\d{1,12}):(?P<reveal>[01])",
):
    def __init__(self, match_id: int, reveal: bool, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"kg:rps:{match_id}:{int(reveal)}", options=[discord.SelectOption(label="-")]
            )
        )
        self.match_id, self.reveal = match_id, reveal

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Any, match: re.Match[str], /
    ) -> SectionSelect:
        return cls(int(match["mid"]), match["reveal"] == "1", item)

    async def callback(self, interaction: Interaction) -> None:
        if await wrong_kind(interaction, discord.ComponentType.select):
            return
        values = self.item.values
        number = int(values[0]) if values and values[0].isdigit() else 0
        await guarded(interaction, show_step(interaction, self.match_id, number, self.reveal))


REPLAY_ITEMS = (ReplayButton, StepButton, SectionSelect)
