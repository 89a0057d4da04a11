"""The fake gateway: websocket connections and (resumable) sessions."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.gateway")

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11
HEARTBEAT_ACK_SECONDS = 0.05  # a heartbeat's acknowledgement comes after about a round trip to Discord

# Intent bits
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

REPLAY_BUFFER = 1000


@dataclass(eq=False)
class GatewaySession:
    """An identified gateway session; survives its connection for RESUME."""

    session_id: str
    intents: int
    token: str
    identify: dict[str, Any]
    seq: int = 0
    connection: GatewayConnection | None = None
    buffer: list[dict[str, Any]] = field(default_factory=list)
    invalidated: bool = False
    dispatched: list[str] = field(default_factory=list)  # event names, in order
    shard: tuple[int, int] | None = None  # (shard id, shard count) from IDENTIFY; None: every server

    def serves(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session a server's events: a sharded session gets the
        servers with ``(id >> 22) % count == shard id``, and direct messages on shard 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    @property
    def connected(self) -> bool:
        return self.connection is not None and not self.connection.closed

    def has_intent(self, bit: int) -> bool:
        return bool(self.intents & bit)

    def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(payload)
        if len(self.buffer) > REPLAY_BUFFER:
            del self.buffer[: len(self.buffer) - REPLAY_BUFFER]
        self.dispatched.append(event)
        if self.connection is not None:
            self.connection.send(payload)


class GatewayConnection:
    """One websocket connection from a client."""

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse, number: int) -> None:
        self.fake = fake
        self.ws = ws
        self.number = number
        self.session: GatewaySession | None = None
        self.closed = False
        self.close_code: int | None = None
        self.received: list[dict[str, Any]] = []
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    def send(self, payload: dict[str, Any]) -> None:
        if not self.closed:
            self._queue.put_nowait(payload)

    async def _write_loop(self) -> None:
        while True:
            payload = await self._queue.get()
            if payload is None:
                return
            try:
                await self.ws.send_str(json.dumps(payload))
            except (ConnectionError, RuntimeError) as exc:
                log.debug("conn %s: send failed: %s", self.number, exc)
                return

    async def close(self, code: int = 1001, message: bytes = b"") -> None:
        if not self.ws.closed:
            await self.ws.close(code=code, message=message)

    async def serve(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name=f"fakediscord-gw-writer-{self.number}")
        self.send(
            {
                "op": OP_HELLO,
                "d": {"heartbeat_interval": self.fake.heartbeat_interval_ms},
                "s": None,
                "t": None,
            }
        )
        try:
            async for msg in self.ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        payload = json.loads(msg.data)
                    except ValueError:
                        log.error("conn %s: invalid JSON frame %r", self.number, msg.data[:200])
                        await self.close(4002, b"Error while decoding payload.")
                        break
                    self.received.append(payload)
                    await self._handle(payload)
                elif msg.type == WSMsgType.BINARY:
                    log.error("conn %s: unexpected binary frame", self.number)
                elif msg.type == WSMsgType.ERROR:
                    log.debug("conn %s: ws error %s", self.number, self.ws.exception())
                    break
        finally:
            self.closed = True
            self.close_code = self.ws.close_code
            self._queue.put_nowait(None)
            if self._writer is not None:
                try:
                    await asyncio.wait_for(self._writer, 1)
                except (TimeoutError, asyncio.CancelledError):
                    self._writer.cancel()
            if self.session is not None and self.session.connection is self:
                self.session.connection = None
                if self.close_code in (1000, 1001):
                    # A clean close by the client ends the session (Discord does the same).
                    self.session.invalidated = True
            log.info("gateway connection %s closed (code %s)", self.number, self.close_code)
            self.fake._notify()

    async def _handle(self, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == OP_HEARTBEAT:
            # Acknowledged after a network's round trip, as Discord's would be: discord.py notes
            # when its heartbeat went out only after its own thread has seen the send done, and
            # an acknowledgement faster than that (loopback, a busy client) is taken for one a
            # whole heartbeat interval late ("Can't keep up ... 41.3s behind" in the bot's log).
            ack = {"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None}
            asyncio.get_running_loop().call_later(HEARTBEAT_ACK_SECONDS, self.send, ack)
            return
        if op == OP_IDENTIFY:
            await self._identify(data or {})
            return
        if op == OP_RESUME:
            await self._resume(data or {})
            return
        if op == OP_REQUEST_MEMBERS:
            self._request_members(data or {})
            return
        if op in (OP_PRESENCE_UPDATE, OP_VOICE_STATE_UPDATE):
            self.fake._touch()
            return
        log.warning("conn %s: unhandled gateway op %r: %r", self.number, op, payload)
        self.fake.unknown_ops.append(payload)

    async def _identify(self, data: dict[str, Any]) -> None:
        token = str(data.get("token", ""))
        if not self.fake._token_ok(token):
            log.error("IDENTIFY with a wrong token")
            await self.close(4004, b"Authentication failed.")
            return
        if self.session is not None:
            await self.close(4005, b"Already authenticated.")
            return
        shard = data.get("shard")
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            intents=int(data.get("intents", 0)),
            token=token,
            identify=data,
            shard=(int(shard[0]), int(shard[1])) if shard else None,
        )
        self.session = session
        session.connection = self
        self.fake._sessions.append(session)
        session.dispatch("READY", self.fake._ready_payload(session, shard))
        for guild in self.fake.guilds:
            if session.serves(guild.id):
                session.dispatch("GUILD_CREATE", self.fake._guild_create_payload(guild))
        log.info(
            "gateway connection %s identified: session %s intents %s",
            self.number,
            session.session_id,
            session.intents,
        )
        self.fake._notify()

    async def _resume(self, data: dict[str, Any]) -> None:
        session_id = data.get("session_id")
        session = next((s for s in self.fake._sessions if s.session_id == session_id), None)
        if session is None or session.invalidated or not self.fake._token_ok(str(data.get("token", ""))):
            log.info("RESUME of unknown/invalid session %s: INVALID_SESSION", session_id)
            self.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        if session.connection is not None and session.connection is not self:
            old = session.connection
            session.connection = None
            await old.close(4000, b"Session resumed elsewhere")
        self.session = session
        session.connection = self
        last = int(data.get("seq") or 0)
        for event in session.buffer:
            if event["s"] > last:
                self.send(event)
        session.dispatch("RESUMED", {})
        log.info("gateway connection %s resumed session %s from seq %s", self.number, session_id, last)
        self.fake._notify()

    def _request_members(self, data: dict[str, Any]) -> None:
        if self.session is None:
            return
        guild = self.fake._guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        query = data.get("query")
        if query:
            members = [m for m in members if m.user.name.lower().startswith(str(query).lower())]
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.user.id in wanted]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.to_payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        self.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
