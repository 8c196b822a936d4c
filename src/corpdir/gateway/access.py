"""Who may ask the gateway: a token as the first path segments (``/t/TOKEN/...``, for
phones and PBXs that can only be given a URL) or HTTP basic auth (FreePBX writes
``user:pass@`` into the URL it fetches), and optionally only from listed networks.

A pure ASGI middleware in front of the routes: a request that passes continues with the
token stripped from its path (``scope["root_path"]`` keeps it, so links the gateway
writes carry it). Refusals have an empty body: a PBX takes a whole body as the caller's
name, and must not show "Unauthorized" on a ringing phone.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import secrets
from typing import Any, Awaitable, Callable

from corpdir.gateway.settings import GatewaySettings

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Access:
    def __init__(self, app: Any, settings: GatewaySettings) -> None:
        self.app = app
        self.token = settings.token.get_secret_value() if settings.token else None
        self.user = settings.user
        self.password = settings.password.get_secret_value() if settings.password else ""
        self.networks = [ipaddress.ip_network(n, strict=False) for n in settings.allow]
        self.open = self.token is None and self.user is None

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if self.networks and not self._allowed(scope.get("client")):
            return await _refuse(send, 403, "address not allowed")
        path: str = scope["path"]
        if path.startswith("/t/"):
            token, _, rest = path[3:].partition("/")
            if self.token is None or not secrets.compare_digest(token.encode(), self.token.encode()):
                return await _refuse(send, 404, "unknown token")
            scope = {**scope, "path": "/" + rest, "root_path": scope.get("root_path", "") + f"/t/{token}"}
        elif not self.open and not self._basic(scope):
            return await _refuse(send, 401, "credentials required",
                                 [(b"www-authenticate", b'Basic realm="corpdir gateway", charset="UTF-8"')])
        await self.app(scope, receive, send)

    def _allowed(self, client: Any) -> bool:
        if not client:
            return False
        try:
            address = ipaddress.ip_address(client[0])
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def _basic(self, scope: dict[str, Any]) -> bool:
        if self.user is None:
            return False
        header = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
        scheme, _, value = header.partition(b" ")
        if scheme.lower() != b"basic":
            return False
        try:
            user, _, password = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return False
        return secrets.compare_digest(user.encode(), self.user.encode()) & secrets.compare_digest(
            password.encode(), self.password.encode())


async def _refuse(send: Send, status: int, reason: str, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-length", b"0"), (b"x-corpdir-error", reason.encode()), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b""})
