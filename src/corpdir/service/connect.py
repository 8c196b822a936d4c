"""Building the API client for a profile: a remote service, or the embedded demo.

With no base URL configured, the reference server runs in-process on the demo tenant,
reached through httpx's ASGI transport (no port is opened). The demo tenant is generated
once into the data dir and reused by every later run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx

from corpdir.paths import DEMO_API_KEY, EMBEDDED_DEMO_URL, data_dir, private_dir

if TYPE_CHECKING:
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceSettings


def demo_data_dir() -> Any:
    return data_dir() / "demo"


def embedded_app(settings: ServiceSettings) -> Any:
    """The reference server on the demo tenant (generated on first use)."""
    from corpdir.server import ServerSettings, create_app  # the one import of the server outside `corpdir server`

    folder = private_dir(demo_data_dir())  # the tenant's database: personal data, password hashes
    return create_app(ServerSettings(data=folder, demo=True, demo_size=settings.demo_size, demo_seed=settings.demo_seed,
                                     region=settings.region))


class EmbeddedTransport(httpx.ASGITransport):
    """httpx's ASGI transport to the embedded demo server, built on the first request (in a
    thread), not before: starting the server (FastAPI, the tenant's storage) takes longer
    than painting the first screen from the cache, so the TUI paints first."""

    def __init__(self, settings: ServiceSettings) -> None:
        super().__init__(app=None)  # type: ignore[arg-type]  # set on the first request
        self.settings = settings
        self._lock: Any = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.app is None:
            import asyncio

            self._lock = self._lock or asyncio.Lock()
            async with self._lock:
                if self.app is None:
                    self.app = await asyncio.to_thread(embedded_app, self.settings)
        return await super().handle_async_request(request)


def open_client(settings: ServiceSettings, **kwargs: Any) -> DirectoryClient:
    """A DirectoryClient for ``settings`` (``kwargs`` go to the client, e.g. on_rate_limit)."""
    from corpdir.client import DirectoryClient

    if settings.is_demo:
        transport = EmbeddedTransport(settings)
        base_url = EMBEDDED_DEMO_URL.replace("embedded://", "http://")
        return DirectoryClient(settings, base_url=base_url, api_key=DEMO_API_KEY, transport=transport, **kwargs)
    return DirectoryClient(settings, **kwargs)
