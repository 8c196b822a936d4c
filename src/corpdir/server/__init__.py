"""The reference directory service: ``create_app(ServerSettings) -> FastAPI``.

Names are loaded on first use, so importing ``corpdir.server.demo`` (or the settings)
does not import FastAPI.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ServerSettings", "RateLimitSettings", "create_app", "DEMO_MIN_SIZE"]

# The fewest users the demo generator makes a tenant of (corpdir.server.demo.people):
# `corpdir server --size` is checked against it when the command line is read. A test
# holds the two together (tests/cli/test_number_flags.py).
DEMO_MIN_SIZE = 10


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from corpdir.server.app import create_app

        return create_app
    if name in ("ServerSettings", "RateLimitSettings"):
        from corpdir.server import settings

        return getattr(settings, name)
    raise AttributeError(name)
