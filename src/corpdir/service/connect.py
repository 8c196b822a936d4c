"""Building the API client for a profile: a remote service, or the embedded demo.

With no base URL configured, the reference server runs in-process on the demo tenant,
reached through an ASGI transport (no port is opened; :mod:`corpdir.client.embedded`
builds the server on the first request). The demo tenant is generated once into the data
dir and reused by every later run. This module holds the embedded default's one import of
the server, by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from corpdir.paths import DEMO_API_KEY, EMBEDDED_DEMO_URL, data_dir, private_dir

if TYPE_CHECKING:
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceConfig


def demo_data_dir() -> Any:
    return data_dir() / "demo"


def embedded_app(settings: ServiceConfig) -> Any:
    """The reference server on the demo tenant (generated on first use)."""
    from corpdir.server import ServerSettings, create_app  # the one import of the server outside `corpdir server`

    folder = private_dir(demo_data_dir())  # the tenant's database: personal data, password hashes
    return create_app(ServerSettings(data=folder, demo=True, demo_size=settings.demo_size, demo_seed=settings.demo_seed,
                                     region=settings.region))


def open_client(settings: ServiceConfig, **kwargs: Any) -> DirectoryClient:
    """A DirectoryClient for ``settings`` (``kwargs`` go to the client, e.g. on_rate_limit)."""
    from corpdir.client import DirectoryClient

    if settings.is_demo:
        from corpdir.client.embedded import LazyASGITransport

        transport = LazyASGITransport(lambda: embedded_app(settings))
        base_url = EMBEDDED_DEMO_URL.replace("embedded://", "http://")
        return DirectoryClient(settings, base_url=base_url, api_key=DEMO_API_KEY, transport=transport, **kwargs)
    return DirectoryClient(settings, **kwargs)
