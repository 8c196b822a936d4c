"""What one request body may cost, checked before anything parses it.

A body is bounded in bytes (``ServerSettings.max_json_bytes`` / ``max_image_bytes``) and a
JSON body also in items: 14 MB of ``{}`` is under the byte limit but parses into ~5 million
Python dicts (~360 MB) whatever field they sit in, because pydantic builds the value of an
unknown field to name it in the error. Counting items on the bytes as they arrive keeps a
hostile body's cost to a few hundred kilobytes read.

The same limits hold in every variant. Variant A has no 413 (spec section 9), so there the
answer is 400 INVALID_ARGUMENT on the field ``body``; B and C answer 413 PAYLOAD_TOO_LARGE.
"""

from __future__ import annotations

import re

from corpdir.server.errors import ApiError
from corpdir.spec.errors import DetailCode, ErrorDetail, ErrorStatus
from corpdir.spec.variants import Variant

MAX_JSON_ITEMS = 100_000
"""Values and member names in one JSON body. The largest valid bodies (U11's 10,000
destinations, L1's 10,000 locations) hold about 70,000; at the limit a body parses into a
few megabytes of Python objects."""

# The rest of a string after its opening quote: up to its closing quote or the end of the
# chunk (a backslash last in a chunk escapes the first byte of the next).
_STRING_REST = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)


def too_large(variant: Variant, message: str, detail: ErrorDetail) -> ApiError:
    """413 where the variant has it, else 400 (the same limit, in the variant's words)."""
    status = ErrorStatus.PAYLOAD_TOO_LARGE if variant.payload_too_large else ErrorStatus.INVALID_ARGUMENT
    return ApiError(status, message, [detail])


def body_too_large(variant: Variant, limit: int) -> ApiError:
    detail = ErrorDetail(field="body", code=DetailCode.TOO_LONG.value, description=f"at most {limit} bytes")
    return too_large(variant, f"the body is over the limit of {limit} bytes", detail)


class JsonItemCounter:
    """Counts the items (values and member names) of a JSON body as its chunks arrive,
    and refuses it (``too_large``) at the first chunk that takes it over ``limit``: 14 MB
    of ``{}`` is refused after its first few hundred kilobytes, and no chunk costs more
    than a scan of itself.

    Every item but the first follows a comma or a colon outside strings, or is the first
    item of a container that is not ``{}`` or ``[]``. An empty container split between two
    chunks, or holding white space, is counted once too often: a count never too low.
    """

    def __init__(self, variant: Variant, limit: int = MAX_JSON_ITEMS) -> None:
        self.variant = variant
        self.limit = limit
        self.items = 1
        self.in_string = False
        self.escaped = False  # the chunk ended with the backslash of an escape

    def feed(self, chunk: bytes) -> None:
        i, end = 0, len(chunk)
        while i < end:
            if self.in_string:
                if self.escaped:
                    i, self.escaped = i + 1, False
                    continue
                i = _STRING_REST.match(chunk, i).end()
                if i < end and chunk[i] == 0x5C:  # a backslash with nothing after it in this chunk
                    i, self.escaped = i + 1, True
                elif i < end:
                    i, self.in_string = i + 1, False
            else:
                quote = chunk.find(b'"', i)
                stop = end if quote < 0 else quote
                self.items += sum(chunk.count(c, i, stop) for c in (b",", b":", b"[", b"{"))
                self.items -= chunk.count(b"{}", i, stop) + chunk.count(b"[]", i, stop)
                i, self.in_string = stop + 1, quote >= 0
        if self.items > self.limit:
            detail = ErrorDetail(field="body", code=DetailCode.TOO_MANY_ITEMS.value,
                                 description=f"at most {self.limit} JSON values and names")
            error = too_large(self.variant, f"the body holds more than {self.limit} JSON values and names", detail)
            # no valid body comes near the limit, so the connection closes instead of uvicorn
            # reading and parsing the rest of the body to find the next request (14 MB: ~5 ms
            # of CPU a body); a body over the byte limit is read to its end, so that the client
            # of a photo a little too large gets its 413 rather than a reset connection
            error.headers["connection"] = "close"
            raise error
