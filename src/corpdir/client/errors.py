"""What can go wrong when the client talks to the directory service, as exception types.

Every failure the UI has to show is a :class:`CorpdirError`. Answers from the service
become an :class:`ApiError` subclass chosen by the spec's ``status`` string (403 and 409
have several) and, failing that, by the HTTP code, so an HTML error page from a proxy
lands in the same place as the service's own JSON error object. Network failures become
:class:`TransportError`. ``str(error)`` is a sentence a receptionist can read; the
fields (``status``, ``message``, ``details``, ``http_status``, ``operation``) are for code.

Modelled on openai-python's ``_exceptions.py``: one class per status, built by one
factory (:func:`error_from_response`), never by the caller.
"""

from __future__ import annotations

import functools
import html
import json
import math
import re
from typing import TYPE_CHECKING, Any, ClassVar, Iterable

from corpdir.client._redact import redact

if TYPE_CHECKING:
    import httpx

    from corpdir.spec.errors import ErrorDetail

MESSAGE_CAP = 300  # characters of a server message (or HTML page text) kept in an error


class CorpdirError(Exception):
    """Base of every error raised by corpdir.client."""


class ConfigError(CorpdirError, ValueError):
    """The client cannot be built as configured (base URL, API key). Raised by the
    constructor, before any request; the text never contains the API key."""


class OperationNotAvailable(CorpdirError):
    """The configured variant of the interface has no such operation (spec section 9).

    Raised before any request is made."""

    def __init__(self, code: str, name: str, variant: str) -> None:
        self.operation = code
        self.variant = variant
        super().__init__(
            f"This directory service (interface variant {variant}) does not offer "
            f"'{name.replace('_', ' ')}' (operation {code})."
        )


class ReadOnly(CorpdirError):
    """This client is read-only (kiosk mode, ``corpdir --read-only``) and the operation
    would change the directory. Raised before any request is made."""

    def __init__(self, code: str, name: str) -> None:
        self.operation = code
        super().__init__(
            f"corpdir is read-only here: '{name.replace('_', ' ')}' (operation {code}) would change the directory, "
            "so it was not sent."
        )


class ListingIncomplete(CorpdirError):
    """A listing could not be completed without gaps (e.g. X1 with more than 10,000
    contacts sharing one update time, which no updatedAt window can split)."""


class TransportError(CorpdirError):
    """The request did not get an answer: connection refused or reset, timeout, DNS...

    ``sent`` is False when the failure is known to have happened before the request left
    (so a write did not happen), None when it is unknown."""

    def __init__(self, message: str, *, operation: str | None = None, sent: bool | None = None) -> None:
        self.operation = operation
        self.sent = sent
        super().__init__(message)


class ApiError(CorpdirError):
    """The service answered with an error (or the client refused locally, ``local=True``)."""

    http_status: int = 0
    summary: ClassVar[str] = "The directory service reported an error"

    def __init__(
        self,
        message: str = "",
        *,
        status: str = "",
        details: Iterable[ErrorDetail] = (),
        http_status: int | None = None,
        operation: str | None = None,
        local: bool = False,
        retry_after: float | None = None,
    ) -> None:
        self.message = message
        self.status = status
        self.details: list[ErrorDetail] = list(details)
        if http_status is not None:
            self.http_status = http_status
        self.operation = operation
        self.local = local
        self.retry_after = retry_after
        super().__init__(self._text())

    def _text(self) -> str:
        text = self.summary
        if self.message and self.message.rstrip(".").lower() != self.summary.rstrip(".").lower():
            text += f": {self.message}"
        text = text.rstrip(".")
        where = ["checked before sending" if self.local else f"HTTP {self.http_status}" if self.http_status else ""]
        where += [self.status, f"operation {self.operation}" if self.operation else ""]
        tail = ", ".join(w for w in where if w)
        text = f"{text} ({tail})." if tail else f"{text}."
        for d in self.details:
            text += f"\n  - {d.field or 'request'}: {d.description or d.code}"
        return text

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status!r}, http_status={self.http_status}, "
            f"operation={self.operation!r}, message={self.message!r}, details={len(self.details)})"
        )


class Invalid(ApiError):
    http_status = 400
    summary = "Some fields are not valid"


class Unauthenticated(ApiError):
    http_status = 401
    summary = "The API key was not accepted; check the key in the settings"


class PermissionDenied(ApiError):
    http_status = 403
    summary = "You do not have permission for this"


class ApiPermissionDenied(PermissionDenied):
    summary = "Your account is not allowed to do this operation"


class ResourcePermissionDenied(PermissionDenied):
    summary = "This record is outside what your account may see or change"


class AccessDenied(PermissionDenied):
    summary = "The directory service does not accept requests from this network address"


class NotFound(ApiError):
    http_status = 404
    summary = "The record was not found (it may have been deleted)"


class MethodNotAllowed(ApiError):
    http_status = 405
    summary = "The service does not accept this request method (check the routing profile)"


class NotAcceptable(ApiError):
    http_status = 406
    summary = "The service cannot answer in the requested format"


class Conflict(ApiError):
    http_status = 409
    summary = "The change conflicts with the current data"


class AlreadyExists(Conflict):
    summary = "A record with the same identifier already exists"


class PayloadTooLarge(ApiError):
    http_status = 413
    summary = "The data sent is too large"


class UnsupportedMediaType(ApiError):
    http_status = 415
    summary = "The data format is not accepted (images must be JPEG)"


