"""The gateway: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay, reconnect requests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum, IntFlag
from typing import Literal

from aiohttp import WSMsgType, web

from .model import JSONObject, User
from .sharding import INVALID_SHARD, SHARDING_REQUIRED, Shard, Sharding, event_guild_id

CloseHow = Literal["op7", "drop"]
REPLAY_LIMIT = 10_000
"""Events kept per session for RESUME; a client further behind must IDENTIFY again."""


class Op(IntEnum):
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Intent(IntFlag):
    """The gateway intents the stand-in filters events by."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    GUILD_MESSAGE_POLLS = 1 << 24
    DIRECT_MESSAGE_POLLS = 1 << 25


@dataclass(eq=False)
class Connection:
    """One websocket connection, with its optional zlib-stream compressor."""

    ws: web.WebSocketResponse
    path: str
    compressor: zlib._Compress | None = None

    async def send(self, frame: JSONObject) -> None:
        """Send one gateway frame (text, or a zlib-stream binary frame)."""
        text = json.dumps(frame, separators=(",", ":"))
        if self.compressor is None:
            await self.ws.send_str(text)
        else:
            body = self.compressor.compress(text.encode()) + self.compressor.flush(
                zlib.Z_SYNC_FLUSH
            )
            await self.ws.send_bytes(body)


@dataclass(eq=False)
class Session:
    """A gateway session: it outlives connections so that RESUME can replay what was missed."""

    id: str
    token: str
    intents: int
    shard: Shard = field(default_factory=Shard)
    seq: int = 0
    events: list[JSONObject] = field(default_factory=list)
    connection: Connection | None = None
    valid: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def dispatch(self, event: str, data: JSONObject) -> None:
        """Number, buffer and (when connected) send one event; call with ``lock`` held."""
        self.seq += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": self.seq, "d": data}
        self.events.append(frame)
        if len(self.events) > REPLAY_LIMIT:
            del self.events[0]
        if self.connection is not None and not self.connection.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.connection.send(frame)


@dataclass
class GatewayStats:
    """What happened on the gateway, for tests to assert on."""

    connections: list[str] = field(default_factory=list)
    compressed: int = 0
    identifies: int = 0
    resumes: int = 0
    replayed: int = 0
    invalid_sessions: int = 0
    heartbeats: int = 0


