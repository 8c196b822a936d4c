"""When a failed request may be sent again, and how long to wait first.

The rule that matters is for writes: a create or edit that may already have happened on
the service must not be repeated, or the directory gets two contacts or two call records.
So a write is resent only when the service certainly did not act on it:

- a 429 (the rate limiter turned it away before it was processed), or
- a failure known to have happened before the request was sent (``httpx.ConnectError``,
  ``ConnectTimeout``, ``PoolTimeout``).

Reads (GET, and N1: a POST that only reads) are also retried on any other network failure or
timeout, on 502/503/504 and on a success answer whose body could not be read. Nothing is
retried that would only fail again (``UnsupportedProtocol``, ``LocalProtocolError``). Waits
grow exponentially with jitter and are capped (as in openai-python's ``_base_client``); a
``Retry-After`` longer than ``max_retry_after`` is not waited out: the call fails at once
with ``RateLimited``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import httpx

from corpdir.spec import Operation

# Failures that happen before a byte of the request leaves: safe to resend anything.
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)
# Failures that would only happen again: the request itself cannot be sent as it is
# (an address that is not http(s), a header value HTTP does not allow).
NEVER_RETRIED = (httpx.UnsupportedProtocol, httpx.LocalProtocolError)
RETRY_STATUS_READ = frozenset({429, 502, 503, 504})
RETRY_STATUS_WRITE = frozenset({429})


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 4
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0  # a longer Retry-After fails fast with RateLimited
    jitter: float = 0.25  # a wait is shortened by up to this fraction, at random

    def retry_exception(self, op: Operation, exc: BaseException) -> bool:
        if isinstance(exc, NEVER_RETRIED):
            return False
        if isinstance(exc, NOT_SENT):
            return True
        return not op.is_write and isinstance(exc, httpx.TransportError)

    def retry_status(self, op: Operation, status: int) -> bool:
        return status in (RETRY_STATUS_WRITE if op.is_write else RETRY_STATUS_READ)

    def retry_unreadable(self, op: Operation) -> bool:
        """A 2xx whose body was cut off: repeat a read, never a write (it happened)."""
        return not op.is_write

    def backoff(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds before retry number ``attempt + 1``; the service's Retry-After wins."""
        if retry_after is not None:
            return retry_after
        delay = min(self.initial_delay * 2.0**attempt, self.max_delay)
        return delay * (1.0 - self.jitter * random.random())