class Unprocessable(ApiError):
    http_status = 422
    summary = "The request is well formed but cannot be carried out"


class RateLimited(ApiError):
    """429: too many requests. ``retry_after`` is the wait (seconds) the service asked for."""

    http_status = 429
    summary = "The directory service is busy (request limit reached); try again shortly"

    def _text(self) -> str:
        text = super()._text()
        if self.retry_after is not None:
            text += f" Retry in about {self.retry_after:.0f} s."
        return text


class ServerError(ApiError):
    http_status = 500
    summary = "The directory service had an internal error"


class Unavailable(ServerError):
    http_status = 503
    summary = "The directory service is unavailable right now"


class BadResponse(ServerError):
    """A success status whose body could not be read (truncated or not the expected JSON)."""

    summary = "The directory service sent an answer that could not be read"


_BY_STATUS: dict[str, type[ApiError]] = {
    "INVALID_ARGUMENT": Invalid,
    "UNAUTHENTICATED": Unauthenticated,
    "RESOURCE_PERMISSION_DENIED": ResourcePermissionDenied,
    "API_PERMISSION_DENIED": ApiPermissionDenied,
    "ACCESS_DENIED": AccessDenied,
    "NOT_FOUND": NotFound,
    "METHOD_NOT_ALLOWED": MethodNotAllowed,
    "NOT_ACCEPTABLE": NotAcceptable,
    "CONFLICT": Conflict,
    "ALREADY_EXISTS": AlreadyExists,
    "PAYLOAD_TOO_LARGE": PayloadTooLarge,
    "UNSUPPORTED_MEDIA_TYPE": UnsupportedMediaType,
    "UNPROCESSABLE": Unprocessable,
    "RESOURCE_EXHAUSTED": RateLimited,
    "INTERNAL_SERVER_ERROR": ServerError,
    "SERVICE_UNAVAILABLE": Unavailable,
}
_BY_HTTP: dict[int, type[ApiError]] = {
    400: Invalid, 401: Unauthenticated, 403: PermissionDenied, 404: NotFound, 405: MethodNotAllowed,
    406: NotAcceptable, 409: Conflict, 413: PayloadTooLarge, 415: UnsupportedMediaType, 422: Unprocessable,
    429: RateLimited, 503: Unavailable,
}


def error_class(http_status: int, status: str = "") -> type[ApiError]:
    """The class for an answer: the spec status string wins if it fits the HTTP code."""
    cls = _BY_STATUS.get(status)
    if cls is not None and cls.http_status == http_status:
        return cls
    if http_status in _BY_HTTP:
        return _BY_HTTP[http_status]
    return ServerError if http_status >= 500 else ApiError


_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<[^>]*>", re.S | re.I)
_SPACE = re.compile(r"\s+")


def trim_text(text: str, cap: int = MESSAGE_CAP, secrets: Iterable[str] = ()) -> str:
    """Markup-free, single-line, capped text of an error page: tags stripped, entities
    decoded, control characters dropped, whitespace collapsed, and ``secrets`` removed
    (before and after decoding, and before capping, so no part of one is left): a proxy's
    error page may quote the request's headers, the API key with them."""
    secrets = tuple(secrets)
    text = redact(html.unescape(_TAG.sub(" ", redact(text, secrets))), secrets)
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    text = _SPACE.sub(" ", text).strip()
    return text if len(text) <= cap else text[: cap - 1].rstrip() + "…"


def parse_retry_after(headers: httpx.Headers) -> float | None:
    """Seconds from ``Retry-After`` (seconds or an HTTP date) or ``retry-after-ms``."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            if math.isfinite(seconds := float(ms) / 1000):
                return max(0.0, seconds)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:  # 'nan' / 'inf' are no wait at all: treated as absent
        return max(0.0, seconds) if math.isfinite(seconds) else None
    from email.utils import parsedate_to_datetime
    from datetime import datetime, timezone

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def error_from_response(
    response: httpx.Response, operation: str | None = None, *, retry_after: float | None = None,
    secrets: Iterable[str] = (),
) -> ApiError:
    """Build the error for a non-success answer, whatever its body: the spec's JSON error
    object, an HTML page, truncated JSON or nothing. Never raises a decode error. Every
    text taken from the answer has ``secrets`` (the API key) removed."""
    secrets = tuple(secrets)
    trim = functools.partial(trim_text, secrets=secrets)
    code = response.status_code
    status, message, details = "", "", []
    raw = response.content
    try:
        payload: Any = json.loads(raw) if raw else None
    except (ValueError, UnicodeDecodeError, RecursionError):
        payload = None
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        err = payload["error"]
        status = trim(str(err.get("status") or ""), 60)
        message = trim(str(err.get("message") or ""))
        listed = err.get("details")
        from corpdir.spec.errors import ErrorDetail  # pydantic: with the first error the service answers

        for d in listed if isinstance(listed, list) else []:
            if isinstance(d, dict):
                try:
                    details.append(ErrorDetail.model_validate(
                        {k: trim(str(v)) for k, v in d.items() if k in ("field", "code", "description") and v is not None}
                    ))
                except ValueError:
                    continue
    elif raw:
        message = trim(raw.decode("utf-8", errors="replace"))
    if not message:
        message = trim(response.reason_phrase or "")
    cls = error_class(code, status)
    if retry_after is None and (code in (429, 503) or "retry-after" in response.headers):  # also L1's 409
        retry_after = parse_retry_after(response.headers)
    return cls(message, status=status, details=details, http_status=code, operation=operation, retry_after=retry_after)
