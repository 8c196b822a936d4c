"""Asterisk's manager interface (AMI) through panoramisk: the calls that ring the desk's
extension.

DialBegin whose destination is the desk's extension -> ringing (the caller's
CallerIDNum / CallerIDName); Newstate of that channel to Up -> answered; Hangup of it ->
ended. The call's id is the desk channel's Uniqueid. panoramisk's own reconnect timer is
switched off: the hub reconnects, with backoff, and tells the status bar.

The card's hang-up is a Hangup action on the desk's channel, over the feed's own manager
connection. There is no answer: the manager cannot take a SIP handset off-hook.

Putting through: blind is BlindTransfer of the desk's channel. Announced is Atxfer of it
(Asterisk holds the caller and calls the target from a Local channel,
``Local/<number>@<context>-<n>;1``, seen in its Newchannel event); the desk completes by
hanging its own channel up (Asterisk then bridges the caller to the target and says so in
an AttendedTransfer event), and returns to the caller by hanging the Local channel up.
When that channel ends by itself (the target declined, or did not answer within
features.conf's ``atxfernoanswertimeout``) Asterisk has already put the desk back with
the caller: :meth:`AmiFeed.target_gone` says so, and completing is refused (hanging the
desk up then would lose the caller).

Calls already up when the feed connects come from CoreShowChannels: the desk's channels
that ring or are up, with the caller as the channel's connected line and the channel's age
(``Duration``) as when it began ringing."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timedelta, timezone
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable

from corpdir.calls.events import CallEvent, CallState, MalformedEvent, now

if TYPE_CHECKING:
    from panoramisk import Manager

    from corpdir.calls.hub import FeedLink
    from corpdir.config import AmiFeedConfig

UNKNOWN_ID = {"", "<unknown>", "unknown", "anonymous"}


def _manager_class() -> type:
    from panoramisk import Manager

    class OneConnection(Manager):  # type: ignore[misc, valid-type]
        """A panoramisk Manager that reports a lost or failed connection instead of
        reconnecting on its own fixed timer."""

        def __init__(self, **config: Any) -> None:
            super().__init__(**config)
            self.lost: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def connection_made(self, f: Any) -> None:
            if f.exception() is not None:
                if not self.lost.done():
                    self.lost.set_exception(f.exception())
                return
            super().connection_made(f)

        def connection_lost(self, exc: Exception | None) -> None:
            self._connected = False
            if self.pinger:
                self.pinger.cancel()
                self.pinger = None
            if not self.lost.done():
                self.lost.set_result(str(exc) if exc else "connection closed")

    return OneConnection


@asynccontextmanager
async def ami_session(host: str, port: int, username: str, secret: str, *,
                      on_event: Callable[[Any, Any], None] | None = None,
                      patterns: tuple[str, ...] = ("DialBegin", "Newstate", "Hangup")) -> AsyncIterator[Manager]:
    """A logged-in manager connection, closed on exit. With ``on_event``, it asks for call
    events and hands it those named in ``patterns`` (registered before the login: the
    events start right after it)."""
    manager = _manager_class()(host=host, port=port, username=username, secret=secret,
                               events="call" if on_event else "off", ping_delay=30, ping_interval=30,
                               loop=asyncio.get_running_loop())
    for pattern in patterns if on_event else ():
        manager.register_event(pattern, on_event)
    try:
        await manager.connect()  # raises OSError when nothing listens
        for _ in range(100):  # panoramisk sends the login from the connect task's done callback
            if manager.authenticated_future is not None or manager.lost.done():
                break
            await asyncio.sleep(0)
        if manager.lost.done():
            raise ConnectionError(manager.lost.result())
        if manager.authenticated_future is None:
            raise ConnectionError("the manager connection did not start a login")
        answer = await manager.authenticated_future
        if not answer.success:
            raise ConnectionError(f"AMI login refused: {answer.get('Message', 'no reason given')}")
        yield manager
    finally:
        if manager.lost.done() and not manager.lost.cancelled():
            manager.lost.exception()  # retrieved: a refused connect is raised by connect() itself
        manager.close()


def _at(event: Any) -> datetime:
    """The event's own time (``timestampevents = yes`` in manager.conf), else now."""
    try:
        return datetime.fromtimestamp(float(event.get("Timestamp")), timezone.utc)
    except (TypeError, ValueError):
        return now()


