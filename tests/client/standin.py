"""A small in-process stand-in of the directory service for the client's own tests.

It follows http-contract.md where the client's rules depend on it (routes, auth header,
x-ratelimit-* headers and 429 with Retry-After from a token bucket on an injectable
clock, the error object) and keeps a faithful X1: pages 0..19 only, pageSize <= 500,
ordered by (updatedAt, contactId), updatedFrom/updatedTo inclusive. Everything else of
the service is the reference server's job (corpdir.server).
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)


@dataclass
class Bucket:
    burst: float
    rate: float
    clock: Callable[[], float]
    tokens: float = -1
    stamp: float = 0

    def take(self, cost: float) -> tuple[bool, float]:
        now = self.clock()
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True, self.tokens
        return False, self.tokens


@dataclass
class StandIn:
    keys: set[str] = field(default_factory=lambda: {"sk-test"})
    burst: float = 60
    rate: float = 10
    clock: Callable[[], float] = lambda: 0.0
    users: list[dict[str, Any]] = field(default_factory=list)
    contacts: list[dict[str, Any]] = field(default_factory=list)
    seen: list[tuple[str, str, int]] = field(default_factory=list)  # (method, path+query, status)
    bodies: list[Any] = field(default_factory=list)
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def statuses(self) -> list[int]:
        return [s for _, _, s in self.seen]

    # -- the app ---------------------------------------------------------------------
    def app(self) -> Starlette:
        return Starlette(routes=[
            Route("/v1/users", self.list_users, methods=["GET"]),
            Route("/v1/users", self.create_user, methods=["POST"]),
            Route("/v1/users/{userId:int}", self.get_user, methods=["GET"]),
            Route("/v1/users/{userId:int}", self.edit_user, methods=["PATCH"]),
            Route("/v1/contacts", self.list_contacts, methods=["GET"]),
            Route("/v1/contacts", self.create_contact, methods=["POST"]),
        ], middleware=[])

    def _guard(self, request: Request, cost: float = 1) -> tuple[Response | None, dict[str, str]]:
        auth = request.headers.get("authorization", "")
        key = auth[7:] if auth.startswith("Bearer ") else request.headers.get("x-api-key", "")
        if key not in self.keys:
            return self._error(401, "UNAUTHENTICATED", "credentials missing", {}), {}
        bucket = self.buckets.setdefault(key, Bucket(self.burst, self.rate, self.clock))
        ok, left = bucket.take(cost)
        headers = {
            "x-ratelimit-remaining": str(int(left)),
            "x-ratelimit-requested-tokens": str(int(cost)),
            "x-ratelimit-burst-capacity": str(int(self.burst)),
            "x-ratelimit-replenish-rate": str(self.rate),
        }
        if not ok:
            wait = max(1, int((cost - left) / self.rate + 0.999))
            return self._error(429, "RESOURCE_EXHAUSTED", "too many requests", {**headers, "Retry-After": str(wait)}), headers
        return None, headers

    def _error(self, code: int, status: str, message: str, headers: dict[str, str], details: list | None = None) -> Response:
        return JSONResponse({"error": {"status": status, "message": message, "details": details or []}}, code, headers=headers)

    def _record(self, request: Request, response: Response) -> Response:
        path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        self.seen.append((request.method, path, response.status_code))
        return response

    async def _handle(self, request: Request, fn: Callable[[Request, dict[str, str]], Any]) -> Response:
        denied, headers = self._guard(request)
        if denied is not None:
            return self._record(request, denied)
        if request.method in ("POST", "PATCH"):
            self.bodies.append(json.loads(await request.body()))
        return self._record(request, await fn(request, headers))

    # -- users -------------------------------------------------------------------------
    async def list_users(self, request: Request) -> Response:
        async def go(req: Request, headers: dict[str, str]) -> Response:
            page, size = int(req.query_params.get("page", 0)), int(req.query_params.get("pageSize", 30))
            if size > 100:
                return self._error(400, "INVALID_ARGUMENT", "bad", headers,
                                   [{"field": "pageSize", "code": "OUT_OF_RANGE", "description": "must be 100 or less"}])
            items = self.users[page * size:(page + 1) * size]
            return JSONResponse({"hasMore": (page + 1) * size < len(self.users), "items": items}, headers=headers)
        return await self._handle(request, go)

    async def create_user(self, request: Request) -> Response:
        async def go(req: Request, headers: dict[str, str]) -> Response:
            user = {"userId": len(self.users) + 1, **self.bodies[-1]}
            self.users.append(user)
            return JSONResponse(user, 201, headers=headers)
        return await self._handle(request, go)

    async def get_user(self, request: Request) -> Response:
        async def go(req: Request, headers: dict[str, str]) -> Response:
            uid = req.path_params["userId"]
            if not 1 <= uid <= len(self.users):
                return self._error(404, "NOT_FOUND", f"no user {uid}", headers)
            return JSONResponse(self.users[uid - 1], headers=headers)
        return await self._handle(request, go)

    async def edit_user(self, request: Request) -> Response:
        async def go(req: Request, headers: dict[str, str]) -> Response:
            uid = req.path_params["userId"]
            if not 1 <= uid <= len(self.users):
                return self._error(404, "NOT_FOUND", f"no user {uid}", headers)
            self.users[uid - 1].update(self.bodies[-1])
            return JSONResponse(self.users[uid - 1], headers=headers)
        return await self._handle(request, go)

    # -- contacts: a faithful X1 -------------------------------------------------------
    def seed_contacts(self, n: int, *, same_time: int = 7) -> None:
        """n contacts; every ``same_time`` consecutive ones share an updatedAt, so window
        boundaries fall inside groups of equal timestamps."""
        self.contacts = [
            {"contactId": 100_000 - i if i % 3 else i + 1,  # ids not in time order
             "fullname": f"Contact {i}",
             "updatedAt": (EPOCH + timedelta(milliseconds=(i // same_time) * 17)).isoformat(timespec="milliseconds").replace("+00:00", "Z")}
            for i in range(n)
        ]
        self.contacts.sort(key=lambda c: (c["updatedAt"], c["contactId"]))
        self._times = [_parse(c["updatedAt"]) for c in self.contacts]

    async def list_contacts(self, request: Request) -> Response:
        async def go(req: Request, headers: dict[str, str]) -> Response:
            q = req.query_params
            page, size = int(q.get("page", 0)), int(q.get("pageSize", 30))
            if not 0 <= page <= 19 or not 1 <= size <= 500:
                field_ = "page" if not 0 <= page <= 19 else "pageSize"
                return self._error(400, "INVALID_ARGUMENT", "bad", headers,
                                   [{"field": field_, "code": "OUT_OF_RANGE", "description": "out of range"}])
            lo = bisect.bisect_left(self._times, _parse(q["updatedFrom"])) if "updatedFrom" in q else 0
            hi = bisect.bisect_right(self._times, _parse(q["updatedTo"])) if "updatedTo" in q else len(self.contacts)
            rows = self.contacts[lo:hi]
            if q.get("orderDirection") == "desc":
                rows = rows[::-1]
            items = rows[page * size:(page + 1) * size]
            return JSONResponse({"hasMore": (page + 1) * size < len(rows), "items": items}, headers=headers)
        return await self._handle(request, go)

    async def create_contact(self, request: Request) -> Response:
        async def go(req: Request, headers: dict[str, str]) -> Response:
            return JSONResponse({"contactId": 1, **self.bodies[-1]}, 201, headers=headers)
        return await self._handle(request, go)


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
