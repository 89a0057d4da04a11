"""FakeDiscord: an in-memory Discord (gateway + REST) on loopback for discord.py tests."""

from __future__ import annotations

import asyncio
import collections
import copy
import json
import logging
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Self
from urllib.parse import unquote

from aiohttp import web

from . import validation
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    OP_RECONNECT,
    GatewayConnection,
    GatewaySession,
)
from .interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPTION_CHANNEL,
    OPTION_MENTIONABLE,
    OPTION_ROLE,
    OPTION_USER,
    InteractionRecord,
    InteractionResult,
    InteractionTimeout,
    convert_option_value,
    infer_option_type,
)
from .models import (
    CHANNEL_DM,
    CHANNEL_PUBLIC_THREAD,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    BareId,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Perm,
    assign_component_ids,
    now_iso,
    snowflakes,
    walk_components,
)
from .patch import apply_patches, gateway_url, rest_base

if TYPE_CHECKING:
    import discord

    from .process import BotProcess

log = logging.getLogger("fakediscord")

FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
SENDABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2

# asyncio task names under which discord.py runs bot code for an event
_HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: on_interaction",
    "discord.py: on_message",
)

_COMMAND_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")


class UploadedFile(NamedTuple):
    field: str
    filename: str | None
    size: int
    content_type: str | None


class StoreEvent(NamedTuple):
    kind: str  # "create" | "edit" | "delete"
    message_id: int
    at: float


@dataclass
class RequestRecord:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0
    route: str | None = None
    at: float = field(default_factory=time.monotonic)
    files: list[UploadedFile] = field(default_factory=list)