class AmiCalls:
    """Turns the AMI events of one extension into call events."""

    def __init__(self, extension: str) -> None:
        self.extension = extension
        self._desk_channel = re.compile(rf"^[A-Za-z0-9_]+/{re.escape(extension)}(-[^-]+)?-[0-9a-f]+$")
        self._calls: dict[str, str] = {}  # the desk channel's Uniqueid -> the channel's name

    def _is_desk(self, channel: str | None, exten_num: str | None = None) -> bool:
        return bool(channel and self._desk_channel.match(channel)) or exten_num == self.extension

    def __call__(self, event: Any) -> CallEvent | None:
        name = event.get("Event")
        if name == "DialBegin":
            if not self._is_desk(event.get("DestChannel"), event.get("DestCallerIDNum")):
                return None
            call_id = event.get("DestUniqueid")
            if not call_id:
                raise MalformedEvent("DialBegin without DestUniqueid")
            self._calls[call_id] = event.get("DestChannel") or ""
            number = event.get("CallerIDNum") or ""
            caller_name = event.get("CallerIDName") or ""
            return CallEvent("", call_id, CallState.RINGING, "" if number.lower() in UNKNOWN_ID else number,
                             "" if caller_name.lower() in UNKNOWN_ID else caller_name, self.extension, _at(event))
        call_id = event.get("Uniqueid")
        if name not in ("Newstate", "Hangup") or call_id not in self._calls:
            return None
        if name == "Newstate":
            if event.get("ChannelStateDesc") != "Up":
                return None
            return CallEvent("", call_id, CallState.ANSWERED, "", "", self.extension, _at(event))
        self._calls.pop(call_id, None)
        return CallEvent("", call_id, CallState.ENDED, "", "", self.extension, _at(event))

    def up(self, listed: Any) -> CallEvent | None:
        """A CoreShowChannel entry of the desk's, as the call's state now (None: not the
        desk's, or neither ringing nor up)."""
        channel, call_id = listed.get("Channel"), listed.get("Uniqueid")
        state = {"Up": CallState.ANSWERED, "Ring": CallState.RINGING, "Ringing": CallState.RINGING}.get(
            listed.get("ChannelStateDesc"))
        if not self._is_desk(channel) or not call_id or state is None or call_id in self._calls:
            return None
        self._calls[call_id] = channel
        number, name = listed.get("ConnectedLineNum") or "", listed.get("ConnectedLineName") or ""
        hours, minutes, seconds = (int(x) for x in (listed.get("Duration") or "0:0:0").split(":"))
        return CallEvent("", call_id, state, "" if number.lower() in UNKNOWN_ID else number,
                         "" if name.lower() in UNKNOWN_ID else name, self.extension,
                         now() - timedelta(hours=hours, minutes=minutes, seconds=seconds))

    def channel(self, call_id: str) -> str:
        """The desk's channel of a call up now ('' if none is known)."""
        return self._calls.get(call_id, "")


@dataclass
class Consultation:
    """An announced transfer under way: the desk's call to the target."""

    prefix: str  # of the Local channel Asterisk calls the target from
    gone: asyncio.Future[str]  # the reason, once that channel has ended by itself
    channel: str = ""  # the Local channel, once seen

    def follow(self, event: Any) -> None:
        channel = event.get("Channel") or ""
        if event.get("Event") == "Newchannel" and not self.channel and channel.startswith(self.prefix) \
                and channel.endswith(";1"):
            self.channel = channel
        elif event.get("Event") == "Hangup" and self.channel and channel == self.channel:
            self.channel = ""
            if not self.gone.done():
                self.gone.set_result(event.get("Cause-txt") or "hung up")


