"""baresip's ctrl_tcp module: netstring-framed JSON events on a TCP connection.

CALL_INCOMING -> ringing, CALL_ESTABLISHED -> answered, CALL_CLOSED -> ended (incoming
calls only: a call the desk places is not someone calling in). The same connection takes
commands (``dial``), which is what :class:`corpdir.calls.dialers.BaresipDialer` sends.

ctrl_tcp serves one client at a time: a second connection drops the first. So while a
feed is connected, commands to the same baresip go over the feed's connection (its
answers come back among the events, matched by token); only without one does a command
open its own connection."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import TYPE_CHECKING, Any

from corpdir.calls.events import CallEvent, CallState, MalformedEvent, number_from_uri
from corpdir.calls.netstring import Decoder, encode

if TYPE_CHECKING:
    from corpdir.calls.hub import FeedLink
    from corpdir.config import BaresipFeedConfig

STATES = {"CALL_INCOMING": CallState.RINGING, "CALL_ESTABLISHED": CallState.ANSWERED, "CALL_CLOSED": CallState.ENDED}


def parse(payload: bytes) -> CallEvent | None:
    """The event in one netstring payload; None for anything that is not about an incoming
    call's state (responses, SDP, registration); MalformedEvent for what cannot be read."""
    try:
        message = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MalformedEvent(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise MalformedEvent("not a JSON object")
    if not message.get("event"):
        return None
    state = STATES.get(str(message.get("type")))
    if state is None:
        return None
    if message.get("direction", "incoming") != "incoming":
        return None
    call_id, peer = message.get("id"), message.get("peeruri")
    if not isinstance(call_id, str) or not call_id or not isinstance(peer, str):
        raise MalformedEvent("call event without id or peeruri")
    name = message.get("peerdisplayname")
    return CallEvent("", call_id, state, number_from_uri(peer), name if isinstance(name, str) else "",
                     number_from_uri(str(message.get("accountaor") or "")))


class Connection:
    """One ctrl_tcp connection: commands out, their answers matched by token."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = Decoder()
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def command(self, command: str, params: str) -> dict[str, Any]:
        token = f"corpdir-{next(_TOKENS)}"
        answer = asyncio.get_running_loop().create_future()
        self._waiting[token] = answer
        try:
            self.writer.write(encode(json.dumps({"command": command, "params": params, "token": token}).encode()))
            await self.writer.drain()
            return await answer
        finally:
            self._waiting.pop(token, None)

    async def messages(self) -> Any:
        """Each payload until the connection ends; answers to commands are taken out."""
        while data := await self.reader.read(65536):
            for payload in self.decoder.feed(data):
                if b'"response"' in payload:
                    try:
                        message = json.loads(payload)
                    except ValueError:
                        message = None
                    if isinstance(message, dict) and message.get("token") in self._waiting:
                        self._waiting[message["token"]].set_result(message)
                        continue
                yield payload
        for waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(ConnectionError("baresip closed the connection before answering"))

    def close(self) -> None:
        self.writer.close()


_TOKENS = itertools.count(1)
_FEEDS: dict[tuple[str, int], Connection] = {}  # connected feeds, by baresip address


class BaresipFeed:
    def __init__(self, config: BaresipFeedConfig) -> None:
        self.config = config
        self.name = config.name
        self.records = config.records

    async def run(self, link: FeedLink) -> None:
        address = (self.config.host, self.config.port)
        connection = Connection(*await asyncio.open_connection(*address))
        _FEEDS[address] = connection
        link.connected()
        try:
            async for payload in connection.messages():
                try:
                    event = parse(payload)
                except MalformedEvent as exc:
                    link.skip(payload, str(exc))
                    continue
                if event is not None:
                    link.emit(event)
        finally:
            if _FEEDS.get(address) is connection:
                del _FEEDS[address]
            connection.close()


async def send_command(host: str, port: int, command: str, params: str) -> dict[str, Any]:
    """A ctrl_tcp command (dial, accept, hangup ...) and baresip's answer: over a running
    feed's connection, else over one of its own."""
    feed = _FEEDS.get((host, port))
    if feed is not None:
        return await feed.command(command, params)
    connection = Connection(*await asyncio.open_connection(host, port))

    async def drain() -> None:
        async for _ in connection.messages():  # events meant for a feed: nobody is listening
            pass

    reading = asyncio.create_task(drain())
    try:
        return await connection.command(command, params)
    finally:
        reading.cancel()
        connection.close()
