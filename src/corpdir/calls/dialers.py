"""Calling a number out through the desk's phone: baresip (``dial`` over ctrl_tcp),
Asterisk (AMI Originate: the desk phone rings first, then the number), or a Yealink/Snom
action URI. With none configured the TUI offers a ``tel:`` link and copies the number."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote

from corpdir.service.identify import dialable

if TYPE_CHECKING:
    from corpdir.config import AmiDialerConfig
    from corpdir.config import BaresipDialerConfig
    from corpdir.config import PhoneUriDialerConfig


class DialFailed(Exception):
    pass


class Dialer(Protocol):
    name: str

    async def dial(self, number: str) -> None: ...


_NOT_DIALED = re.compile(r"[^0-9*#+]")


def dial_string(number: str) -> str:
    """What a phone dials: digits, *, # and a leading + ('03-1234-5678' -> '0312345678')."""
    return _NOT_DIALED.sub("", dialable(number))


def tel_uri(number: str) -> str:
    return "tel:" + dial_string(number)


class BaresipDialer:
    name = "baresip"

    def __init__(self, config: BaresipDialerConfig) -> None:
        self.config = config

    def target(self, number: str) -> str:
        digits = dial_string(number)
        return f"sip:{digits}@{self.config.domain}" if self.config.domain else digits

    async def dial(self, number: str) -> None:
        from corpdir.calls.feeds.baresip import send_command

        try:
            answer = await send_command(self.config.host, self.config.port, "dial", self.target(number))
        except OSError as exc:
            raise DialFailed(f"baresip at {self.config.host}:{self.config.port}: {exc}") from None
        if not answer.get("ok"):
            raise DialFailed(f"baresip: {answer.get('data') or 'refused'}")


class AmiDialer:
    name = "Asterisk"

    def __init__(self, config: AmiDialerConfig) -> None:
        self.config = config

    async def dial(self, number: str) -> None:
        from corpdir.calls.feeds.ami import ami_session

        action = {"Action": "Originate", "Channel": self.config.channel, "Exten": dial_string(number),
                  "Context": self.config.context, "Priority": "1", "Async": "true"}
        if self.config.caller_id:
            action["CallerID"] = self.config.caller_id
        try:
            async with ami_session(self.config.host, self.config.port, self.config.username,
                                   self.config.secret.get_secret_value()) as manager:
                answer = await manager.send_action(action)
        except OSError as exc:
            raise DialFailed(f"Asterisk at {self.config.host}:{self.config.port}: {exc}") from None
        answer = answer[0] if isinstance(answer, list) else answer
        if not answer.success:
            raise DialFailed(f"Asterisk: {answer.get('Message') or 'Originate refused'}")


class PhoneUriDialer:
    """The desk phone dials when its action URI is requested: Yealink
    ``/servlet?key=number={number}&outgoing_uri=...``, Snom
    ``/command.htm?number={number}&outgoing_uri=...``; HTTP Basic when a username is set.
    Errors name the phone's address, never the URL (it may carry a login)."""

    name = "desk phone"

    def __init__(self, config: PhoneUriDialerConfig) -> None:
        self.config = config

    def url(self, number: str) -> str:
        return self.config.url.replace("{number}", quote(dial_string(number), safe=""))

    async def dial(self, number: str) -> None:
        import httpx

        url = httpx.URL(self.url(number))
        phone = f"the desk phone at {url.host}:{url.port or (443 if url.scheme == 'https' else 80)}"
        auth = (self.config.username, self.config.password.get_secret_value()) if self.config.username else None
        try:
            async with httpx.AsyncClient(timeout=5.0, auth=auth) as client:
                answer = await client.get(url)
        except httpx.ConnectError:
            raise DialFailed(f"{phone} refused the connection or cannot be reached") from None
        except httpx.TimeoutException:
            raise DialFailed(f"{phone} did not answer within 5 s") from None
        except httpx.HTTPError as exc:
            raise DialFailed(f"{phone}: {exc.__class__.__name__}") from None
        if answer.status_code in (401, 403):
            raise DialFailed(f"{phone} refused the login (HTTP {answer.status_code}): check username and password in "
                             "[calls.dialer], and that this PC is on the phone's Action URI allow list")
        if answer.status_code >= 400:
            raise DialFailed(f"{phone} answered HTTP {answer.status_code}")


def build_dialer(config: object | None) -> Dialer | None:
    kind = getattr(config, "kind", None)
    if kind == "baresip":
        return BaresipDialer(config)  # type: ignore[arg-type]
    if kind == "ami":
        return AmiDialer(config)  # type: ignore[arg-type]
    if kind == "action_uri":
        return PhoneUriDialer(config)  # type: ignore[arg-type]
    return None
