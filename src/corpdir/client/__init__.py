"""Async client of the corporate directory service (spec + http-contract.md).

``DirectoryClient`` has one typed method per operation code; see docs/client.md.

Names are loaded on first use (PEP 562): the TUI imports the error classes at start,
and builds the client (httpx, the operation table) only when it first talks to the
service, after the first screen is painted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from corpdir.exports import lazy

if TYPE_CHECKING:
    from corpdir.client._checks import InsecureTransportWarning, redact_headers
    from corpdir.client.client import DirectoryClient
    from corpdir.client.errors import (
        AccessDenied,
        AlreadyExists,
        ApiError,
        ApiPermissionDenied,
        BadResponse,
        ConfigError,
        Conflict,
        CorpdirError,
        Invalid,
        ListingIncomplete,
        MethodNotAllowed,
        NotAcceptable,
        NotFound,
        OperationNotAvailable,
        PayloadTooLarge,
        PermissionDenied,
        RateLimited,
        ReadOnly,
        ResourcePermissionDenied,
        ServerError,
        TransportError,
        Unauthenticated,
        Unavailable,
        Unprocessable,
        UnsupportedMediaType,
    )
    from corpdir.client.ratelimit import BucketSnapshot, TokenBucket
    from corpdir.client.retry import RetryPolicy
    from corpdir.client.routing import Route, RoutingError, RoutingProfile, Upload
    from corpdir.config.service import ConnectionConfig
    from corpdir.spec.common import OMIT
    from corpdir.spec.edits import diff

_MODULES = {
    "corpdir.client.client": (
        "DirectoryClient",
    ),
    "corpdir.client._checks": (
        "InsecureTransportWarning", "redact_headers",
    ),
    "corpdir.client.errors": (
        "AccessDenied", "AlreadyExists", "ApiError", "ApiPermissionDenied", "BadResponse", "ConfigError",
        "Conflict", "CorpdirError", "Invalid", "ListingIncomplete", "MethodNotAllowed", "NotAcceptable", "NotFound",
        "OperationNotAvailable", "PayloadTooLarge", "PermissionDenied", "RateLimited", "ReadOnly",
        "ResourcePermissionDenied", "ServerError", "TransportError", "Unauthenticated", "Unavailable",
        "Unprocessable", "UnsupportedMediaType",
    ),
    "corpdir.client.ratelimit": (
        "BucketSnapshot", "TokenBucket",
    ),
    "corpdir.client.retry": (
        "RetryPolicy",
    ),
    "corpdir.client.routing": (
        "Route", "RoutingError", "RoutingProfile", "Upload",
    ),
    "corpdir.config.service": (
        "ConnectionConfig",
    ),
    "corpdir.spec.common": (
        "OMIT",  # the 'not sent' marker of request fields, re-exported for callers of the client
    ),
    "corpdir.spec.edits": (
        "diff",  # what an edit sends is a rule of the interface; offered here too
    ),
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names}
__all__ = [
    "AccessDenied", "AlreadyExists", "ApiError", "ApiPermissionDenied", "BadResponse", "BucketSnapshot",
    "ConfigError", "ConnectionConfig", "Conflict", "CorpdirError", "DirectoryClient", "InsecureTransportWarning", "Invalid",
    "ListingIncomplete", "MethodNotAllowed", "NotAcceptable", "NotFound", "OMIT", "OperationNotAvailable",
    "PayloadTooLarge", "PermissionDenied", "RateLimited", "ReadOnly", "ResourcePermissionDenied", "RetryPolicy",
    "Route", "RoutingError", "RoutingProfile", "ServerError", "TokenBucket", "TransportError",
    "Unauthenticated", "Unavailable", "Unprocessable", "UnsupportedMediaType", "Upload", "diff",
    "redact_headers",
]


__getattr__ = lazy(__name__, _EXPORTS)