class Gateway:
    """Serves websocket connections and fans events out to live sessions."""

    def __init__(
        self,
        *,
        bot_user: User,
        application_flags: int,
        ready_guilds: Callable[[], Iterable[JSONObject]],
        resume_url: Callable[[], str],
        heartbeat_interval: float,
        token: str | None,
        compress: bool,
        sharding: Sharding | None = None,
    ) -> None:
        self._bot_user = bot_user
        self._application_flags = application_flags
        self._ready_guilds = ready_guilds
        self._resume_url = resume_url
        self._heartbeat_ms = int(heartbeat_interval * 1000)
        self._token = token
        self._compress = compress
        self.sharding = sharding or Sharding()
        self.sessions: dict[str, Session] = {}
        self.stats = GatewayStats()
        self._open: set[web.WebSocketResponse] = set()
        self._gate = asyncio.Event()
        self._gate.set()
        self._changed = asyncio.Event()

    # -- observation -------------------------------------------------------------------------

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], bool], *, timeout: float, what: str) -> None:
        """Wait until ``predicate()`` holds after some gateway activity."""
        try:
            async with asyncio.timeout(timeout):
                while not predicate():
                    await self._changed.wait()
        except TimeoutError:
            raise TimeoutError(f"gateway: no {what} within {timeout}s") from None

    @property
    def live_sessions(self) -> list[Session]:
        """Sessions that still receive (or buffer) events."""
        return [s for s in self.sessions.values() if s.valid]

    @property
    def connected(self) -> bool:
        """Whether some live session has an open connection."""
        return any(s.connection is not None for s in self.live_sessions)

    # -- events ------------------------------------------------------------------------------

    async def dispatch(self, event: str, data: JSONObject, *, intent: int = 0) -> int:
        """Send ``event`` to every live session that asked for ``intent`` and whose shard holds
        the event's guild (DMs: shard 0); return how many."""
        count = 0
        guild_id = event_guild_id(event, data)
        for session in self.live_sessions:
            if (intent and not session.intents & intent) or not session.shard.owns(guild_id):
                continue
            async with session.lock:
                await session.dispatch(event, data)
            count += 1
        return count

    async def request_reconnect(self, how: CloseHow = "op7") -> None:
        """Make every connected client reconnect: ask with op 7, or close its socket (code 4000)."""
        for session in self.live_sessions:
            conn = session.connection
            if conn is None:
                continue
            if how == "op7":
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await conn.send({"op": Op.RECONNECT, "d": None, "s": None, "t": None})
            else:
                session.connection = None
                await conn.ws.close(code=4000, message=b"stand-in dropped the connection")
        self._notify()

    async def invalidate(self) -> None:
        """Invalidate every session (op 9, not resumable): clients must IDENTIFY again."""
        for session in self.live_sessions:
            session.valid = False
            if session.connection is not None:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await session.connection.send(
                        {"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None}
                    )
        self.stats.invalid_sessions += 1
        self._notify()

    def hold(self) -> None:
        """Accept new connections but send no HELLO until :meth:`release`."""
        self._gate.clear()

    def release(self) -> None:
        """Let held connections proceed."""
        self._gate.set()

    async def close(self) -> None:
        """Close every open websocket (server shutdown)."""
        self._gate.set()
        for ws in list(self._open):
            await ws.close(code=1001, message=b"stand-in shutting down")

    # -- the websocket handler ----------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """aiohttp handler for ``/gateway`` (and the resume URL)."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        compressor = None
        if self._compress and request.query.get("compress") == "zlib-stream":
            compressor = zlib.compressobj()
            self.stats.compressed += 1
        conn = Connection(ws, request.path, compressor)
        self._open.add(ws)
        self.stats.connections.append(request.path)
        session: Session | None = None
        try:
            await self._gate.wait()
            await conn.send(
                {
                    "op": Op.HELLO,
                    "d": {"heartbeat_interval": self._heartbeat_ms},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                session = await self._on_frame(conn, session, frame) or session
        finally:
            self._open.discard(ws)
            if session is not None and session.connection is conn:
                session.connection = None
                if ws.close_code in (1000, 1001):
                    session.valid = False  # a clean client close ends the session, as on Discord
            self._notify()
        return ws

    async def _on_frame(
        self, conn: Connection, session: Session | None, frame: JSONObject
    ) -> Session | None:
        op, data = frame.get("op"), frame.get("d")
        if op == Op.HEARTBEAT:
            self.stats.heartbeats += 1
            await conn.send({"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == Op.IDENTIFY:
            return await self._identify(conn, data or {})
        elif op == Op.RESUME:
            return await self._resume(conn, data or {})
        elif op == Op.REQUEST_GUILD_MEMBERS and session is not None:
            await self._members_chunk(session, data or {})
        return None

    async def _identify(self, conn: Connection, data: JSONObject) -> Session | None:
        token = str(data.get("token", ""))
        if self._token is not None and token != self._token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = self.sharding.parse(data.get("shard"))
        if shard is None:
            await conn.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        guilds = [g for g in self._ready_guilds() if shard.owns(int(g["id"]))]
        if len(guilds) > self.sharding.guilds_per_shard:
            await conn.ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return None
        if self.sharding.remaining <= 0:  # Discord resets the token: every session ends
            await self.invalidate()
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        if not self.sharding.admit(shard):  # the bucket identified less than 5 s ago
            await conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            self._notify()
            return None
        session = Session(secrets.token_hex(16), token, int(data.get("intents") or 0), shard)
        self.sessions[session.id] = session
        async with session.lock:
            session.connection = conn
            await session.dispatch(
                "READY",
                {
                    "v": 10,
                    "user": self._bot_user.payload()
                    | {"verified": True, "mfa_enabled": False, "flags": 0},
                    "guilds": [{"id": g["id"], "unavailable": True} for g in guilds],
                    "session_id": session.id,
                    "resume_gateway_url": self._resume_url(),
                    "application": {"id": str(self._bot_user.id), "flags": self._application_flags},
                    "private_channels": [],
                    "relationships": [],
                    "presences": [],
                    "geo_ordered_rtc_regions": [],
                    "session_type": "normal",
                    "auth": {},
                    "shard": [shard.id, shard.count],
                },
            )
            for guild in guilds:
                await session.dispatch("GUILD_CREATE", guild)
        self.stats.identifies += 1
        self._notify()
        return session

    async def _resume(self, conn: Connection, data: JSONObject) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        if session is None or not can_resume(session, str(data.get("token")), seq):
            self.stats.invalid_sessions += 1
            await conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            self._notify()
            return None
        async with session.lock:
            session.connection = conn
            missed = [e for e in session.events if e["s"] > seq]
            for frame in missed:
                await conn.send(frame)
            self.stats.replayed += len(missed)
            await session.dispatch("RESUMED", {"_trace": ["standin"]})
        self.stats.resumes += 1
        self._notify()
        return session

    async def _members_chunk(self, session: Session, data: JSONObject) -> None:
        guild_id = str(data.get("guild_id"))
        guild = next((g for g in self._ready_guilds() if g["id"] == guild_id), None)
        members = [] if guild is None else guild["members"]
        async with session.lock:
            await session.dispatch(
                "GUILD_MEMBERS_CHUNK",
                {
                    "guild_id": guild_id,
                    "members": members,
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "nonce": data.get("nonce"),
                    "not_found": [],
                },
            )


def can_resume(session: Session, token: str, seq: int) -> bool:
    """Valid, same token, and nothing the client missed has been dropped from the buffer."""
    oldest = session.events[0]["s"] if session.events else session.seq + 1
    return session.valid and session.token == token and seq >= oldest - 1
