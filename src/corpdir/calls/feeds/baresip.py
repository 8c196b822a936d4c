"""baresip's ctrl_tcp module: netstring-framed JSON events on a TCP connection.

CALL_INCOMING -> ringing, CALL_ESTABLISHED -> answered, CALL_CLOSED -> ended (incoming
calls only: a call the desk places is not someone calling in). An account with
``answermode=auto`` sends no CALL_INCOMING (baresip 1.0.0): its first event is
CALL_REMOTE_SDP "offer", which rings the pop-up then. The same connection takes commands
(``dial``, ``accept``, ``hangup``), which the dialer and the card's answer/hang-up send.

ctrl_tcp serves one client at a time: a second connection drops the first. So while a
feed is connected, commands to the same baresip go over the feed's connection (its
answers come back among the events, matched by token); only without one does a command
open its own connection. Two corpdir processes on one baresip would take the connection
from each other in a loop, so the connection is held under a lock file in the runtime dir
(:func:`hold`): the second one is refused and says who holds it.

Calls already up when the feed connects are read from ``listcalls`` and ``callstat``
(:func:`reconcile`): an answered call is taken from its answer (baresip counts its
duration from there), a ringing one from now."""

from __future__ import annotations

import asyncio
import fcntl
import itertools
import json
import os
import re
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from corpdir.calls.events import CallEvent, CallState, MalformedEvent, now, number_from_uri
from corpdir.calls.hub import FeedRefused
from corpdir.calls.netstring import Decoder, encode

if TYPE_CHECKING:
    from corpdir.calls.hub import FeedLink
    from corpdir.config import BaresipFeedConfig

STATES = {"CALL_INCOMING": CallState.RINGING, "CALL_ESTABLISHED": CallState.ANSWERED, "CALL_CLOSED": CallState.ENDED}


def parse(payload: bytes) -> CallEvent | None:
    """The event in one netstring payload; None for anything that is not about an incoming
    call's state (responses, registration, SDP but an offer); MalformedEvent for what
    cannot be read."""
    try:
        message = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MalformedEvent(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise MalformedEvent("not a JSON object")
    if not message.get("event"):
        return None
    kind = str(message.get("type"))
    state = STATES.get(kind)
    if kind == "CALL_REMOTE_SDP" and message.get("param") == "offer":
        state = CallState.RINGING  # an auto-answering account's first word of a call (the feed keeps one ring)
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


def hold(host: str, port: int) -> int:
    """This process's lock on baresip's one control connection (an open file descriptor:
    closing it lets go, and so does the process's death). :class:`FeedRefused`, naming the
    holder, when another corpdir has it."""
    from corpdir.calls.ring_socket import _private_dir

    path = _private_dir() / f"baresip-{host.replace('/', '_')}-{port}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise FeedRefused(f"refused, in use by corpdir pid {holder}",
                          f"another corpdir (pid {holder}) is connected to baresip at {host}:{port}, whose ctrl_tcp "
                          "serves one client: a second connection would cut the first") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


_CALL_LINE = re.compile(r"^(?P<current>>)?\s*\[line (?P<line>\d+)\]\s+(?P<h>\d+):(?P<m>\d\d):(?P<s>\d\d)\s+"
                        r"(?P<state>[A-Z]+)\s+(?P<uri>\S+)", re.MULTILINE)
_CALL_ID = re.compile(r"\bid=(\S+)")
_PEER = re.compile(r"peer_uri:\s*(?P<name>.*?)\s*<(?P<uri>[^>]+)>")


def call_lines(listing: str) -> list[re.Match[str]]:
    """``listcalls``' lines: line number, whether current, time since answer, state, peer."""
    return list(_CALL_LINE.finditer(listing))


