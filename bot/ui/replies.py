"""Answering players: one ephemeral sentence for every refusal, and the interactions nobody handles.

Every domain error (from an engine or the service) becomes one sentence here, in one place,
as Red-DiscordBot does with its bank errors.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.games.base import GameError
from bot.service import MatchService, ServiceError

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
GENERIC_FAILURE = "Something went wrong on our side; nothing was changed. Please try again."


def service_of(interaction: Interaction) -> MatchService:
    return interaction.client.service


def is_admin(interaction: Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def display_name(interaction: Interaction) -> str:
    return getattr(interaction.user, "display_name", None) or interaction.user.name


def component_view() -> discord.ui.View:
    """An empty view for our components, which are all dynamic items (``bot.add_dynamic_items``
    dispatches a click by its custom id alone), so discord.py need not keep the view once sent.

    It is stopped before it is sent, so discord.py sends its components and keeps nothing:
    a view that is still listening is kept in discord.py's view store, and one sent in an
    ephemeral answer (every hand) is given a 15-minute timeout with a task asleep until then,
    thousands of them on a busy bot."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


async def restored(interaction: Interaction) -> None:
    """Hold a handler until the bot's matches are restored, if its interaction was deferred
    for that on arrival (``bot.ui.restoring``); at once otherwise."""
    restoring = getattr(interaction.client, "restoring", None)
    if restoring is not None:
        await restoring.wait(interaction)


async def answer_message(interaction: Interaction) -> discord.Message:
    """The message that answered the interaction: its original response, or the follow-up
    that stands for it when the interaction was deferred during a restore."""
    sent: discord.Message | None = getattr(interaction.response, "sent_message", None)
    return sent if sent is not None else await interaction.original_response()


async def say(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral sentence, whether or not the interaction was answered already."""
    if text:
        kwargs["content"] = text  # an embed-only answer has no text
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


async def refuse(interaction: Interaction, error: BaseException) -> None:
    """Turn a domain error into one ephemeral sentence (the single place that does it)."""
    if isinstance(error, (GameError, ServiceError)):
        text = str(error)
    elif isinstance(error, app_commands.TransformerError):
        log.warning("interaction %s: %s", interaction.id, error)
        text = "That value is not one this option accepts; please pick one from the list."
    elif isinstance(error, STALE_COMMAND_ERRORS):
        # Discord still shows a command (or option) this version of the bot no longer has.
        log.warning("interaction %s: %s", interaction.id, error)
        text = "That command is not available in this form any more; please try again in a minute."
    else:
        data: Any = interaction.data or {}
        what = data.get("custom_id") or f"/{data.get('name', '?')}"  # custom ids carry the match id
        log.error(
            "unexpected error in interaction %s (%s, channel %s)",
            interaction.id,
            what,
            interaction.channel_id,
            exc_info=error,
        )
        text = GENERIC_FAILURE
    try:
        await say(interaction, text)
    except discord.HTTPException:
        log.warning("could not deliver a refusal for interaction %s", interaction.id)


async def guarded(interaction: Interaction, action: Awaitable[None]) -> None:
    """Run a component's action; any refusal or failure becomes one ephemeral sentence."""
    try:
        await action
    except Exception as err:  # noqa: BLE001 - every failure must reach the player as a sentence
        await refuse(interaction, err)


STALE_COMMAND_ERRORS = (
    app_commands.CommandNotFound,
    app_commands.CommandSignatureMismatch,
    app_commands.TransformerError,
)


def missing_channel_permissions(interaction: Interaction, *, threads: bool = False) -> str:
    """The permissions the bot lacks in this channel to keep a table (empty: none missing);
    ``threads``: also those it needs to open a thread per table and play in it (a party)."""
    perms = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed: tuple[tuple[str, bool], ...] = (
        ("View Channel", perms.view_channel),
        (
            "Send Messages in Threads" if in_thread else "Send Messages",
            perms.send_messages_in_threads if in_thread else perms.send_messages,
        ),
        ("Embed Links", perms.embed_links),
    )
    if threads:
        needed += (
            ("Create Public Threads", perms.create_public_threads),
            ("Send Messages in Threads", perms.send_messages_in_threads),
        )
    missing = [name for name, ok in needed if not ok]
    return " and ".join(", ".join(missing).rsplit(", ", 1)) if missing else ""


def is_component(interaction: Interaction) -> bool:
    return interaction.type == discord.InteractionType.component


async def wrong_kind(interaction: discord.Interaction[Any], expected: discord.ComponentType) -> bool:
    """A custom id forged onto another kind of component: answer as for any stray id."""
    data: Any = interaction.data or {}
    if data.get("component_type") == expected.value:
        return False
    await guarded(interaction, say(interaction, STRAY_COMPONENT))
    return True


# --- interactions no handler answers ----------------------------------------------------------

STRAY_COMPONENT = "That button is no longer valid."


def component_is_handled(
    interaction: Interaction, items: Sequence[type[discord.ui.DynamicItem[Any]]]
) -> bool:
    """Will discord.py hand this component interaction to exactly one of our dynamic items?

    Mirrors discord.py's dispatch: the custom id must fully match one template, and the
    clicked message must carry a component of that type with that custom id; otherwise
    discord.py drops the interaction silently and the player sees "interaction failed".
    """
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or interaction.message is None:
        return False
    matched = [cls for cls in items if cls.__discord_ui_compiled_template__.fullmatch(custom_id)]
    if len(matched) != 1:
        return False
    component_type = data.get("component_type")
    try:
        view = discord.ui.View.from_message(interaction.message, timeout=None)
    except Exception:  # noqa: BLE001 - a message discord.py cannot parse: nothing will handle it
        return False
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


async def answer_stray(interaction: Interaction, items: Sequence[type[discord.ui.DynamicItem[Any]]]) -> None:
    """Answer a component or form no handler takes (forged, truncated or retired custom ids)."""
    if interaction.type == discord.InteractionType.component:
        if component_is_handled(interaction, items):
            return
        data: Any = interaction.data or {}
        log.info("interaction %s: no handler for custom id %r", interaction.id, data.get("custom_id"))
    elif interaction.type != discord.InteractionType.modal_submit:
        return
    if interaction.response.is_done():
        return
    try:
        await interaction.response.send_message(STRAY_COMPONENT, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer stray interaction %s", interaction.id)
