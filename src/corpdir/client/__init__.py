"""Async client of the corporate directory service (spec + http-contract.md).

``DirectoryClient`` has one typed method per operation code; see docs/client.md.
"""

from corpdir.client.client import DirectoryClient, InsecureTransportWarning, redact_headers
from corpdir.client.diff import diff
from corpdir.client.errors import (
    AccessDenied,
    AlreadyExists,
    ApiError,
    ApiPermissionDenied,
    BadResponse,
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
from corpdir.client.settings import ClientSettings

__all__ = [
    "AccessDenied", "AlreadyExists", "ApiError", "ApiPermissionDenied", "BadResponse", "BucketSnapshot",
    "ClientSettings", "Conflict", "CorpdirError", "DirectoryClient", "InsecureTransportWarning", "Invalid",
    "ListingIncomplete", "MethodNotAllowed", "NotAcceptable", "NotFound", "OperationNotAvailable",
    "PayloadTooLarge", "PermissionDenied", "RateLimited", "ReadOnly", "ResourcePermissionDenied", "RetryPolicy", "Route",
    "RoutingError", "RoutingProfile", "ServerError", "TokenBucket", "TransportError", "Unauthenticated",
    "Unavailable", "Unprocessable", "UnsupportedMediaType", "Upload", "diff", "redact_headers",
]
