"""Operation handlers, one function per operation code, registered with ``@handles``.

Handlers are plain (sync) functions of a ``Call``; the pipeline runs them in a worker
thread. Each returns a JSON-able dict, JPEG bytes, or None (the operation's empty
success answer), or raises ApiError.
"""

from __future__ import annotations

import importlib
from typing import Callable

from corpdir.server.pipeline import Handler

HANDLERS: dict[str, Handler] = {}

_MODULES = ("users", "divisions", "media", "profiles", "contacts", "folders", "phones", "calls", "locations")


def handles(code: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        assert code not in HANDLERS, f"{code} registered twice"
        HANDLERS[code] = fn
        return fn

    return register


def all_handlers() -> dict[str, Handler]:
    for name in _MODULES:
        importlib.import_module(f"corpdir.server.handlers.{name}")
    return HANDLERS


def page(items: list, has_more: bool) -> dict:
    return {"hasMore": has_more, "items": items}
