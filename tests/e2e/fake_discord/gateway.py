"""The gateway: HELLO, IDENTIFY (READY and GUILD_CREATE), RESUME, heartbeats and member chunks
on a websocket, and ``/gateway`` and ``/gateway/bot`` over REST."""

from __future__ import annotations

import asyncio
import json
import secrets
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .routing import discord_error, json_response

if TYPE_CHECKING:
    from .guilds import GuildAPI
    from .routing import Route
    from .store import Store


@dataclass(eq=False)
class GatewayConnection:
    """One websocket of a bot: its sequence number and session."""

    ws: web.WebSocketResponse
    number: int
    seq: int = 0
    session_id: str | None = None
    identified: bool = False
    ready: bool = False
    identify: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: dict[str, Any]) -> None:
        """Send one gateway payload; dispatches (op 0) get the next sequence number."""
        async with self.lock:
            if self.ws.closed:
                return
            if payload.get("op") == 0:
                self.seq += 1
                payload = {**payload, "s": self.seq}
            else:
                payload = {"t": None, "s": None, **payload}
            await self.ws.send_str(json.dumps(payload))


class Gateway:
    """The gateway of the fake; the store sends the dispatches to its connections."""

    def __init__(self, store: Store, guild_api: GuildAPI) -> None:
        self.store = store
        self.guild_api = guild_api

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
        ]

    async def serve(self, request: web.Request) -> web.StreamResponse:
        """The gateway's websocket: HELLO, then every payload the bot sends until it closes."""
        fault = self.store.take_fault("GET", "/gateway")  # fail("GET", r"/gateway", 503)
        if fault is not None:
            return discord_error(fault.status, fault.code, f"{fault.status}: {fault.message}")
        ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        conn = GatewayConnection(ws=ws, number=next(self.store.connection_numbers))
        self.store.connections.append(conn)
        self.store.notify()
        try:
            await conn.send(
                {"op": 10, "d": {"heartbeat_interval": self.store.heartbeat_interval_ms}}
            )
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    raw = msg.data if isinstance(msg.data, str) else msg.data.decode()
                    await self._on_gateway_payload(conn, json.loads(raw))
                elif msg.type == WSMsgType.ERROR:
                    break
        except Exception:
            self.store.errors.append("gateway: " + traceback.format_exc())
        finally:
            self.store.connections.remove(conn)
            self.store.notify()
        return ws

    async def _on_gateway_payload(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == 1:  # heartbeat
            await conn.send({"op": 11, "d": None})
        elif op == 2:  # identify
            await self._identify(conn, data or {})
        elif op == 6:  # resume
            session_id = (data or {}).get("session_id")
            if session_id in self.store.sessions:
                conn.session_id = session_id
                conn.seq = int((data or {}).get("seq") or 0)
                conn.identified = conn.ready = True
                self.store.resume_count += 1
                await conn.send({"op": 0, "t": "RESUMED", "d": {}})
                self.store.notify()
            else:
                await conn.send({"op": 9, "d": False})
        elif op == 8:  # request guild members
            await self._members_chunk(conn, data or {})

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        token = str(data.get("token") or "")
        self.store.tokens_seen.add(token)
        conn.identify = data
        conn.session_id = secrets.token_hex(16)
        self.store.sessions.add(conn.session_id)
        conn.identified = True
        self.store.identify_payloads.append(data)
        ready = {
            "v": 10,
            "user": {
                **self.store.bot_user.to_json(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
            },
            "guilds": [{"id": str(self.store.guild_id), "unavailable": True}],
            "session_id": conn.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.store.gateway_url,
            "application": {"id": str(self.store.application_id), "flags": 0},
            "shard": data.get("shard") or [0, 1],
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
        }
        await conn.send({"op": 0, "t": "READY", "d": ready})
        await conn.send({"op": 0, "t": "GUILD_CREATE", "d": self.guild_api.guild_json()})
        conn.ready = True
        self.store.identify_count += 1
        self.store.notify()

    async def _members_chunk(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        members = [self.store.bot_user, *self.store.users.values()]
        query = data.get("query")
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.id in wanted]
        elif query:
            members = [m for m in members if m.name.lower().startswith(str(query).lower())]
        chunk = {
            "guild_id": str(self.store.guild_id),
            "members": [self.guild_api.member_json(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await conn.send({"op": 0, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection with ``code`` (4000 makes discord.py resume)."""
        for conn in list(self.store.connections):
            await conn.ws.close(code=code, message=b"fake discord dropped the connection")

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": f"ws://127.0.0.1:{self.store.port}/gateway"})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": f"ws://127.0.0.1:{self.store.port}/gateway",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )
