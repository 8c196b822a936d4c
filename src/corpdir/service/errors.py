"""The errors the UI may catch, handed out by the façade: screens and commands name
these, never the client's or the cache's modules (architecture.md: screens reach the
service only through the façade). The classes are the client's own, so an ``except``
here catches exactly what the client raises."""

from __future__ import annotations

from corpdir.client.errors import (
    ApiError,
    ConfigError,
    CorpdirError,
    Invalid,
    NotFound,
    PermissionDenied,
    RateLimited,
    ReadOnly,
    ServerError,
    TransportError,
)

__all__ = ["ApiError", "ConfigError", "CorpdirError", "Invalid", "NotFound", "PermissionDenied", "RateLimited",
           "ReadOnly", "ServerError", "TransportError"]
