"""Busy lamps from kamailio: its dialog and registrar events pushed over ``evapi``.

Why not RFC 4235 (``SUBSCRIBE``/``Event: dialog``), as a desk phone's BLF key does: no
maintained Python SIP library subscribes to dialog events (docs/decisions.md, "Busy
lamps from kamailio's evapi"), and a SIP stack of our own is out. evapi pushes what the
dialog module and the registrar see (docs/sip/kamailio.cfg builds the events), about 1-2
ms after the SIP message.

evapi does not replay what happened before a client connected, so after connecting the
source reads the registrations (``ul.dump``) and the calls up (``dlg.list``) over
kamailio's JSON-RPC datagram socket; events that arrive meanwhile are applied after that
snapshot, in order."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import tempfile
from typing import TYPE_CHECKING, Any, Callable

from corpdir.calls.netstring import Decoder
from corpdir.calls.presence.lamps import LampBoard, Phase
from corpdir.unix_socket import temp_base

if TYPE_CHECKING:
    from corpdir.config.presence import KamailioPresenceConfig

CALL_EVENTS = {"invite": Phase.INVITE, "ringing": Phase.RINGING, "answered": Phase.ANSWERED,
               "hangup": Phase.ENDED, "failed": Phase.ENDED}
REGISTRATION_EVENTS = {"registered": True, "unregistered": False, "expired": False}
DIALOG_STATES = {1: Phase.INVITE, 2: Phase.RINGING, 3: Phase.ANSWERED, 4: Phase.ANSWERED}  # 5: ended
RPC_TIMEOUT = 5.0


def rpc(path: str, method: str) -> Any:
    """One JSON-RPC call over kamailio's datagram socket (blocking: run it off the loop).
    The answer comes back to a socket of our own, bound in a private temporary folder
    (under /tmp when TMPDIR is too long for a socket's path)."""
    room = len("/corpdir-kamailio-01234567/reply.sock")
    with tempfile.TemporaryDirectory(prefix="corpdir-kamailio-", dir=temp_base(room)) as folder, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(os.path.join(folder, "reply.sock"))
        sock.settimeout(RPC_TIMEOUT)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        sock.sendto(json.dumps({"jsonrpc": "2.0", "method": method, "id": 1}).encode(), path)
        answer = json.loads(sock.recv(4 << 20))
    if "error" in answer:
        raise ConnectionError(f"kamailio {method}: {answer['error'].get('message', answer['error'])}")
    return answer.get("result")


def registrations(dump: Any) -> set[str]:
    """The AoRs (extensions) with a contact in ``ul.dump``'s answer."""
    found = set()
    for domain in (dump or {}).get("Domains", []):
        for aor in domain.get("Domain", {}).get("AoRs", []):
            info = aor.get("Info", {})
            if info.get("Contacts"):
                found.add(str(info.get("AoR", "")).split("@")[0])
    return found


def dialogs(listed: Any) -> list[tuple[str, str, str, Phase]]:
    """(call id, caller, callee, phase) of each dialog in ``dlg.list``'s answer not ended yet;
    caller and callee are the extensions the config keeps in ``$dlg_var`` before lookup()."""
    found = []
    for dialog in listed or []:
        phase = DIALOG_STATES.get(dialog.get("state"))
        names = {k: v for variable in dialog.get("variables") or [] for k, v in variable.items()}
        if phase is not None and dialog.get("call-id"):
            found.append((dialog["call-id"], str(names.get("caller", "")), str(names.get("callee", "")), phase))
    return found


def apply(board: LampBoard, message: Any) -> set[str]:
    """One evapi event on the board; the extensions it touched."""
    if not isinstance(message, dict):
        return set()
    kind, caller, callee = message.get("event"), str(message.get("from") or ""), str(message.get("to") or "")
    if kind in CALL_EVENTS and message.get("callid"):
        return board.call(str(message["callid"]), caller, callee, CALL_EVENTS[kind])
    if kind in REGISTRATION_EVENTS and caller:
        return board.registration(caller, REGISTRATION_EVENTS[kind])
    return set()


class KamailioLamps:
    name = "kamailio"

    def __init__(self, config: KamailioPresenceConfig) -> None:
        self.config = config

    async def run(self, board: LampBoard, changed: Callable[[set[str]], None]) -> None:
        """Until the connection drops (ConnectionError); the board is online once seeded.
        ``changed`` gets the extensions an event touched, or an empty set for "all"."""
        host, port = self.config.evapi.rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        arrived: asyncio.Queue[Any] = asyncio.Queue()  # events, held while the snapshot is read
        reading = asyncio.create_task(_read(reader, arrived))
        try:
            dump, listed = await asyncio.gather(asyncio.to_thread(rpc, self.config.rpc_socket, "ul.dump"),
                                                asyncio.to_thread(rpc, self.config.rpc_socket, "dlg.list"))
            board.reset(online=True)
            board.registered.update(registrations(dump))
            for call_id, caller, callee, phase in dialogs(listed):
                board.call(call_id, caller, callee, phase)
            changed(set())
            while True:
                message = await arrived.get()
                if message is _LOST:
                    raise ConnectionError("kamailio closed the evapi connection")
                if touched := apply(board, message):
                    changed(touched)
        finally:
            reading.cancel()
            writer.close()


_LOST = object()


async def _read(reader: asyncio.StreamReader, arrived: asyncio.Queue[Any]) -> None:
    decoder = Decoder()
    try:
        while data := await reader.read(65536):
            for payload in decoder.feed(data):
                try:
                    arrived.put_nowait(json.loads(payload))
                except ValueError:
                    continue  # not JSON: nothing a lamp can use
    finally:
        arrived.put_nowait(_LOST)
