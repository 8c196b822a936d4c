"""An in-process transport whose ASGI app is built on the first request, not before.

The embedded default (no base URL) talks to the reference server through httpx's ASGI
transport, with no port opened. Starting that server (FastAPI, the tenant's storage) takes
longer than painting the first screen from the cache, so the app is built by ``build``
(in a thread) when the first request goes out. The client never imports the server:
``build`` is given by the caller that may (:mod:`corpdir.service.connect`).
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import httpx


class LazyASGITransport(httpx.ASGITransport):
    """httpx's ASGI transport to an app that ``build()`` makes on the first request."""

    def __init__(self, build: Callable[[], Any]) -> None:
        super().__init__(app=None)  # type: ignore[arg-type]  # set on the first request
        self._build = build
        self._lock: asyncio.Lock | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.app is None:
            self._lock = self._lock or asyncio.Lock()
            async with self._lock:
                if self.app is None:
                    self.app = await asyncio.to_thread(self._build)
        return await super().handle_async_request(request)