class AmiFeed:
    tells_calls_up = True  # CoreShowChannels at connect: a call it does not list has ended
    announces_ringing = False  # Atxfer needs the desk's channel answered, bridged to the caller

    def __init__(self, config: AmiFeedConfig) -> None:
        self.config = config
        self.name = config.name
        self.records = config.records
        self._live: tuple[Any, AmiCalls] | None = None  # the connected manager and its calls
        self._consulting: dict[str, Consultation] = {}  # the desk's call id -> its announced transfer

    async def hang_up(self, call_id: str) -> None:
        await self._on_channel(call_id, {"Action": "Hangup"})

    async def transfer(self, call_id: str, number: str) -> None:
        """Blind: BlindTransfer of the desk's channel to the number in the feed's dial plan
        context (the caller, bridged to that channel, goes to the target)."""
        await self._on_channel(call_id, {"Action": "BlindTransfer", "Exten": number, "Context": self.config.context})

    async def consult(self, call_id: str, number: str) -> None:
        """Announced: Atxfer of the desk's channel (the caller held, the target called)."""
        consultation = Consultation(f"Local/{number}@{self.config.context}-",
                                    asyncio.get_running_loop().create_future())
        self._consulting[call_id] = consultation  # before the action: its events may come first
        try:
            await self._on_channel(call_id, {"Action": "Atxfer", "Exten": number, "Context": self.config.context})
        except BaseException:
            self._consulting.pop(call_id, None)
            raise

    async def complete(self, call_id: str, number: str) -> None:
        """The desk hangs up: Asterisk bridges the held caller to the target."""
        consultation = self._consulting.get(call_id)
        if consultation is not None and consultation.gone.done():
            raise ConnectionError(f"the target has gone ({consultation.gone.result()}): the caller is back with the desk")
        await self._on_channel(call_id, {"Action": "Hangup"})
        self._consulting.pop(call_id, None)

    async def return_to_caller(self, call_id: str) -> None:
        """The call to the target hung up, if Asterisk has not ended it already."""
        consultation = self._consulting.pop(call_id, None)
        if consultation is None or consultation.gone.done():
            return
        if not consultation.channel:
            raise ConnectionError("Asterisk has not said which channel calls the target: hang it up on the phone")
        await self._send({"Action": "Hangup", "Channel": consultation.channel})

    async def target_gone(self, call_id: str) -> str:
        if call_id not in self._consulting:
            raise ConnectionError("no call to a target is up for that call")
        return await asyncio.shield(self._consulting[call_id].gone)

    async def _on_channel(self, call_id: str, action: dict[str, str]) -> None:
        """An action on the desk's channel of the call, over the feed's manager connection."""
        channel = self._live[1].channel(call_id) if self._live is not None else ""
        if self._live is not None and not channel:
            raise ConnectionError("that call is no longer up on the PBX")
        await self._send({**action, "Channel": channel})

    async def _send(self, action: dict[str, str]) -> None:
        if self._live is None:
            raise ConnectionError("the PBX's manager connection is down")
        # One answer each: panoramisk would otherwise read "Atxfer successfully queued" as
        # an asynchronous Originate's and look for its Async header (a KeyError).
        answer = await self._live[0].send_action(action, as_list=False)
        answer = answer[0] if isinstance(answer, list) else answer
        if not answer.success:
            raise ConnectionError(f"Asterisk: {answer.get('Message') or action['Action'] + ' refused'}")

    async def run(self, link: FeedLink) -> None:
        calls = AmiCalls(self.config.extension)

        def on_event(manager: Any, event: Any) -> None:
            for consultation in list(self._consulting.values()):
                consultation.follow(event)
            try:
                found = calls(event)
            except MalformedEvent as exc:
                link.skip(dict(event), str(exc))
                return
            if found is not None:
                if found.state is CallState.ENDED:
                    self._consulting.pop(found.call_id, None)
                link.emit(found)

        async with ami_session(self.config.host, self.config.port, self.config.username,
                               self.config.secret.get_secret_value(), on_event=on_event,
                               patterns=("DialBegin", "Newstate", "Hangup", "Newchannel")) as manager:
            self._live = (manager, calls)
            listed = await manager.send_action({"Action": "CoreShowChannels"})
            for entry in listed if isinstance(listed, list) else []:
                if entry.get("Event") == "CoreShowChannel" and (event := calls.up(entry)) is not None:
                    link.emit(event)
            link.connected()
            try:
                raise ConnectionError(await manager.lost)
            finally:
                self._live = None