async def reconcile(connection: Connection) -> list[CallEvent]:
    """The incoming calls up now, as events: ``listcalls`` names each line's state, peer
    and time since its answer; ``callstat`` on each line gives its id (the one later events
    carry), direction and the name sent. The line that was current is made current again."""
    lines = call_lines(str((await connection.command("listcalls", "")).get("data") or ""))
    events = []
    for found in lines:
        if len(lines) > 1:
            await connection.command("line", found["line"])
        stat = str((await connection.command("callstat", "")).get("data") or "")
        call_id, peer = _CALL_ID.search(stat), _PEER.search(stat)
        state = {"INCOMING": CallState.RINGING, "ESTABLISHED": CallState.ANSWERED}.get(found["state"])
        if call_id is None or state is None or "direction: Incoming" not in stat:
            continue
        up = timedelta(hours=int(found["h"]), minutes=int(found["m"]), seconds=int(found["s"]))
        name = peer["name"].strip('"') if peer else ""
        events.append(CallEvent("", call_id[1], state, number_from_uri(found["uri"]), name,
                                at=now() - up if state is CallState.ANSWERED else now()))
    current = next((f["line"] for f in lines if f["current"]), None)
    if len(lines) > 1 and current:
        await connection.command("line", current)
    return events


class BaresipFeed:
    tells_calls_up = True  # at connect (reconcile): a call it does not name has ended

    def __init__(self, config: BaresipFeedConfig) -> None:
        self.config = config
        self.name = config.name
        self.records = config.records
        self.peers: dict[str, str] = {}  # call id -> peer URI, to find its line
        self.accounts: dict[str, str] = {}  # call id -> the desk's account (its domain is the transfer target's)
        self.consulting: dict[str, str] = {}  # call id of a held caller -> the target's URI called meanwhile
        self.gone: dict[str, asyncio.Future[str]] = {}  # call id of a held caller -> why its target went

    async def run(self, link: FeedLink) -> None:
        address = (self.config.host, self.config.port)
        lock = hold(*address)
        try:
            connection = Connection(*await asyncio.open_connection(*address))
        except BaseException:
            os.close(lock)
            raise
        _FEEDS[address] = connection
        seen: set[str] = set()
        reading = asyncio.create_task(self._read(connection, link, seen))
        try:
            for event in await reconcile(connection):
                if event.call_id not in seen:
                    seen.add(event.call_id)
                    link.emit(event)
            link.connected()
            await reading
        finally:
            reading.cancel()
            if _FEEDS.get(address) is connection:
                del _FEEDS[address]
            connection.close()
            os.close(lock)

    async def _read(self, connection: Connection, link: FeedLink, seen: set[str]) -> None:
        async for payload in connection.messages():
            if b'"CALL_CLOSED"' in payload and b'"outgoing"' in payload:
                self._consultation_closed(payload)
            try:
                event = parse(payload)
            except MalformedEvent as exc:
                link.skip(payload, str(exc))
                continue
            if event is None or (event.state is CallState.RINGING and event.call_id in seen):
                continue  # CALL_INCOMING, then the SDP offer: one ring
            seen.add(event.call_id)
            if event.state is CallState.ENDED:
                self.peers.pop(event.call_id, None)
                self.accounts.pop(event.call_id, None)
                self.consulting.pop(event.call_id, None)
                self.gone.pop(event.call_id, None)
            else:
                message = json.loads(payload)
                self.peers[event.call_id] = str(message.get("peeruri") or "")
                self.accounts[event.call_id] = str(message.get("accountaor") or "")
            link.emit(event)

    async def answer(self, call_id: str) -> None:
        await self._on_line(call_id, "accept")

    async def hang_up(self, call_id: str) -> None:
        await self._on_line(call_id, "hangup")

    # -- transfer (corpdir.calls.transfer) ------------------------------------------------------
    def target_uri(self, call_id: str, number: str) -> str:
        """sip:<number>@<the domain of the account the call came in on>."""
        account = self.accounts.get(call_id, "")
        domain = account.split("@", 1)[1].split(";", 1)[0].strip(">") if "@" in account else ""
        return f"sip:{number}@{domain}" if domain else number

    async def transfer(self, call_id: str, number: str) -> None:
        """Blind: a REFER to the caller, who calls the target. (baresip 1.0 hangs the caller up
        when the target refuses: the picker puts free people first, the card says so.)"""
        await self._on_line(call_id, "transfer", self.target_uri(call_id, number))

    async def consult(self, call_id: str, number: str) -> None:
        uri = self.target_uri(call_id, number)
        await self._on_line(call_id, "hold")
        await self._checked("dial", uri)
        self.consulting[call_id] = uri
        self.gone[call_id] = asyncio.get_running_loop().create_future()

    async def target_gone(self, call_id: str) -> str:
        if call_id not in self.gone:
            raise ConnectionError("no call to a target is up for that call")
        return await asyncio.shield(self.gone[call_id])

    async def complete(self, call_id: str, number: str) -> None:
        """The consultation ends on the desk's side; the held caller is referred to the target."""
        await self._end_consultation(call_id)
        await self._on_line(call_id, "transfer", self.target_uri(call_id, number))

    async def return_to_caller(self, call_id: str) -> None:
        """baresip takes a held call off hold itself once the other call ends; ``resume``
        only if it is still held."""
        await self._end_consultation(call_id)
        listing = str((await send_command(self.config.host, self.config.port, "listcalls", "")).get("data") or "")
        if "(on hold)" in listing:
            await self._on_line(call_id, "resume")

    def _consultation_closed(self, payload: bytes) -> None:
        """The desk's call to a target ended (declined, not answered, hung up): nothing to
        hang up any more when the desk returns to the caller or completes."""
        message = json.loads(payload)
        peer = str(message.get("peeruri") or "").split(";")[0]
        for held, uri in list(self.consulting.items()):
            if uri == peer:
                self.consulting[held] = ""
                if (gone := self.gone.get(held)) is not None and not gone.done():
                    gone.set_result(str(message.get("param") or "hung up"))

    async def _end_consultation(self, call_id: str) -> None:
        """Hangs the call to the target up if it is still up. baresip's hangup acts on the
        current call, so the consultation is made current and checked to be so just before:
        a hangup that reached the caller would lose them."""
        uri = self.consulting.pop(call_id, "")
        self.gone.pop(call_id, None)
        if not uri:
            return
        host, port = self.config.host, self.config.port

        async def consultation() -> re.Match[str] | None:
            lines = call_lines(str((await send_command(host, port, "listcalls", "")).get("data") or ""))
            return next((f for f in lines if f["uri"].split(";")[0] == uri), None)

        found = await consultation()
        if found is not None:
            await send_command(host, port, "line", found["line"])
            if (found := await consultation()) is not None and found["current"]:
                await send_command(host, port, "hangup", "")

    async def _on_line(self, call_id: str, command: str, params: str = "") -> None:
        """``command`` for this call: with several calls up, its line is made current
        first (baresip's accept, hangup, hold and transfer act on the current call)."""
        host, port = self.config.host, self.config.port
        lines = call_lines(str((await send_command(host, port, "listcalls", "")).get("data") or ""))
        if len(lines) > 1:
            line = next((f["line"] for f in lines if f["uri"] == self.peers.get(call_id)), None)
            if line is None:
                raise ConnectionError("that call is no longer up on the soft phone")
            await send_command(host, port, "line", line)
        await self._checked(command, params)

    async def _checked(self, command: str, params: str) -> None:
        answer = await send_command(self.config.host, self.config.port, command, params)
        if not answer.get("ok"):
            raise ConnectionError(f"baresip: {answer.get('data') or 'refused'}")


async def send_command(host: str, port: int, command: str, params: str) -> dict[str, Any]:
    """A ctrl_tcp command (dial, accept, hangup ...) and baresip's answer: over a running
    feed's connection, else over one of its own (refused while another corpdir holds it)."""
    feed = _FEEDS.get((host, port))
    if feed is not None:
        return await feed.command(command, params)
    lock = hold(host, port)
    try:
        connection = Connection(*await asyncio.open_connection(host, port))
    except BaseException:
        os.close(lock)
        raise

    async def drain() -> None:
        async for _ in connection.messages():  # events meant for a feed: nobody is listening
            pass

    reading = asyncio.create_task(drain())
    try:
        return await connection.command(command, params)
    finally:
        reading.cancel()
        connection.close()
        os.close(lock)
