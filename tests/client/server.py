"""The reference server in-process for the client's tests, with a recorder in front.

:class:`Recorder` is an ASGI wrapper that notes every request the server saw (method,
path and query, status, body), so tests count what reached the service rather than what
the client believes it sent. The server runs on the test's fake clock, so its token
bucket and the client's move together without sleeping.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from corpdir.server.app import create_app
from corpdir.server.settings import RateLimitSettings, ServerSettings
from corpdir.server.storage.db import iso_ms


@dataclass
class Seen:
    method: str
    path: str
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Recorder:
    app: Any
    seen: list[Seen] = field(default_factory=list)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        chunks: list[bytes] = []
        status: dict[str, int] = {}

        async def rec() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                chunks.append(message.get("body", b""))
            return message

        async def snd(message: Any) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        await self.app(scope, rec, snd)
        query = scope.get("query_string", b"").decode()
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        self.seen.append(Seen(scope["method"], scope["path"] + (f"?{query}" if query else ""), status.get("code", 0),
                              b"".join(chunks), headers))

    # -- what tests ask -------------------------------------------------------------------
    def statuses(self) -> list[int]:
        return [s.status for s in self.seen]

    def count(self, method: str | None = None) -> int:
        return sum(1 for s in self.seen if method is None or s.method == method)

    def last(self, method: str) -> Seen:
        return [s for s in self.seen if s.method == method][-1]


def make_server(key: str, clock: Any, *, burst: int = 60, rate: float = 10.0, variant: str = "C") -> tuple[Recorder, Any]:
    """(recorder wrapping the app, storage) of a fresh in-memory server whose first admin
    (user 1, ADMIN_COMPANY) has API key ``key``."""
    settings = ServerSettings(bootstrap_key=key, clock=clock, variant=variant,
                              rate_limit=RateLimitSettings(burst=burst, rate=rate))
    app = create_app(settings)
    return Recorder(app), app.state.storage


def seed_users(storage: Any, n: int) -> None:
    for i in range(n):
        storage.create_user({"loginId": f"user{i:05d}", "fullname": f"User {i:05d}", "comment": "hello"})


def seed_contacts(storage: Any, n: int, *, same_time: int = 7, start: float = 1_600_000_000.0) -> None:
    """n shared contacts straight into the server's table; every ``same_time`` consecutive
    ones share one updatedAt (to the millisecond) and ids are not in time order, so update
    time windows begin and end inside groups of equal times."""
    rows = []
    for i in range(n):
        cid = 1_000_000 - i if i % 3 else i + 1
        at = iso_ms(start + (i // same_time) * 0.017)
        rows.append((cid, "SHARED", 1, f"Contact {i}", 1, at, at, json.dumps({"fullname": f"Contact {i}"})))
    with storage.db.write() as conn:
        conn.executemany(
            "INSERT INTO contacts (id, directory, folder_num, fullname, registered_user_id, registered_at, updated_at, data)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
