"""baresip's ctrl_tcp module: netstring-framed JSON events on a TCP connection.

CALL_INCOMING -> ringing, CALL_ESTABLISHED -> answered, CALL_CLOSED -> ended (incoming
calls only: a call the desk places is not someone calling in). The same connection takes
commands (``dial``), which is what :class:`corpdir.calls.dialers.BaresipDialer` sends."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from corpdir.calls.events import CallEvent, CallState, MalformedEvent, number_from_uri
from corpdir.calls.netstring import Decoder

if TYPE_CHECKING:
    from corpdir.calls.hub import FeedLink
    from corpdir.config import BaresipFeed as BaresipConfig

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


class BaresipFeed:
    def __init__(self, config: BaresipConfig) -> None:
        self.config = config
        self.name = config.name
        self.records = config.records

    async def run(self, link: FeedLink) -> None:
        reader, writer = await asyncio.open_connection(self.config.host, self.config.port)
        link.connected()
        decoder = Decoder()
        try:
            while data := await reader.read(65536):
                for payload in decoder.feed(data):
                    try:
                        event = parse(payload)
                    except MalformedEvent as exc:
                        link.skip(payload, str(exc))
                        continue
                    if event is not None:
                        link.emit(event)
        finally:
            writer.close()


async def send_command(host: str, port: int, command: str, params: str, token: str = "corpdir") -> dict[str, Any]:
    """One ctrl_tcp command on its own connection; the response with our token."""
    from corpdir.calls.netstring import encode

    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(encode(json.dumps({"command": command, "params": params, "token": token}).encode()))
        await writer.drain()
        decoder = Decoder()
        while data := await reader.read(65536):
            for payload in decoder.feed(data):
                try:
                    message = json.loads(payload)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("response") and message.get("token") == token:
                    return message
        raise ConnectionError("baresip closed the connection before answering")
    finally:
        writer.close()