@dataclass
class Ctx:
    request: web.Request
    params: dict[str, str]
    body: Any
    files: list[UploadedFile]
    record: RequestRecord

    @property
    def data(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    @property
    def query(self) -> Any:
        return self.request.query


Handler = Callable[[Ctx], Awaitable[web.Response]]


class HTTPError(Exception):
    """Raised inside handlers to answer with a Discord-style error."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}
        self.headers = headers or {}


def _json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py only parses bodies whose content type is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


_BOUNDARY_RE = re.compile(r'boundary="?([^";]+)"?')
_PARAM_RE = re.compile(r';\s*(name|filename)="((?:[^"\\]|\\.)*)"')


def _form_data(body: bytes, content_type: str) -> tuple[Any, list[UploadedFile]]:
    """A ``multipart/form-data`` body (RFC 7578, as aiohttp writes discord.py's uploads): its
    ``payload_json`` part and its files. Read here by splitting on the boundary: aiohttp's
    own reader parsed each header through the email package, 0.6 ms a request on average,
    time that the latencies of ``benchmarks/bench_bot.py`` then counted as the bot's."""
    boundary = _BOUNDARY_RE.search(content_type)
    if boundary is None:
        raise HTTPError(400, 50035, "Invalid Form Body")
    payload: Any = None
    files: list[UploadedFile] = []
    for part in body.split(b"--" + boundary.group(1).encode())[1:]:
        if part.startswith(b"--"):  # the closing delimiter
            break
        head, _, data = part.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        params = {
            k: re.sub(r"\\(.)", r"\1", v)
            for k, v in _PARAM_RE.findall(headers.get("content-disposition", ""))
        }
        data = data.removesuffix(b"\r\n")
        if params.get("name") == "payload_json":
            try:
                payload = json.loads(data)
            except ValueError:
                raise HTTPError(400, 50109, "The request body contains invalid JSON.") from None
        else:
            filename = params.get("filename")
            files.append(
                UploadedFile(
                    params.get("name", ""),
                    unquote(filename) if filename is not None else None,
                    len(data),
                    headers.get("content-type"),
                )
            )
    return payload, files


def _no_content() -> web.Response:
    return web.Response(status=204)


def _unknown_message() -> HTTPError:
    return HTTPError(404, 10008, "Unknown Message")


def _unknown_channel() -> HTTPError:
    return HTTPError(404, 10003, "Unknown Channel")


def _unknown_webhook() -> HTTPError:
    return HTTPError(404, 10015, "Unknown Webhook")


class FakeDiscord:
    """A fake Discord API (REST + gateway) for driving a real discord.py client.

    See the package docstring for usage.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        check_token: bool = False,
        bot_name: str = "FakeBot",
        application_name: str = "Fake Application",
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.check_token = check_token
        self.host = host
        self.port = port
        # timing knobs (seconds)
        self.timeout = 10.0  # max wait for the bot's initial callback / deferred follow-up
        self.interaction_deadline = 3.0  # Discord's 3 s window for the initial callback
        self.quiet = 0.05  # the bot is "done" after this long without REST activity...
        self.busy_quiet = 0.3  # ...or this long if discord.py handler tasks are still alive
        self.external_quiet = 0.25  # ...or this long while a bot subprocess runs (its tasks are invisible)
        self.settle_timeout = 5.0  # cap on waiting for quiet
        self.heartbeat_interval_ms = 41250
        self.enforce_permissions = True  # hide commands whose default_member_permissions the user lacks

        self.application_id = snowflakes.next()
        self.application_name = application_name
        self.application_flags = 0
        self.bot_user = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.owner = FakeUser(id=snowflakes.next(), name="owner")

        self._users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self._auto_join: set[int] = set()
        self._guilds: dict[int, FakeGuild] = {}
        self._channels: dict[int, FakeChannel] = {}
        self._dm_channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._events: list[StoreEvent] = []
        self._interactions: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self._sessions: list[GatewaySession] = []
        self._connections: list[GatewayConnection] = []
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._commands_synced = False

        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.unknown_ops: list[dict[str, Any]] = []
        self.rejections: list[
            tuple[str, str, dict[str, Any]]
        ] = []  # (method, path, error body) for 4xx answers
        self.late_interactions: list[InteractionRecord] = []
        self.double_acks: list[InteractionRecord] = []

        self._routes: list[tuple[str, re.Pattern[str], str, Handler, bool]] = []
        self._register_routes()
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        self._last_activity = time.monotonic()
        self._inflight = 0
        self._conn_counter = 0
        self._restore_patch: Callable[[], None] | None = None
        self._processes: list[BotProcess] = []
        # Discord's per-message edit limit, when a test turns it on: (edits, seconds).
        self.edit_limit: tuple[int, float] | None = None
        self._recent_edits: dict[int, collections.deque[float]] = {}
        self.rate_limited: list[tuple[int, float]] = []  # (message id, retry after) per 429
        self.edit_times: dict[int, list[float]] = {}  # message id -> when each edit landed

    # ------------------------------------------------------------------
    # lifecycle
    # ------------------------------------------------------------------
    async def start(self) -> Self:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/ws", self._handle_ws)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._handle_rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("FakeDiscord listening on %s", self.url)
        return self

    async def stop(self) -> None:
        self.unpatch_discord()
        for conn in list(self._connections):
            if not conn.closed:
                await conn.close(1001, b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        log.info("FakeDiscord stopped")

    async def __aenter__(self) -> Self:
        await self.start()
        self._restore_patch = apply_patches(self.url)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def rest_base(self) -> str:
        return rest_base(self.url)

    @property
    def gateway_url(self) -> str:
        return gateway_url(self.url)

    @contextmanager
    def patch_discord(self, *, ready_timeout: float | None = 0.05) -> Iterator[None]:
        """Point discord.py (this process) at this fake; restores on exit."""
        restore = apply_patches(self.url, ready_timeout=ready_timeout)
        try:
            yield
        finally:
            restore()

    def unpatch_discord(self) -> None:
        if self._restore_patch is not None:
            self._restore_patch()
            self._restore_patch = None

    def env(self, **extra: str) -> dict[str, str]:
        """Environment for a bot subprocess (see ``tests.fakediscord.run_bot``)."""
        env = dict(os.environ)
        env["FAKE_DISCORD_URL"] = self.url
        env["FAKE_DISCORD_TOKEN"] = self.token
        env["DISCORD_TOKEN"] = self.token
        env.update(extra)
        return env

    async def start_bot_process(
        self,
        module: str = "bot",
        *,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
    ) -> BotProcess:
        """Run ``module`` as ``__main__`` in a subprocess patched to use this fake."""
        from .process import BotProcess

        proc = BotProcess(module, env=self.env(**(env or {})), args=args, cwd=cwd)
        await proc.start()
        self._processes.append(proc)
        return proc

    @asynccontextmanager
    async def bot_running(
        self, client: discord.Client, *, timeout: float | None = None
    ) -> AsyncIterator[discord.Client]:
        """Start ``client`` (same event loop) against this fake, wait for on_ready, close it on exit."""
        task = asyncio.create_task(client.start(self.token), name="fakediscord-client")
        ok = await self._wait(lambda: client.is_ready() or task.done(), timeout or self.timeout)
        if task.done():
            task.result()
            raise AssertionError("the client stopped before becoming ready")
        if not ok:
            task.cancel()
            raise AssertionError(f"client not ready after {timeout or self.timeout}s")
        try:
            yield client
        finally:
            await client.close()
            try:
                await asyncio.wait_for(task, 5)
            except Exception:
                log.debug("client task ended with an exception", exc_info=True)

    # ------------------------------------------------------------------
    # waiting
    # ------------------------------------------------------------------
    def _notify(self) -> None:
        event = self._changed
        self._changed = asyncio.Event()
        event.set()

    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    async def _wait(self, predicate: Callable[[], bool], timeout: float, poll: float = 0.02) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            if predicate():
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), min(remaining, poll))
            except TimeoutError:
                pass

    async def wait_for(
        self, predicate: Callable[[], bool], timeout: float | None = None, what: str | None = None
    ) -> None:
        """Wait until ``predicate()`` is true (re-checked on every change, and every 20 ms)."""
        timeout = self.timeout if timeout is None else timeout
        if not await self._wait(predicate, timeout):
            raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")

    @staticmethod
    def _handler_tasks() -> set[asyncio.Task[Any]]:
        """discord.py tasks running bot code (only visible for a bot in this event loop)."""
        try:
            tasks = asyncio.all_tasks()
        except RuntimeError:
            return set()
        current = asyncio.current_task()
        return {
            t
            for t in tasks
            if t is not current and not t.done() and t.get_name().startswith(_HANDLER_TASK_PREFIXES)
        }

    async def settle(
        self,
        *,
        quiet: float | None = None,
        max_wait: float | None = None,
        ignore_tasks: set[asyncio.Task[Any]] | None = None,
    ) -> None:
        """Wait until the bot looks done: no request in flight and no REST activity for a while.

        Needs ``quiet`` seconds of silence, ``busy_quiet`` while discord.py handler tasks of an
        in-process bot (other than ``ignore_tasks``) are alive, ``external_quiet`` while a bot
        subprocess started by ``start_bot_process`` runs.
        """
        quiet = self.quiet if quiet is None else quiet
        ignore = ignore_tasks or set()
        deadline = time.monotonic() + (self.settle_timeout if max_wait is None else max_wait)
        while time.monotonic() < deadline:
            busy = bool(self._handler_tasks() - ignore)
            need = max(quiet, self.busy_quiet) if busy else quiet
            if any(p.running for p in self._processes):
                need = max(need, self.external_quiet)
            idle = time.monotonic() - self._last_activity
            if self._inflight == 0 and idle >= need:
                return
            # short steps: a handler task finishing changes how long we must wait
            await asyncio.sleep(min(max(0.005, need - idle), 0.01))
        log.warning(
            "bot still active after %.1fs; returning anyway",
            self.settle_timeout if max_wait is None else max_wait,
        )

    # ------------------------------------------------------------------
    # sessions
    # ------------------------------------------------------------------
    @property
    def sessions(self) -> list[GatewaySession]:
        return list(self._sessions)

    @property
    def active_session(self) -> GatewaySession | None:
        for session in reversed(self._sessions):
            if session.connected and not session.invalidated:
                return session
        return None

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The connected session that gets a server's events (its shard's; the newest)."""
        for session in reversed(self._sessions):
            if session.connected and not session.invalidated and session.serves(guild_id):
                return session
        return None

    def _live_sessions(self) -> list[GatewaySession]:
        return [s for s in self._sessions if not s.invalidated]

    async def wait_for_session(self, timeout: float | None = None) -> GatewaySession:
        """Wait until a bot has identified on the gateway (and received its guilds)."""
        await self.wait_for(
            lambda: self.active_session is not None, timeout, "a bot to connect to the gateway"
        )
        session = self.active_session
        assert session is not None
        return session

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT to the active session (the client should RESUME)."""
        session = self.active_session
        if session is None or session.connection is None:
            raise AssertionError("no connected bot")
        session.connection.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    def _broadcast(self, event: str, data: Any, intent: int | None = INTENT_GUILDS) -> None:
        """Send a server's event to every session of its shard that has the intent."""
        raw = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        guild_id = int(raw) if raw is not None else None
        for session in self._live_sessions():
            if (intent is None or session.has_intent(intent)) and session.serves(guild_id):
                session.dispatch(event, copy.deepcopy(data))

    def _token_ok(self, token: str) -> bool:
        token = token.removeprefix("Bot ")
        if not token:
            return False
        return token == self.token if self.check_token else True

    def _ready_payload(self, session: GatewaySession, shard: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "v": 10,
            "user": self._me_payload(),
            "guilds": [
                {"id": str(g.id), "unavailable": True} for g in self._guilds.values() if session.serves(g.id)
            ],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": self.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["fakediscord"],
        }
        if shard is not None:
            payload["shard"] = shard
        return payload

    def _guild_create_payload(self, guild: FakeGuild) -> dict[str, Any]:
        return guild.to_payload()

    # ------------------------------------------------------------------
    # model setup
    # ------------------------------------------------------------------
    @property
    def guilds(self) -> list[FakeGuild]:
        return list(self._guilds.values())

    @property
    def users(self) -> list[FakeUser]:
        return list(self._users.values())

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A server, with the bot and the owner in it; ``shard=(id, count)``: one whose id
        Discord puts on that shard."""
        gid = snowflakes.next() if shard is None else snowflakes.next_on_shard(*shard)
        guild = FakeGuild(id=gid, name=name, owner_id=self.owner.id)
        guild.roles[gid] = FakeRole(id=gid, guild_id=gid, name="@everyone", permissions=Perm.EVERYONE_DEFAULT)
        managers = FakeRole(
            id=snowflakes.next(), guild_id=gid, name="Managers", permissions=Perm.MANAGE_GUILD, position=1
        )
        admins = FakeRole(
            id=snowflakes.next(), guild_id=gid, name="Admins", permissions=Perm.ADMINISTRATOR, position=2
        )
        bot_role = FakeRole(
            id=snowflakes.next(),
            guild_id=gid,
            name=self.bot_user.name,
            permissions=Perm.BOT_ROLE,
            position=3,
            managed=True,
            bot_id=self.bot_user.id,
        )
        for role in (managers, admins, bot_role):
            guild.roles[role.id] = role
        guild.manager_role_id, guild.admin_role_id, guild.bot_role_id = managers.id, admins.id, bot_role.id
        guild.members[self.owner.id] = FakeMember(self.owner)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, [bot_role.id])
        for uid in self._auto_join:
            guild.members[uid] = FakeMember(self._users[uid])
        self._guilds[gid] = guild
        self._broadcast("GUILD_CREATE", self._guild_create_payload(guild))
        self._notify()
        return guild

    def add_channel(self, guild: FakeGuild, name: str, *, topic: str | None = None) -> FakeChannel:
        channel = FakeChannel(
            id=snowflakes.next(), name=name, guild_id=guild.id, position=len(guild.channels), topic=topic
        )
        guild.channels[channel.id] = channel
        self._channels[channel.id] = channel
        self._broadcast("CHANNEL_CREATE", channel.to_payload())
        self._notify()
        return channel

    def add_user(
        self,
        name: str,
        manage_guild: bool = False,
        *,
        admin: bool = False,
        guilds: list[FakeGuild] | None = None,
        bot: bool = False,
    ) -> FakeUser:
        """A user who is a member of ``guilds`` (default: every guild, present and future)."""
        user = FakeUser(id=snowflakes.next(), name=name, bot=bot)
        self._users[user.id] = user
        if guilds is None:
            self._auto_join.add(user.id)
        joined = list(guilds) if guilds is not None else self.guilds
        for guild in joined:
            guild.members[user.id] = FakeMember(user)
        self.set_permissions(user, manage_guild=manage_guild, admin=admin, notify=False)
        for guild in joined:
            member = guild.members[user.id]
            self._broadcast(
                "GUILD_MEMBER_ADD", {**member.to_payload(), "guild_id": str(guild.id)}, INTENT_GUILD_MEMBERS
            )
        self._notify()
        return user

    def set_permissions(
        self,
        user: FakeUser,
        guild: FakeGuild | None = None,
        *,
        manage_guild: bool | None = None,
        admin: bool | None = None,
        notify: bool = True,
    ) -> None:
        """Give or take Manage Server / Administrator (via roles) in one guild or all of them."""
        for g in [guild] if guild else self.guilds:
            member = g.members.get(user.id)
            if member is None:
                continue
            for flag, role_id in ((manage_guild, g.manager_role_id), (admin, g.admin_role_id)):
                if flag is True and role_id not in member.role_ids:
                    member.role_ids.append(role_id)
                elif flag is False and role_id in member.role_ids:
                    member.role_ids.remove(role_id)
            if notify:
                self._broadcast(
                    "GUILD_MEMBER_UPDATE",
                    {**member.to_payload(), "guild_id": str(g.id)},
                    INTENT_GUILD_MEMBERS,
                )
        self._notify()

    def permissions(self, user: FakeUser, channel: FakeChannel) -> int:
        if channel.guild_id is None:
            return Perm.EVERYONE_DEFAULT
        return self._guilds[channel.guild_id].permissions_for(user.id)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(
                id=snowflakes.next(), name="", guild_id=None, type=CHANNEL_DM, recipient=user
            )
            self._dm_channels[user.id] = channel
            self._channels[channel.id] = channel
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return self._guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def channel(self, channel_id: int) -> FakeChannel:
        return self._channels[channel_id]

    def user(self, user_id: int) -> FakeUser:
        return self._users[user_id]

    # ------------------------------------------------------------------
    # message store (public API)
    # ------------------------------------------------------------------
    def message(self, message_id: int) -> FakeMessage:
        return self._messages[message_id]

    def messages(
        self, channel: FakeChannel, *, for_user: FakeUser | None = None, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages of a channel in order. Ephemeral ones only for ``for_user`` (their viewer)."""
        out = []
        for msg in self._messages.values():
            if msg.channel_id != channel.id:
                continue
            if msg.deleted and not include_deleted:
                continue
            if msg.visible_to is not None and (for_user is None or msg.visible_to != for_user.id):
                continue
            out.append(msg)
        return out

    def last_message(self, channel: FakeChannel, *, for_user: FakeUser | None = None) -> FakeMessage | None:
        msgs = self.messages(channel, for_user=for_user)
        return msgs[-1] if msgs else None

    @property
    def commands(self) -> list[dict[str, Any]]:
        """All synced commands (global then guild)."""
        out = list(self.global_commands)
        for cmds in self.guild_commands.values():
            out += cmds
        return out

    def assert_clean(self) -> None:
        """Fail if the bot hit unknown routes, was refused anything, answered late or twice."""
        problems = []
        if self.unknown_routes:
            problems.append(f"unknown routes: {self.unknown_routes}")
        if self.unknown_ops:
            problems.append(f"unknown gateway ops: {self.unknown_ops}")
        if self.rejections:
            problems.append("rejected requests: " + "; ".join(f"{m} {p}: {e}" for m, p, e in self.rejections))
        if self.late_interactions:
            problems.append(f"late interactions: {[r.description for r in self.late_interactions]}")
        if self.double_acks:
            problems.append(f"double acknowledgements: {[r.description for r in self.double_acks]}")
        if problems:
            raise AssertionError("FakeDiscord saw problems:\n  " + "\n  ".join(problems))

    # ------------------------------------------------------------------
    # message store (internals)
    # ------------------------------------------------------------------
    def _event(self, kind: str, msg: FakeMessage) -> None:
        self._events.append(StoreEvent(kind, msg.id, time.monotonic()))

    def _attachments_from(
        self, data: dict[str, Any], files: list[UploadedFile], channel_id: int
    ) -> list[dict[str, Any]]:
        out = []
        described = {str(a.get("id")): a for a in data.get("attachments") or [] if isinstance(a, dict)}
        for f in files:
            index = f.field[len("files[") : -1] if f.field.startswith("files[") else f.field
            meta = described.get(index, {})
            filename = meta.get("filename") or f.filename or "file"
            aid = snowflakes.next()
            out.append(
                {
                    "id": str(aid),
                    "filename": filename,
                    "size": f.size,
                    "url": f"{self.url}/attachments/{channel_id}/{aid}/{filename}",
                    "proxy_url": f"{self.url}/attachments/{channel_id}/{aid}/{filename}",
                    "content_type": f.content_type,
                    "description": meta.get("description"),
                }
            )
        return out

    @staticmethod
    def _normalize_embeds(embeds: Any) -> list[dict[str, Any]]:
        out = []
        for embed in embeds or []:
            embed = copy.deepcopy(embed)
            embed.setdefault("type", "rich")
            for fld in embed.get("fields") or []:
                fld.setdefault("inline", False)
            out.append(embed)
        return out

    def _validate_message(self, data: dict[str, Any], flags: int) -> None:
        problems = validation.check_message(data, flags=flags)
        if problems:
            raise HTTPError(400, 50035, "Invalid Form Body", validation.form_error(problems))

    def _create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        data: dict[str, Any],
        files: list[UploadedFile],
        *,
        record: InteractionRecord | None = None,
        msg_type: int = 0,
        flags: int | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        if flags is None:
            flags = int(data.get("flags") or 0) & SENDABLE_FLAGS
        if not loading:
            self._validate_message(data, flags)
        attachments = self._attachments_from(data, files, channel.id)
        embeds = (
            data.get("embeds")
            if data.get("embeds") is not None
            else ([data["embed"]] if data.get("embed") else [])
        )
        if not loading and validation.is_empty_message(
            data.get("content"), embeds, data.get("components"), attachments, data
        ):
            raise HTTPError(400, 50006, "Cannot send an empty message")
        msg = FakeMessage(
            id=snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=str(data.get("content") or ""),
            embeds=self._normalize_embeds(embeds),
            components=assign_component_ids(data.get("components") or []),
            attachments=attachments,
            flags=flags | (FLAG_LOADING if loading else 0),
            type=msg_type,
            message_reference=self._reference(data.get("message_reference"), channel),
        )
        if record is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_id = record.id
            msg.interaction_type = record.type
            msg.interaction_user = record.user
            if record.type == APPLICATION_COMMAND:
                msg.interaction_name = str(record.payload["data"].get("name"))
            if msg.ephemeral:
                msg.visible_to = record.user.id
        msg.update_mentions(self._users)
        msg.versions.append(msg.snapshot())
        self._messages[msg.id] = msg
        self._event("create", msg)
        self._gateway_message("MESSAGE_CREATE", msg)
        log.debug("message %s created in %s: %r", msg.id, channel.id, msg.text[:80])
        return msg

    def _reference(self, ref: Any, channel: FakeChannel) -> dict[str, Any] | None:
        if not isinstance(ref, dict) or not ref.get("message_id"):
            return None
        target = self._messages.get(int(ref["message_id"]))
        if target is None or target.deleted:
            if ref.get("fail_if_not_exists", True):
                raise HTTPError(
                    400,
                    50035,
                    "Invalid Form Body",
                    validation.form_error([("message_reference", "Unknown message")]),
                )
            return None
        out = {"type": 0, "message_id": str(target.id), "channel_id": str(target.channel_id)}
        if target.guild_id:
            out["guild_id"] = str(target.guild_id)
        return out

    def _apply_edit(
        self, msg: FakeMessage, data: dict[str, Any], files: list[UploadedFile], *, count: bool = True
    ) -> None:
        flags = msg.flags
        if data.get("flags") is not None:
            new = int(data["flags"])
            flags = (
                (flags & ~FLAG_SUPPRESS_EMBEDS) | (new & FLAG_SUPPRESS_EMBEDS) | (new & FLAG_COMPONENTS_V2)
            )
        self._validate_message(data, flags)
        content = msg.content
        embeds = msg.embeds
        components = msg.components
        attachments = msg.attachments
        if "content" in data:
            content = str(data["content"] or "")
        if "embeds" in data:
            embeds = self._normalize_embeds(data["embeds"])
        elif "embed" in data:
            embeds = self._normalize_embeds([data["embed"]] if data["embed"] else [])
        if "components" in data:
            components = assign_component_ids(data["components"] or [])
        if "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"] or [] if isinstance(a, dict)}
            attachments = [a for a in msg.attachments if a["id"] in keep]
        attachments = attachments + self._attachments_from(data, files, msg.channel_id)
        if validation.is_empty_message(content, embeds, components, attachments, {}):
            raise HTTPError(400, 50006, "Cannot send an empty message")
        msg.content, msg.embeds, msg.components, msg.attachments = content, embeds, components, attachments
        msg.flags = flags & ~FLAG_LOADING
        msg.update_mentions(self._users)
        if count:
            msg.edits += 1
            msg.edited_at = now_iso()
            msg.versions.append(msg.snapshot())
            self._event("edit", msg)
            self._gateway_message("MESSAGE_UPDATE", msg)
            log.debug("message %s edited (#%s): %r", msg.id, msg.edits, msg.text[:80])
        else:
            # a deferred "thinking" message gets its real content: no "(edited)" in Discord
            msg.versions = [msg.snapshot()]
            self._event("resolve", msg)
            self._gateway_message("MESSAGE_UPDATE", msg)

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._event("delete", msg)
        if msg.visible_to is None:
            payload: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                payload["guild_id"] = str(msg.guild_id)
            self._gateway_intent_dispatch("MESSAGE_DELETE", payload, msg)

    def _gateway_intent_dispatch(self, event: str, payload: dict[str, Any], msg: FakeMessage) -> None:
        intent = INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DIRECT_MESSAGES
        self._broadcast(event, payload, intent)

    def _gateway_message(self, event: str, msg: FakeMessage) -> None:
        if msg.visible_to is not None or msg.ephemeral:
            return
        intent = INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DIRECT_MESSAGES
        base = msg.to_payload(self._users)
        if msg.guild_id:
            guild = self._guilds.get(msg.guild_id)
            member = guild.members.get(msg.author.id) if guild else None
            if member is not None:
                base["member"] = member.to_payload(with_user=False)
        privileged = (
            msg.author.id == self.bot_user.id or msg.guild_id is None or self.bot_user.id in msg.mention_ids
        )
        for session in self._live_sessions():
            if not session.has_intent(intent) or not session.serves(msg.guild_id):
                continue
            payload = copy.deepcopy(base)
            if not privileged and not session.has_intent(INTENT_MESSAGE_CONTENT):
                payload.update(content="", embeds=[], attachments=[], components=[])
            session.dispatch(event, payload)

    # ------------------------------------------------------------------
    # HTTP plumbing
    # ------------------------------------------------------------------
    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self._routes.append((method, regex, pattern, handler, auth))

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        raw = await request.read()
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/form-data"):
            return _form_data(raw, content_type)
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            raise HTTPError(400, 50109, "The request body contains invalid JSON.") from None

    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        record = RequestRecord(request.method, path, dict(request.query), None)
        self.requests.append(record)
        self._inflight += 1
        self._touch()
        try:
            try:
                record.body, record.files = await self._read_body(request)
                response = await self._dispatch_route(request, path, record)
            except HTTPError as err:
                body = {"message": err.message, "code": err.code, **err.extra}
                if err.status != 404 or record.route is not None:
                    log.warning("%s %s -> %s %s", request.method, path, err.status, body)
                self.rejections.append((request.method, path, body))
                response = _json_response(body, err.status, err.headers)
            except Exception as exc:
                log.exception("fake discord failed on %s %s", request.method, path)
                body = {"message": f"FakeDiscord internal error: {exc!r}", "code": 0}
                self.rejections.append((request.method, path, body))
                response = _json_response(body, 400)
            record.status = response.status
            return response
        finally:
            self._inflight -= 1
            self._touch()
            self._notify()

    async def _dispatch_route(self, request: web.Request, path: str, record: RequestRecord) -> web.Response:
        for method, regex, pattern, handler, auth in self._routes:
            if method != request.method:
                continue
            match = regex.match(path)
            if match is None:
                continue
            record.route = pattern
            if auth and not self._token_ok(request.headers.get("Authorization", "")):
                raise HTTPError(401, 0, "401: Unauthorized")
            return await handler(Ctx(request, match.groupdict(), record.body, record.files, record))
        self.unknown_routes.append((request.method, path))
        log.error(
            "UNKNOWN ROUTE %s %s (query %s, body %r)", request.method, path, dict(request.query), record.body
        )
        raise HTTPError(404, 0, "404: Not Found")

    async def _handle_ws(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._conn_counter += 1
        conn = GatewayConnection(self, ws, self._conn_counter)
        self._connections.append(conn)
        log.info("gateway connection %s opened (%s)", conn.number, request.query_string)
        await conn.serve()
        return ws

    def _register_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        # application commands
        for base in ("/applications/{app_id}/commands", "/applications/{app_id}/guilds/{guild_id}/commands"):
            r("GET", base, self._list_commands)
            r("PUT", base, self._bulk_commands)
            r("POST", base, self._upsert_command)
            r("GET", base + "/{command_id}", self._get_command)
            r("PATCH", base + "/{command_id}", self._edit_command)
            r("DELETE", base + "/{command_id}", self._delete_command)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self._command_permissions)
        # interactions and their webhooks
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback, auth=False)
        r("POST", "/webhooks/{app_id}/{token}", self._webhook_execute, auth=False)
        r("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_get, auth=False)
        r("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_edit, auth=False)
        r("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_delete, auth=False)
        # channels and messages
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("PATCH", "/channels/{channel_id}", self._edit_channel)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message_route)
        r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._add_reaction)
        r(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}",
            self._remove_reaction,
        )
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", self._clear_reactions)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member)
        # guilds
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_guild_roles)
        r("GET", "/guilds/{guild_id}/members", self._list_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)

    # ------------------------------------------------------------------
    # REST: users, gateway, application
    # ------------------------------------------------------------------
    def _me_payload(self) -> dict[str, Any]:
        return {
            **self.bot_user.to_payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "locale": "en-US",
        }

    async def _get_me(self, ctx: Ctx) -> web.Response:
        return _json_response(self._me_payload())

    async def _get_user(self, ctx: Ctx) -> web.Response:
        user = self._users.get(int(ctx.params["user_id"]))
        if user is None:
            raise HTTPError(404, 10013, "Unknown User")
        return _json_response(user.to_payload())

    async def _create_dm(self, ctx: Ctx) -> web.Response:
        user = self._users.get(int(ctx.data.get("recipient_id", 0)))
        if user is None or user.bot:
            raise HTTPError(400, 50007, "Cannot send messages to this user")
        return _json_response(self.dm_channel(user).to_payload())

    async def _get_gateway(self, ctx: Ctx) -> web.Response:
        payload: dict[str, Any] = {"url": self.gateway_url}
        if ctx.record.path.endswith("/bot"):
            payload["shards"] = 1
            payload["session_start_limit"] = {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            }
        return _json_response(payload)

    async def _get_application(self, ctx: Ctx) -> web.Response:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.application_name,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.to_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": self.application_flags,
                "bot": self.bot_user.to_payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(self._guilds),
                "integration_types_config": {"0": {}},
            }
        )

    # ------------------------------------------------------------------
    # REST: application commands
    # ------------------------------------------------------------------
    def _command_list(self, ctx: Ctx) -> tuple[list[dict[str, Any]], int | None]:
        if int(ctx.params["app_id"]) != self.application_id:
            raise HTTPError(403, 50001, "Missing Access")
        gid = ctx.params.get("guild_id")
        if gid is None:
            return self.global_commands, None
        guild_id = int(gid)
        if guild_id not in self._guilds:
            raise HTTPError(404, 10004, "Unknown Guild")
        return self.guild_commands.setdefault(guild_id, []), guild_id

    def _check_command(self, cmd: dict[str, Any], index: int | None) -> list[validation.Problem]:
        problems: list[validation.Problem] = []
        prefix = f"{index}." if index is not None else ""
        ctype = cmd.get("type", 1)
        name = cmd.get("name", "")
        if ctype == 1 and (not _COMMAND_NAME_RE.match(name) or name != name.lower()):
            problems.append((f"{prefix}name", f"Command name is invalid: {name!r}"))
        if ctype == 1 and not 1 <= len(cmd.get("description") or "") <= 100:
            problems.append((f"{prefix}description", "Must be between 1 and 100 in length."))

        def check_options(options: list[dict[str, Any]], path: str) -> None:
            if len(options) > 25:
                problems.append((path, "Must be 25 or fewer in length."))
            seen_optional = False
            names: set[str] = set()
            for i, opt in enumerate(options):
                p = f"{path}.{i}"
                oname = opt.get("name", "")
                if not _COMMAND_NAME_RE.match(oname) or oname != oname.lower():
                    problems.append((f"{p}.name", f"Option name is invalid: {oname!r}"))
                if oname in names:
                    problems.append((f"{p}.name", f"Duplicate option name {oname!r}"))
                names.add(oname)
                if not 1 <= len(opt.get("description") or "") <= 100:
                    problems.append((f"{p}.description", "Must be between 1 and 100 in length."))
                if opt.get("type") in (1, 2):
                    check_options(opt.get("options") or [], f"{p}.options")
                    continue
                if opt.get("required"):
                    if seen_optional:
                        problems.append(
                            (f"{p}.required", "Required options must be placed before non-required options")
                        )
                else:
                    seen_optional = True
                if len(opt.get("choices") or []) > 25:
                    problems.append((f"{p}.choices", "Must be 25 or fewer in length."))
                if opt.get("choices") and opt.get("autocomplete"):
                    problems.append((f"{p}.autocomplete", "Autocomplete and choices are mutually exclusive"))

        check_options(cmd.get("options") or [], f"{prefix}options")
        return problems

    def _store_command(
        self, cmd: dict[str, Any], existing: list[dict[str, Any]], guild_id: int | None
    ) -> dict[str, Any]:
        ctype = cmd.get("type", 1)
        old = next((c for c in existing if c["name"] == cmd.get("name") and c["type"] == ctype), None)
        stored = {
            "id": old["id"] if old else str(snowflakes.next()),
            "application_id": str(self.application_id),
            "version": str(snowflakes.next()),
            "type": ctype,
            "name": cmd.get("name"),
            "name_localizations": cmd.get("name_localizations"),
            "description": cmd.get("description", ""),
            "description_localizations": cmd.get("description_localizations"),
            "options": copy.deepcopy(cmd.get("options") or []),
            "default_member_permissions": cmd.get("default_member_permissions"),
            "dm_permission": cmd.get("dm_permission", True),
            "nsfw": cmd.get("nsfw", False),
            "integration_types": cmd.get("integration_types") or [0],
            "contexts": cmd.get("contexts"),
        }
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    async def _list_commands(self, ctx: Ctx) -> web.Response:
        commands, _ = self._command_list(ctx)
        return _json_response(commands)

    async def _bulk_commands(self, ctx: Ctx) -> web.Response:
        commands, guild_id = self._command_list(ctx)
        body = ctx.body if isinstance(ctx.body, list) else []
        problems = [p for i, c in enumerate(body) for p in self._check_command(c, i)]
        if problems:
            raise HTTPError(400, 50035, "Invalid Form Body", validation.form_error(problems))
        new = [self._store_command(c, commands, guild_id) for c in body]
        commands[:] = new
        self._commands_synced = True
        log.info(
            "synced %s %s command(s): %s",
            len(new),
            "global" if guild_id is None else f"guild {guild_id}",
            [c["name"] for c in new],
        )
        return _json_response(new)

    async def _upsert_command(self, ctx: Ctx) -> web.Response:
        commands, guild_id = self._command_list(ctx)
        problems = self._check_command(ctx.data, None)
        if problems:
            raise HTTPError(400, 50035, "Invalid Form Body", validation.form_error(problems))
        stored = self._store_command(ctx.data, commands, guild_id)
        commands[:] = [c for c in commands if c["id"] != stored["id"]] + [stored]
        self._commands_synced = True
        return _json_response(stored, 201)

    def _command_by_id(self, ctx: Ctx) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        commands, _ = self._command_list(ctx)
        cmd = next((c for c in commands if c["id"] == ctx.params["command_id"]), None)
        if cmd is None:
            raise HTTPError(404, 10063, "Unknown application command")
        return commands, cmd

    async def _get_command(self, ctx: Ctx) -> web.Response:
        return _json_response(self._command_by_id(ctx)[1])

    async def _edit_command(self, ctx: Ctx) -> web.Response:
        _, cmd = self._command_by_id(ctx)
        for key in (
            "name",
            "description",
            "options",
            "default_member_permissions",
            "dm_permission",
            "nsfw",
            "contexts",
            "integration_types",
        ):
            if key in ctx.data:
                cmd[key] = copy.deepcopy(ctx.data[key])
        cmd["version"] = str(snowflakes.next())
        return _json_response(cmd)

    async def _delete_command(self, ctx: Ctx) -> web.Response:
        commands, cmd = self._command_by_id(ctx)
        commands.remove(cmd)
        return _no_content()

    async def _command_permissions(self, ctx: Ctx) -> web.Response:
        return _json_response([])

    # ------------------------------------------------------------------
    # REST: interaction callbacks and webhooks
    # ------------------------------------------------------------------
    async def _interaction_callback(self, ctx: Ctx) -> web.Response:
        rec = self._interactions.get(int(ctx.params["interaction_id"]))
        if rec is None or rec.token != ctx.params["token"]:
            raise HTTPError(404, 10062, "Unknown interaction")
        now = time.monotonic()
        body = ctx.data
        ctype = body.get("type")
        data = body.get("data") or {}
        if rec.callback_type is not None or rec.late:
            rec.double_acks += 1
            self.double_acks.append(rec)
            log.error("second initial response to %s (type %s)", rec.description, ctype)
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if now - rec.dispatched_at > self.interaction_deadline:
            rec.late = True
            rec.late_callback = body
            rec.callback_at = now
            self.late_interactions.append(rec)
            log.error(
                "LATE initial response to %s after %.2fs (deadline %.1fs): Discord would answer Unknown interaction",
                rec.description,
                now - rec.dispatched_at,
                self.interaction_deadline,
            )
            raise HTTPError(404, 10062, "Unknown interaction")
        if ctype not in ALLOWED_CALLBACKS.get(rec.type, set()):
            raise HTTPError(
                400,
                50035,
                "Invalid Form Body",
                validation.form_error(
                    [("type", f"Invalid callback type {ctype} for interaction type {rec.type}")]
                ),
            )
        if ctype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE) and rec.source_message_id is None:
            raise HTTPError(
                400, 50035, "Invalid Form Body", validation.form_error([("type", "No message to update")])
            )

        message: FakeMessage | None = None
        if ctype == CALLBACK_MESSAGE:
            msg_type = 20 if rec.type == APPLICATION_COMMAND else 0
            message = self._create_message(
                rec.channel, self.bot_user, data, ctx.files, record=rec, msg_type=msg_type
            )
            rec.original_message_id = message.id
        elif ctype == CALLBACK_DEFERRED_MESSAGE:
            msg_type = 20 if rec.type == APPLICATION_COMMAND else 0
            flags = int(data.get("flags") or 0) & FLAG_EPHEMERAL
            message = self._create_message(
                rec.channel, self.bot_user, {}, [], record=rec, msg_type=msg_type, flags=flags, loading=True
            )
            rec.original_message_id = message.id
        elif ctype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE):
            assert rec.source_message_id is not None
            message = self._messages.get(rec.source_message_id)
            if message is None or message.deleted:
                raise _unknown_message()
            if ctype == CALLBACK_UPDATE:
                self._apply_edit(message, data, ctx.files)
            rec.original_message_id = message.id
        elif ctype == CALLBACK_AUTOCOMPLETE:
            problems = validation.check_choices(data.get("choices", []))
            if problems:
                raise HTTPError(400, 50035, "Invalid Form Body", validation.form_error(problems))
            rec.choices = list(data.get("choices", []))
        elif ctype == CALLBACK_MODAL:
            problems = validation.check_modal(data)
            if problems:
                raise HTTPError(400, 50035, "Invalid Form Body", validation.form_error(problems))
            rec.modal = copy.deepcopy(data)

        rec.callback_type = ctype
        rec.callback = body
        rec.callback_at = now
        log.debug(
            "%s answered with callback type %s after %.3fs", rec.description, ctype, now - rec.dispatched_at
        )
        interaction: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": ctype == CALLBACK_DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": ctype}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            resource["message"] = message.to_payload(self._users)
        return _json_response({"interaction": interaction, "resource": resource})

    def _webhook_record(self, ctx: Ctx) -> InteractionRecord:
        rec = self._interactions_by_token.get(ctx.params["token"])
        if rec is None or int(ctx.params["app_id"]) != self.application_id:
            raise _unknown_webhook()
        return rec

    def _webhook_message(self, ctx: Ctx, rec: InteractionRecord) -> FakeMessage:
        mid = ctx.params["message_id"]
        if mid == "@original":
            if rec.original_message_id is None:
                raise _unknown_message()
            msg = self._messages[rec.original_message_id]
        else:
            msg = self._messages.get(int(mid)) if mid.isdigit() else None
            if msg is None or msg.webhook_id != self.application_id:
                raise _unknown_message()
        if msg.deleted:
            raise _unknown_message()
        return msg

    async def _webhook_execute(self, ctx: Ctx) -> web.Response:
        rec = self._webhook_record(ctx)
        if not rec.acknowledged:
            # Follow-ups only exist once the interaction was acknowledged.
            raise _unknown_webhook()
        original = self._messages.get(rec.original_message_id) if rec.original_message_id else None
        if rec.callback_type == CALLBACK_DEFERRED_MESSAGE and original is not None and original.loading:
            # The first follow-up after a deferred message fills the "thinking" message and keeps its ephemerality.
            data = {k: v for k, v in ctx.data.items() if k != "flags"}
            self._apply_edit(original, data, ctx.files, count=False)
            msg = original
        else:
            msg = self._create_message(rec.channel, self.bot_user, ctx.data, ctx.files, record=rec)
        rec.followup_ids.append(msg.id)
        if str(ctx.query.get("wait", "")).lower() in ("1", "true"):
            return _json_response(msg.to_payload(self._users))
        return _no_content()

    async def _webhook_get(self, ctx: Ctx) -> web.Response:
        rec = self._webhook_record(ctx)
        return _json_response(self._webhook_message(ctx, rec).to_payload(self._users))

    async def _webhook_edit(self, ctx: Ctx) -> web.Response:
        rec = self._webhook_record(ctx)
        msg = self._webhook_message(ctx, rec)
        self._apply_edit(msg, ctx.data, ctx.files, count=not msg.loading)
        return _json_response(msg.to_payload(self._users))

    async def _webhook_delete(self, ctx: Ctx) -> web.Response:
        rec = self._webhook_record(ctx)
        self._delete_message(self._webhook_message(ctx, rec))
        return _no_content()

    # ------------------------------------------------------------------
    # REST: channels and messages
    # ------------------------------------------------------------------
    def _channel_of(self, ctx: Ctx) -> FakeChannel:
        channel = self._channels.get(int(ctx.params["channel_id"]))
        if channel is None:
            raise _unknown_channel()
        return channel

    def _channel_message(self, ctx: Ctx) -> tuple[FakeChannel, FakeMessage]:
        channel = self._channel_of(ctx)
        msg = self._messages.get(int(ctx.params["message_id"]))
        # Ephemeral messages do not exist for channel routes.
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.visible_to is not None:
            raise _unknown_message()
        return channel, msg

    def _channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        return channel.to_payload()

    async def _get_channel(self, ctx: Ctx) -> web.Response:
        return _json_response(self._channel_payload(self._channel_of(ctx)))

    async def _edit_channel(self, ctx: Ctx) -> web.Response:
        channel = self._channel_of(ctx)
        if "name" in ctx.data:
            channel.name = str(ctx.data["name"])
        if "topic" in ctx.data:
            channel.topic = ctx.data["topic"]
        payload = channel.to_payload()
        self._broadcast("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload)
        return _json_response(payload)

    async def _typing(self, ctx: Ctx) -> web.Response:
        self._channel_of(ctx)
        return _no_content()

    async def _list_messages(self, ctx: Ctx) -> web.Response:
        channel = self._channel_of(ctx)
        msgs = self.messages(channel)
        limit = min(int(ctx.query.get("limit", 50)), 100)
        if "before" in ctx.query:
            msgs = [m for m in msgs if m.id < int(ctx.query["before"])]
        if "after" in ctx.query:
            msgs = [m for m in msgs if m.id > int(ctx.query["after"])][:limit]
        if "around" in ctx.query:
            around = int(ctx.query["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in msgs if m.id > around][: limit - len(older)]
            msgs = older + newer
        msgs = msgs[-limit:]
        return _json_response([m.to_payload(self._users) for m in reversed(msgs)])

    def _require_attach(self, channel: FakeChannel, files: Any) -> None:
        """Discord refuses a bot's files where it lacks Attach Files (403, 50013)."""
        guild = self._guilds.get(channel.guild_id) if files and channel.guild_id is not None else None
        if guild is not None and not guild.permissions_for(self.bot_user.id) & Perm.ATTACH_FILES:
            raise HTTPError(403, 50013, "Missing Permissions")

    async def _post_message(self, ctx: Ctx) -> web.Response:
        channel = self._channel_of(ctx)
        self._require_attach(channel, ctx.files)
        msg_type = 19 if isinstance(ctx.data.get("message_reference"), dict) else 0
        msg = self._create_message(channel, self.bot_user, ctx.data, ctx.files, msg_type=msg_type)
        return _json_response(msg.to_payload(self._users))

    async def _get_message(self, ctx: Ctx) -> web.Response:
        _, msg = self._channel_message(ctx)
        return _json_response(msg.to_payload(self._users))

    async def _edit_message(self, ctx: Ctx) -> web.Response:
        channel, msg = self._channel_message(ctx)
        if msg.author.id != self.bot_user.id and set(ctx.data) - {"flags"}:
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        self._require_attach(channel, ctx.files)
        self._edit_rate_limit(msg.id)
        self._apply_edit(msg, ctx.data, ctx.files)
        return _json_response(msg.to_payload(self._users))

    def _edit_rate_limit(self, message_id: int) -> None:
        """Discord's limit on editing one message (``edit_limit``: edits per seconds), off by
        default; an edit past it is answered 429 as Discord does, and recorded."""
        if self.edit_limit is None:
            return
        edits, seconds = self.edit_limit
        now = time.monotonic()
        recent = self._recent_edits.setdefault(message_id, collections.deque())
        while recent and now - recent[0] >= seconds:
            recent.popleft()
        if len(recent) >= edits:
            retry = round(seconds - (now - recent[0]), 3)
            self.rate_limited.append((message_id, retry))
            raise HTTPError(
                429,
                0,
                "You are being rate limited.",
                {"retry_after": retry, "global": False},
                {"Via": "1.1 fake", "X-RateLimit-Scope": "user", "Retry-After": str(retry)},
            )
        recent.append(now)
        self.edit_times.setdefault(message_id, []).append(now)

    async def _delete_message_route(self, ctx: Ctx) -> web.Response:
        _, msg = self._channel_message(ctx)
        self._delete_message(msg)
        return _no_content()

    async def _add_reaction(self, ctx: Ctx) -> web.Response:
        _, msg = self._channel_message(ctx)
        msg.reactions.setdefault(ctx.params["emoji"], set()).add(self.bot_user.id)
        return _no_content()

    async def _remove_reaction(self, ctx: Ctx) -> web.Response:
        _, msg = self._channel_message(ctx)
        uid = self.bot_user.id if ctx.params["user_id"] == "@me" else int(ctx.params["user_id"])
        msg.reactions.get(ctx.params["emoji"], set()).discard(uid)
        return _no_content()

    async def _clear_reactions(self, ctx: Ctx) -> web.Response:
        _, msg = self._channel_message(ctx)
        msg.reactions.clear()
        return _no_content()

    async def _create_thread(self, ctx: Ctx) -> web.Response:
        parent = self._channel_of(ctx)
        if parent.guild_id is None or parent.is_thread:
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        guild = self._guilds[parent.guild_id]
        if not guild.permissions_for(self.bot_user.id) & Perm.CREATE_PUBLIC_THREADS:
            raise HTTPError(403, 50013, "Missing Permissions")
        if "message_id" in ctx.params:
            _, msg = self._channel_message(ctx)
            thread_id, ttype = msg.id, CHANNEL_PUBLIC_THREAD  # a message's thread shares its id
        else:
            thread_id, ttype = snowflakes.next(), int(ctx.data.get("type") or 12)
        if thread_id in self._channels:
            raise HTTPError(400, 160004, "A thread has already been created for this message")
        thread = FakeChannel(
            id=thread_id,
            name=str(ctx.data.get("name", "thread")),
            guild_id=guild.id,
            type=ttype,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
        )
        guild.channels[thread.id] = thread
        self._channels[thread.id] = thread
        payload = thread.to_payload()
        self._broadcast("THREAD_CREATE", {**payload, "newly_created": True})
        return _json_response(payload, 201)

    async def _thread_member(self, ctx: Ctx) -> web.Response:
        self._channel_of(ctx)
        return _no_content()

    # ------------------------------------------------------------------
    # REST: guilds
    # ------------------------------------------------------------------
    def _guild(self, ctx: Ctx) -> FakeGuild:
        guild = self._guilds.get(int(ctx.params["guild_id"]))
        if guild is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, ctx: Ctx) -> web.Response:
        payload = self._guild(ctx).to_payload()
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
        ):
            payload.pop(key, None)
        payload["approximate_member_count"] = len(self._guild(ctx).members)
        return _json_response(payload)

    async def _get_guild_channels(self, ctx: Ctx) -> web.Response:
        guild = self._guild(ctx)
        return _json_response([c.to_payload() for c in guild.channels.values() if not c.is_thread])

    async def _get_guild_roles(self, ctx: Ctx) -> web.Response:
        return _json_response([r.to_payload() for r in self._guild(ctx).roles.values()])

    async def _list_members(self, ctx: Ctx) -> web.Response:
        guild = self._guild(ctx)
        after = int(ctx.query.get("after", 0))
        limit = int(ctx.query.get("limit", 1))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)[
            :limit
        ]
        return _json_response([m.to_payload() for m in members])

    async def _get_member(self, ctx: Ctx) -> web.Response:
        member = self._guild(ctx).members.get(int(ctx.params["user_id"]))
        if member is None:
            raise HTTPError(404, 10007, "Unknown Member")
        return _json_response(member.to_payload())

    # ------------------------------------------------------------------
    # driving the bot: interactions
    # ------------------------------------------------------------------
    def _resolve_message(self, message: FakeMessage | int) -> FakeMessage:
        msg = self._messages.get(message if isinstance(message, int) else message.id)
        if msg is None:
            raise LookupError(f"unknown message {message!r}")
        return msg

    def _check_member(self, user: FakeUser, channel: FakeChannel) -> None:
        if channel.type == CHANNEL_DM:
            if channel.recipient is not user:
                raise PermissionError(f"{user} cannot see the DM channel of {channel.recipient}")
            return
        guild = self._guilds[channel.guild_id]  # type: ignore[index]
        if user.id not in guild.members:
            raise PermissionError(f"{user} is not a member of {guild}")

    def _interaction_payload(
        self,
        rec_id: int,
        token: str,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        source: FakeMessage | None,
    ) -> dict[str, Any]:
        guild = self.guild_of(channel)
        perms = self.permissions(user, channel)
        payload: dict[str, Any] = {
            "id": str(rec_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.to_payload(permissions=perms),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = guild.members[user.id].to_payload(permissions=perms)
            payload["app_permissions"] = str(guild.permissions_for(self.bot_user.id))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = user.to_payload()
            payload["app_permissions"] = str(Perm.EVERYONE_DEFAULT)
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        if source is not None:
            payload["message"] = source.to_payload(self._users)
        return payload

    def dispatch_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        source: FakeMessage | None = None,
        description: str = "",
    ) -> InteractionRecord:
        """Send one INTERACTION_CREATE as Discord would (no waiting; to the session of the
        channel's shard), and record it."""
        session = self.session_for(channel.guild_id)
        assert session is not None, "no bot connected"
        rec_id = snowflakes.next()
        token = "fake-itoken-" + secrets.token_urlsafe(24)
        payload = self._interaction_payload(rec_id, token, itype, user, channel, data, source)
        rec = InteractionRecord(
            id=rec_id,
            token=token,
            type=itype,
            user=user,
            channel=channel,
            payload=payload,
            description=description,
            source_message_id=source.id if source is not None else None,
        )
        self._interactions[rec.id] = rec
        self._interactions_by_token[token] = rec
        rec.event_start = len(self._events)
        rec.dispatched_at = time.monotonic()
        self._touch()
        session.dispatch("INTERACTION_CREATE", payload)
        return rec

    async def _run_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        description: str,
        *,
        source: FakeMessage | None = None,
    ) -> InteractionResult:
        self._check_member(user, channel)
        if self.session_for(channel.guild_id) is None:
            await self.wait_for(
                lambda: self.session_for(channel.guild_id) is not None,
                None,
                "a bot to connect to the gateway",
            )
        already_running = self._handler_tasks()
        rec = self.dispatch_interaction(
            itype, user, channel, data, source=source, description=f"{description} by {user.name}"
        )
        log.debug("dispatched %s (interaction %s)", rec.description, rec.id)

        if not await self._wait(lambda: rec.acknowledged or rec.late, self.timeout):
            recent = [
                f"{r.method} {r.path} -> {r.status}" for r in self.requests if r.at >= rec.dispatched_at
            ]
            raise InteractionTimeout(
                f"the bot did not answer {rec.description} within {self.timeout}s "
                f"(no POST /interactions/{{id}}/{{token}}/callback). Requests since dispatch: {recent or 'none'}"
            )
        if rec.callback_type == CALLBACK_DEFERRED_MESSAGE:
            original = self._messages[rec.original_message_id]  # type: ignore[index]
            if not await self._wait(lambda: not original.loading or original.deleted, self.timeout):
                raise InteractionTimeout(
                    f"the bot deferred {rec.description} (type 5, 'thinking...') but sent no follow-up "
                    f"or original-response edit within {self.timeout}s"
                )
        await self.settle(ignore_tasks=already_running)
        return InteractionResult(self, rec, len(self._events))

    # -- application commands --------------------------------------------
    def _find_command(
        self, name: str, guild: FakeGuild | None, ctype: int = 1
    ) -> tuple[dict[str, Any] | None, int | None]:
        if guild is not None:
            for cmd in self.guild_commands.get(guild.id, []):
                if cmd["name"] == name and cmd["type"] == ctype:
                    return cmd, guild.id
        for cmd in self.global_commands:
            if cmd["name"] == name and cmd["type"] == ctype:
                return cmd, None
        return None, None

    def _add_resolved(
        self, resolved: dict[str, Any], value: Any, opt_type: int, guild: FakeGuild | None, user: FakeUser
    ) -> None:
        target: Any = value
        if isinstance(value, BareId):
            return  # Discord sends only the id (the user left or is not cached)
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            vid = int(value)
            target = self._users.get(vid) or self._channels.get(vid)
            if target is None and guild is not None:
                target = guild.roles.get(vid)
        if isinstance(target, FakeUser):
            resolved.setdefault("users", {})[str(target.id)] = target.to_payload()
            if guild is not None and target.id in guild.members:
                resolved.setdefault("members", {})[str(target.id)] = guild.members[target.id].to_payload(
                    with_user=False, permissions=guild.permissions_for(target.id)
                )
        elif isinstance(target, FakeChannel):
            payload = target.to_payload(permissions=self.permissions(user, target))
            resolved.setdefault("channels", {})[str(target.id)] = payload
        elif isinstance(target, FakeRole):
            resolved.setdefault("roles", {})[str(target.id)] = target.to_payload()
        else:
            raise TypeError(f"cannot resolve {value!r} for an option of type {opt_type}")

    def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        values: dict[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise ValueError("empty command")
        guild = self.guild_of(channel)
        cmd, scope = self._find_command(parts[0], guild)
        if cmd is None and self._commands_synced:
            known = sorted({c["name"] for c in self.commands})
            raise LookupError(f"/{parts[0]} is not a synced command here; synced: {known}")
        if cmd is None:
            log.warning("no commands synced: building /%s with options inferred from Python values", command)
        if cmd is not None and self.enforce_permissions and cmd.get("default_member_permissions") is not None:
            needed = int(cmd["default_member_permissions"])
            have = self.permissions(user, channel)
            if have != Perm.ALL and (needed == 0 or have & needed != needed):
                raise PermissionError(
                    f"{user.name} cannot use /{parts[0]}: it needs permissions {needed:#x} (default_member_permissions)"
                )

        defs: list[dict[str, Any]] | None = cmd.get("options", []) if cmd is not None else None
        path: list[tuple[str, int]] = []
        for depth, part in enumerate(parts[1:]):
            if defs is not None:
                sub = next((o for o in defs if o.get("name") == part and o.get("type") in (1, 2)), None)
                if sub is None:
                    raise LookupError(f"/{' '.join(parts[: depth + 1])} has no subcommand {part!r}")
                path.append((part, int(sub["type"])))
                defs = sub.get("options") or []
            else:
                path.append((part, 1 if depth == len(parts) - 2 else 2))
        if defs is not None and any(o.get("type") in (1, 2) for o in defs):
            subs = [o["name"] for o in defs if o.get("type") in (1, 2)]
            raise LookupError(f"/{' '.join(parts)} needs a subcommand: {subs}")

        leaf: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in values.items():
            spec = next((o for o in defs if o.get("name") == name), None) if defs is not None else None
            if defs is not None and spec is None:
                raise LookupError(
                    f"/{' '.join(parts)} has no option {name!r}; options: {[o.get('name') for o in defs]}"
                )
            opt_type = int(spec["type"]) if spec is not None else infer_option_type(value)
            is_focused = focused == name
            if is_focused and spec is not None and not spec.get("autocomplete"):
                raise ValueError(f"option {name!r} of /{' '.join(parts)} has no autocomplete")
            converted = convert_option_value(name, opt_type, value, focused=is_focused)
            if spec is not None and not is_focused:
                self._check_option_value(spec, converted)
            entry: dict[str, Any] = {"name": name, "type": opt_type, "value": converted}
            if is_focused:
                entry["focused"] = True
            elif opt_type in (OPTION_USER, OPTION_CHANNEL, OPTION_ROLE, OPTION_MENTIONABLE):
                self._add_resolved(resolved, value, opt_type, guild, user)
            leaf.append(entry)
        if defs is not None and focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in values]
            if missing:
                raise ValueError(f"/{' '.join(parts)} is missing required option(s) {missing}")

        options = leaf
        for name, ptype in reversed(path):
            options = [{"name": name, "type": ptype, "options": options}]
        data: dict[str, Any] = {
            "id": cmd["id"] if cmd is not None else str(snowflakes.next()),
            "name": parts[0],
            "type": 1,
        }
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data

    @staticmethod
    def _check_option_value(spec: dict[str, Any], value: Any) -> None:
        name = spec.get("name")
        choices = spec.get("choices")
        if choices and value not in [c.get("value") for c in choices]:
            raise ValueError(
                f"option {name!r} must be one of {[c.get('value') for c in choices]}, got {value!r}"
            )
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if spec.get("min_value") is not None and value < spec["min_value"]:
                raise ValueError(f"option {name!r} must be >= {spec['min_value']}, got {value!r}")
            if spec.get("max_value") is not None and value > spec["max_value"]:
                raise ValueError(f"option {name!r} must be <= {spec['max_value']}, got {value!r}")
        if isinstance(value, str) and spec.get("type") == 3:
            if spec.get("min_length") is not None and len(value) < spec["min_length"]:
                raise ValueError(f"option {name!r} must be at least {spec['min_length']} long")
            if spec.get("max_length") is not None and len(value) > spec["max_length"]:
                raise ValueError(f"option {name!r} must be at most {spec['max_length']} long")

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run ``/command`` ("play", "crown pick", "admin game reset") with the given option values."""
        values = {**(options or {}), **kwargs}
        data = self._command_data(user, channel, command, values, focused=None)
        return await self._run_interaction(APPLICATION_COMMAND, user, channel, data, f"/{command}")

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        focused: str,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Ask the bot for autocomplete choices of option ``focused``; returns ``[{"name", "value"}]``."""
        values = {**(options or {}), **kwargs}
        values.setdefault(focused, "")
        data = self._command_data(user, channel, command, values, focused=focused)
        result = await self._run_interaction(
            AUTOCOMPLETE, user, channel, data, f"autocomplete /{command} {focused}"
        )
        if result.callback_type != CALLBACK_AUTOCOMPLETE:
            raise AssertionError(f"expected an autocomplete result (type 8), got {result.callback_type}")
        return result.choices or []

    # -- components ------------------------------------------------------
    def _component_target(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str
    ) -> tuple[FakeMessage, dict[str, Any]]:
        msg = self._resolve_message(message)
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        if not msg.visible_for(user.id):
            raise PermissionError(f"{user.name} cannot see ephemeral message {msg.id}")
        comp = msg.component(custom_id)
        if comp is None:
            have = [c.get("custom_id") for c in walk_components(msg.components) if c.get("custom_id")]
            raise LookupError(f"message {msg.id} has no component {custom_id!r}; it has {have}")
        if comp.get("disabled"):
            raise PermissionError(f"component {custom_id!r} on message {msg.id} is disabled")
        return msg, comp

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
    ) -> InteractionResult:
        """Click a button (by custom_id, or by ``label=``) on a stored message."""
        if custom_id is None:
            if label is None:
                raise ValueError("click() needs a custom_id or a label")
            found = self._resolve_message(message).find_button(label)
            if found.custom_id is None:
                raise ValueError(f"button {label!r} is a link button")
            custom_id = found.custom_id
        msg, comp = self._component_target(user, message, custom_id)
        if comp.get("type") != 2 or comp.get("style") == 5:
            raise ValueError(f"component {custom_id!r} is not a clickable button")
        data = {"custom_id": custom_id, "component_type": 2, "id": comp.get("id")}
        channel = self._channels[msg.channel_id]
        return await self._run_interaction(
            MESSAGE_COMPONENT, user, channel, data, f"click {custom_id!r} on message {msg.id}", source=msg
        )

    async def select(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[Any]
    ) -> InteractionResult:
        """Choose ``values`` in a select menu (string values, or users/roles/channels for typed selects)."""
        msg, comp = self._component_target(user, message, custom_id)
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise ValueError(f"component {custom_id!r} is not a select menu")
        lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes between {lo} and {hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype, "id": comp.get("id")}
        channel = self._channels[msg.channel_id]
        if ctype == 3:
            allowed = [o.get("value") for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r} has no option(s) {bad}; options: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, Any] = {}
            for value in values:
                self._add_resolved(resolved, value, ctype, self.guild_of(channel), user)
            data["values"] = [str(getattr(v, "id", v)) for v in values]
            data["resolved"] = resolved
        return await self._run_interaction(
            MESSAGE_COMPONENT,
            user,
            channel,
            data,
            f"select {custom_id!r}={values} on message {msg.id}",
            source=msg,
        )

    async def submit_modal(
        self, user: FakeUser, opened_by: InteractionResult, values: dict[str, Any]
    ) -> InteractionResult:
        """Submit the modal the bot opened in ``opened_by`` (callback 9); ``values`` maps custom_id -> value."""
        rec = opened_by.record
        if rec.modal is None:
            raise LookupError(f"{rec.description} did not open a modal")
        modal = rec.modal
        unknown = set(values) - {c.get("custom_id") for c in walk_components(modal.get("components"))}
        if unknown:
            raise LookupError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}")

        def mirror(comp: dict[str, Any]) -> dict[str, Any]:
            ctype = comp.get("type")
            out: dict[str, Any] = {"type": ctype, "id": comp.get("id")}
            if ctype == 1:
                out["components"] = [mirror(c) for c in comp.get("components") or []]
            elif ctype == 18:
                out["component"] = mirror(comp["component"])
            elif ctype == 4:
                cid = comp["custom_id"]
                value = str(values.get(cid, comp.get("value") or ""))
                if comp.get("required", True) and not value:
                    raise ValueError(f"text input {cid!r} is required")
                if comp.get("max_length") is not None and len(value) > comp["max_length"]:
                    raise ValueError(f"text input {cid!r} allows at most {comp['max_length']} characters")
                if value and comp.get("min_length") is not None and len(value) < comp["min_length"]:
                    raise ValueError(f"text input {cid!r} needs at least {comp['min_length']} characters")
                out["custom_id"] = cid
                out["value"] = value
            elif ctype in (3, 5, 6, 7, 8):
                out["custom_id"] = comp["custom_id"]
                out["values"] = [str(getattr(v, "id", v)) for v in values.get(comp["custom_id"], [])]
            return out

        data = {
            "custom_id": modal["custom_id"],
            "components": [mirror(c) for c in modal.get("components") or []],
        }
        source = self._messages.get(rec.source_message_id) if rec.source_message_id else None
        return await self._run_interaction(
            MODAL_SUBMIT, user, rec.channel, data, f"modal {modal['custom_id']!r}", source=source
        )

    # -- plain messages ----------------------------------------------------
    async def say(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """A user posts a message (MESSAGE_CREATE to the bot); waits until the bot is quiet."""
        self._check_member(user, channel)
        already_running = self._handler_tasks()
        msg = self._create_message(channel, user, {"content": content}, [])
        self._touch()
        await self.settle(ignore_tasks=already_running)
        return msg
