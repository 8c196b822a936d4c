"""The reference directory service: ``create_app(ServerSettings) -> FastAPI``.

Names are loaded on first use, so importing ``corpdir.server.demo`` (or the settings)
does not import FastAPI.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ServerSettings", "RateLimitSettings", "create_app", "DEMO_MIN_SIZE"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from corpdir.server.app import create_app

        return create_app
    if name in ("ServerSettings", "RateLimitSettings"):
        from corpdir.server import settings

        return getattr(settings, name)
    if name == "DEMO_MIN_SIZE":  # `corpdir server --size` checks it when the command line is read
        from corpdir.server.demo.people import MIN_SIZE

        return MIN_SIZE
    raise AttributeError(name)
