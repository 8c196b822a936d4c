"""When a failed request may be sent again, and how long to wait first.

The rule that matters is for writes: a create or edit that may already have happened on
the service must not be repeated, or the directory gets two contacts or two call records.
So a write is resent only when the service certainly did not act on it:

- a 429 (the rate limiter turned it away before it was processed), or
- a failure known to have happened before the request was sent (``httpx.ConnectError``,
  ``ConnectTimeout``, ``PoolTimeout``).

Each kind of network failure is one row of :data:`FAILURES`, which also holds the
sentence the user reads and whether the request may have left.

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
from typing import TYPE_CHECKING, Literal

import httpx

from corpdir.spec import Operation

if TYPE_CHECKING:
    from corpdir.config.service import ConnectionConfig


@dataclass(frozen=True)
class Failure:
    """What one kind of network failure means: the sentence a receptionist reads, whether
    the request certainly never left (``sent=False``) or may have (``None``), and when it
    may be sent again: ``"any"`` request (it never reached the service), only ``"reads"``
    (a write may already have happened), or ``"never"`` (it would only fail again)."""

    kind: type[httpx.TransportError]
    words: str
    sent: bool | None
    resend: Literal["any", "reads", "never"]


# One row per kind, most specific first (the first row the exception is an instance of wins).
FAILURES = (
    Failure(httpx.UnsupportedProtocol, "The directory service address must start with http:// or https://", False, "never"),
    Failure(httpx.LocalProtocolError, "The request could not be sent as HTTP (check the API key and the routing profile)",
            None, "never"),
    Failure(httpx.ConnectTimeout, "Could not connect to the directory service in time", False, "any"),
    Failure(httpx.ConnectError, "Could not connect to the directory service", False, "any"),
    Failure(httpx.PoolTimeout, "No connection to the directory service was free in time", False, "any"),
    Failure(httpx.TimeoutException, "The directory service did not answer in time", None, "reads"),
    Failure(httpx.RemoteProtocolError, "The connection to the directory service broke off", None, "reads"),
    Failure(httpx.TransportError, "The connection to the directory service failed", None, "reads"),
)


def failure(exc: httpx.TransportError) -> Failure:
    """The row of :data:`FAILURES` for ``exc``."""
    return next(row for row in FAILURES if isinstance(exc, row.kind))


RETRY_STATUS_READ = frozenset({429, 502, 503, 504})
RETRY_STATUS_WRITE = frozenset({429})
ONCE_PER_WINDOW = frozenset({"L1"})
"""Operations the service takes once per tenant per window (L1: 5 minutes). Their 429
says when the window ends, up to 300 s away: the caller is told at once (``RateLimited``
with ``retry_after``) rather than kept waiting, and the bucket is not paused for it."""


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 4
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0  # a longer Retry-After fails fast with RateLimited
    jitter: float = 0.25  # a wait is shortened by up to this fraction, at random

    @classmethod
    def of(cls, config: ConnectionConfig) -> RetryPolicy:
        """The policy the ``[service]`` settings ask for."""
        return cls(max_retries=config.max_retries, initial_delay=config.retry_initial_delay,
                   max_delay=config.retry_max_delay, max_retry_after=config.max_retry_after)

    def retry_exception(self, op: Operation, exc: BaseException) -> bool:
        if not isinstance(exc, httpx.TransportError):
            return False
        resend = failure(exc).resend
        return resend == "any" or (resend == "reads" and not op.is_write)

    def retry_status(self, op: Operation, status: int) -> bool:
        if status == 429 and op.code in ONCE_PER_WINDOW:
            return False
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
