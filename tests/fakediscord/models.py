"""Data model of the fake Discord: users, guilds, channels, roles, messages.

Everything here is plain data plus ``to_payload`` helpers that render the
JSON shapes discord.py expects from the real API.
"""

from __future__ import annotations

import copy
import datetime as dt
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Message flags
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types
CHANNEL_TEXT = 0
CHANNEL_DM = 1
CHANNEL_PUBLIC_THREAD = 11
CHANNEL_PRIVATE_THREAD = 12


class Perm:
    """Permission bits (a subset; values as in the Discord API)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 53) - 1

    EVERYONE_DEFAULT = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT_ROLE = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS | MENTION_EVERYONE


class SnowflakeGenerator:
    """Strictly increasing, timestamp-based Discord-like ids."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate

    def next_on_shard(self, shard_id: int, count: int) -> int:
        """The next id of a server that Discord puts on shard ``shard_id`` of ``count``
        (``(id >> 22) % count``): the next id, moved on by whole milliseconds."""
        candidate = self.next()
        while (candidate >> 22) % count != shard_id:
            candidate = ((candidate >> 22) + 1) << 22
        self._last = candidate
        return candidate


snowflakes = SnowflakeGenerator()


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class BareId(int):
    """An id sent for a user option with no resolved user or member, as Discord does for
    someone who left the server or is not cached (discord.py then gives a bare Object)."""


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeUser id={self.id} name={self.name!r}{' bot' if self.bot else ''}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=now_iso)
    nick: str | None = None

    def to_payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": self.nick,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if permissions is not None:
            payload["permissions"] = str(permissions)
        return payload


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    guild_id: int | None
    type: int = CHANNEL_TEXT
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    recipient: FakeUser | None = None  # DM channels
    owner_id: int | None = None  # threads

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (10, CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD)

    def to_payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        if self.type == CHANNEL_DM:
            payload: dict[str, Any] = {
                "id": str(self.id),
                "type": CHANNEL_DM,
                "last_message_id": None,
                "recipients": [self.recipient.to_payload()] if self.recipient else [],
                "flags": 0,
            }
        else:
            payload = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": str(self.parent_id) if self.parent_id else None,
                "topic": self.topic,
                "rate_limit_per_user": 0,
                "last_message_id": None,
                "flags": 0,
            }
            if self.is_thread:
                payload.pop("permission_overwrites")
                payload.pop("position")
                payload["owner_id"] = str(self.owner_id) if self.owner_id else None
                payload["message_count"] = 0
                payload["member_count"] = 1
                payload["thread_metadata"] = {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": now_iso(),
                    "locked": False,
                    "invitable": True,
                }
        if permissions is not None:
            payload["permissions"] = str(permissions)
        return payload

    def __repr__(self) -> str:
        return f"<FakeChannel id={self.id} name={self.name!r} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    manager_role_id: int = 0
    admin_role_id: int = 0
    bot_role_id: int = 0

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]

    def permissions_for(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return Perm.ALL
        member = self.members.get(user_id)
        if member is None:
            return 0
        value = self.everyone_role.permissions
        for role_id in member.role_ids:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & Perm.ADMINISTRATOR:
            return Perm.ALL
        return value

    def to_payload(self) -> dict[str, Any]:
        text_channels = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "max_members": 500000,
            "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": [m.to_payload() for m in self.members.values()],
            "channels": [c.to_payload() for c in text_channels],
            "threads": [c.to_payload() for c in threads],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<FakeGuild id={self.id} name={self.name!r}>"


# ---------------------------------------------------------------------------
# Components and text helpers
# ---------------------------------------------------------------------------


def walk_components(components: list[dict[str, Any]] | None) -> Iterator[dict[str, Any]]:
    """Yield every component, depth first (rows, sections, containers, labels)."""
    for comp in components or []:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from walk_components(comp.get("components"))
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


@dataclass(frozen=True)
class Button:
    custom_id: str | None
    label: str | None
    disabled: bool
    style: int
    url: str | None = None
    emoji: str | None = None
    id: int | None = None


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Select:
    custom_id: str
    type: int
    options: list[SelectOption]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool
    id: int | None = None

    @property
    def values(self) -> list[str]:
        return [o.value for o in self.options]


def _emoji_text(emoji: Any) -> str | None:
    if not isinstance(emoji, dict):
        return None
    return emoji.get("name")


def buttons_of(components: list[dict[str, Any]] | None) -> list[Button]:
    out: list[Button] = []
    for comp in walk_components(components):
        if comp.get("type") == 2:
            out.append(
                Button(
                    custom_id=comp.get("custom_id"),
                    label=comp.get("label"),
                    disabled=bool(comp.get("disabled", False)),
                    style=int(comp.get("style", 1)),
                    url=comp.get("url"),
                    emoji=_emoji_text(comp.get("emoji")),
                    id=comp.get("id"),
                )
            )
    return out


def selects_of(components: list[dict[str, Any]] | None) -> list[Select]:
    out: list[Select] = []
    for comp in walk_components(components):
        if comp.get("type") in (3, 5, 6, 7, 8):
            out.append(
                Select(
                    custom_id=comp.get("custom_id", ""),
                    type=int(comp["type"]),
                    options=[
                        SelectOption(
                            label=o.get("label", ""),
                            value=o.get("value", ""),
                            description=o.get("description"),
                            default=bool(o.get("default", False)),
                        )
                        for o in comp.get("options", []) or []
                    ],
                    placeholder=comp.get("placeholder"),
                    min_values=int(comp.get("min_values", 1)),
                    max_values=int(comp.get("max_values", 1)),
                    disabled=bool(comp.get("disabled", False)),
                    id=comp.get("id"),
                )
            )
    return out


def text_of(
    content: str | None, embeds: list[dict[str, Any]] | None, components: list[dict[str, Any]] | None
) -> str:
    """Content, embed author/title/description/fields/footer and v2 text displays joined by newlines."""
    parts: list[str] = []
    if content:
        parts.append(content)
    for embed in embeds or []:
        author = embed.get("author") or {}
        if author.get("name"):
            parts.append(author["name"])
        for key in ("title", "description"):
            if embed.get(key):
                parts.append(str(embed[key]))
        for fld in embed.get("fields") or []:
            parts.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
        footer = embed.get("footer") or {}
        if footer.get("text"):
            parts.append(footer["text"])
    for comp in walk_components(components):
        if comp.get("type") == 10 and comp.get("content"):
            parts.append(comp["content"])
    return "\n".join(parts)


def assign_component_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discord numbers every component of a message (``id``) when the sender did not."""
    components = copy.deepcopy(components)
    used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
    counter = 0
    for comp in walk_components(components):
        if not isinstance(comp.get("id"), int):
            counter += 1
            while counter in used:
                counter += 1
            comp["id"] = counter
            used.add(counter)
    return components


def find_button_in(buttons: list[Button], label: str | None, custom_id: str | None, where: str) -> Button:
    for button in buttons:
        if custom_id is not None and button.custom_id == custom_id:
            return button
        if label is not None and button.label == label:
            return button
    wanted = f"label={label!r}" if label is not None else f"custom_id={custom_id!r}"
    have = ", ".join(f"{b.label!r}({b.custom_id})" for b in buttons) or "none"
    raise LookupError(f"no button with {wanted} on {where}; buttons: {have}")


_MENTION_RE = re.compile(r"<@!?(\d+)>")


@dataclass(eq=False)
class FakeMessage:
    """A stored message. The object is live: edits update it in place."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_type: int | None = None
    interaction_user: FakeUser | None = None
    interaction_name: str | None = None
    visible_to: int | None = None
    message_reference: dict[str, Any] | None = None
    created_at: str = field(default_factory=now_iso)
    edited_at: str | None = None
    edits: int = 0
    versions: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    reactions: dict[str, set[int]] = field(default_factory=dict)
    mention_ids: list[int] = field(default_factory=list)

    # -- convenience ------------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def text(self) -> str:
        return text_of(self.content, self.embeds, self.components)

    @property
    def buttons(self) -> list[Button]:
        return buttons_of(self.components)

    @property
    def selects(self) -> list[Select]:
        return selects_of(self.components)

    def find_button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        return find_button_in(self.buttons, label, custom_id, f"message {self.id}")

    def find_select(self, custom_id: str | None = None, *, placeholder: str | None = None) -> Select:
        for sel in self.selects:
            if custom_id is not None and sel.custom_id == custom_id:
                return sel
            if placeholder is not None and sel.placeholder == placeholder:
                return sel
            if custom_id is None and placeholder is None:
                return sel
        raise LookupError(
            f"no select custom_id={custom_id!r} placeholder={placeholder!r} on message {self.id}"
        )

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for comp in walk_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def visible_for(self, user_id: int | None) -> bool:
        return self.visible_to is None or self.visible_to == user_id

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": copy.deepcopy(self.attachments),
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def update_mentions(self, known: dict[int, FakeUser]) -> None:
        self.mention_ids = [int(m) for m in _MENTION_RE.findall(self.content or "") if int(m) in known]

    def to_payload(self, known_users: dict[int, FakeUser] | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [
                known_users[m].to_payload() for m in self.mention_ids if known_users and m in known_users
            ],
            "mention_roles": [],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            payload["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            payload["message_reference"] = dict(self.message_reference)
        if self.reactions:
            payload["reactions"] = [
                {
                    "emoji": {"id": None, "name": emoji},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": False,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ]
        if self.interaction_id is not None and self.interaction_user is not None:
            owners = {"0": str(self.guild_id)} if self.guild_id else {"1": str(self.interaction_user.id)}
            meta: dict[str, Any] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.to_payload(),
                "authorizing_integration_owners": owners,
            }
            if self.interaction_name:
                meta["name"] = self.interaction_name
            payload["interaction_metadata"] = meta
        return payload

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage id={self.id} channel={self.channel_id} edits={self.edits}{flags} text={self.text[:60]!r}>"
