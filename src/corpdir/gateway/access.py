"""Who may ask the gateway: a token as the first path segments (``/t/TOKEN/...``, for
phones and PBXs that can only be given a URL) or HTTP basic auth (FreePBX writes
``user:pass@`` into the URL it fetches), and optionally only from listed networks.

A pure ASGI middleware in front of the routes (and :meth:`Access.admit` for the requests the
gateway's HTTP server answers itself): a request that passes continues with the
token stripped from its path (``scope["root_path"]`` keeps it, so links the gateway
writes carry it). Refusals have an empty body: a PBX takes a whole body as the caller's
name, and must not show "Unauthorized" on a ringing phone.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import secrets
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from corpdir.config import GatewayConfig

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Access:
    def __init__(self, app: Any, settings: GatewayConfig) -> None:
        self.app = app
        self.token = settings.token.get_secret_value() if settings.token else None
        self.user = settings.user
        self.password = settings.password.get_secret_value() if settings.password else ""
        self.networks = [ipaddress.ip_network(n, strict=False) for n in settings.allow]
        self.open = self.token is None and self.user is None

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        admitted = self.admit(scope["path"], scope["headers"], scope.get("client"))
        if isinstance(admitted, Refusal):
            headers = [(b"content-length", b"0"), *admitted.headers]
            await send({"type": "http.response.start", "status": admitted.status, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        path, root = admitted
        if root:
            scope = {**scope, "path": path, "root_path": scope.get("root_path", "") + root}
        await self.app(scope, receive, send)

    def admit(self, path: str, headers: list[tuple[bytes, bytes]], client: Any) -> tuple[str, str] | Refusal:
        """(the path without the token, the token path) for a request that may pass, or
        how to refuse it. The gateway's own HTTP server asks this for the requests it
        answers itself; the ASGI app asks it through :meth:`__call__`."""
        if self.networks and not self._allowed(client):
            return FORBIDDEN
        if path.startswith("/t/"):
            token, _, rest = path[3:].partition("/")
            if self.token is None or not secrets.compare_digest(token.encode(), self.token.encode()):
                return UNKNOWN_TOKEN
            return "/" + rest, f"/t/{token}"
        if not self.open and not self._basic(headers):
            return CREDENTIALS_REQUIRED
        return path, ""

    def _allowed(self, client: Any) -> bool:
        if not client:
            return False
        try:
            address = ipaddress.ip_address(client[0])
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def _basic(self, headers: list[tuple[bytes, bytes]]) -> bool:
        if self.user is None:
            return False
        header = next((v for k, v in headers if k == b"authorization"), b"")
        scheme, _, value = header.partition(b" ")
        if scheme.lower() != b"basic":
            return False
        try:
            user, _, password = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return False
        return secrets.compare_digest(user.encode(), self.user.encode()) & secrets.compare_digest(
            password.encode(), self.password.encode())


def freepbx_breaks(password: str) -> bool:
    """Whether FreePBX's HTTP lookup source would send ``password`` wrong: it writes the
    password into the URL with PHP's ``urlencode``, which turns a space into '+', and curl
    sends that '+' as it is (cidlookup ``functions.inc.php``), so every lookup gets 401."""
    return any(c.isspace() for c in password)


def redacted(path: str) -> str:
    """``path`` fit for a log: a token path segment replaced, so a log (or a mail of it)
    never lets its reader query the gateway."""
    if path.startswith("/t/"):
        _, _, rest = path[3:].partition("/")
        return "/t/[redacted]/" + rest
    return path


@dataclass(frozen=True)
class Refusal:
    """A status and its headers; the body is always empty."""

    status: int
    headers: list[tuple[bytes, bytes]]


def _refusal(status: int, reason: str, *extra: tuple[bytes, bytes]) -> Refusal:
    return Refusal(status, [(b"x-corpdir-error", reason.encode()), *extra])


FORBIDDEN = _refusal(403, "address not allowed")
UNKNOWN_TOKEN = _refusal(404, "unknown token")
CREDENTIALS_REQUIRED = _refusal(401, "credentials required",
                                (b"www-authenticate", b'Basic realm="corpdir gateway", charset="UTF-8"'))
