"""What came back, as a result or an exception: decoding answers, naming network failures.

A success answer becomes the operation's spec model (or JPEG bytes); one that is not in
the expected form is :class:`BadResponse`. A network failure becomes a
:class:`TransportError` with a sentence a receptionist can read and, for a write,
whether the change may already have been saved.
"""

from __future__ import annotations

from typing import Any

import httpx
from pydantic import ValidationError

from corpdir.client.errors import BadResponse, TransportError
from corpdir.client.retry import failure
from corpdir.spec import Operation


def without_body(response: httpx.Response, request: httpx.Request) -> httpx.Response:
    """The answer's status and headers with no body (its content-encoding was broken)."""
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")]
    return httpx.Response(response.status_code, headers=headers, content=b"", request=request,
                          extensions={"corpdir_unreadable": True})


def decode(op: Operation, response: httpx.Response) -> Any:
    if op.response is None:
        return None
    if op.response == "jpeg":
        if not response.content.startswith(b"\xff\xd8"):  # JPEG's start-of-image marker
            # e.g. a proxy's login page answered with 200: not a photo to show
            raise BadResponse(
                "the answer was not a JPEG image",
                http_status=response.status_code,
                operation=op.code,
            )
        return response.content
    try:
        return op.response.model_validate_json(response.content)
    except (ValidationError, ValueError):
        raise BadResponse(
            "the answer was cut off or not in the expected form",
            http_status=response.status_code,
            operation=op.code,
        ) from None


def transport_error(op: Operation, exc: httpx.TransportError) -> TransportError:
    """The :class:`TransportError` the user sees for a network failure (its row of
    :data:`corpdir.client.retry.FAILURES`); a write that may have reached the service says so."""
    row = failure(exc)
    words = row.words
    if op.is_write and row.sent is None:
        words += "; the change may or may not have been saved, reload to check"
    return TransportError(f"{words} ({type(exc).__name__}, operation {op.code}).", operation=op.code, sent=row.sent)
