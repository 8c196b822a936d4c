"""The gateway's figures for Prometheus (``/metrics``, the text format, by
``prometheus_client``): caller-ID lookups by how they were answered, directory downloads
by phone, N1 requests and how long they took, and how old the last sync is.

One registry per gateway (a process may run several in tests). A lookup's count is one
dictionary read and one locked add on a counter child bound at start: well under a
microsecond, so the caller-ID path keeps its pace (bench/gateway_bench.py).
"""

from __future__ import annotations

import math
import time
from typing import Any, Awaitable, Callable, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

T = TypeVar("T")
ANSWERS = ("cache", "service", "unknown", "late", "withheld")
PHONES = ("yealink", "cisco", "snom", "grandstream")
CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.clock = clock
        lookups = Counter("corpdir_gateway_lookups", "Caller-ID lookups by how they were answered",
                          ["answer"], registry=self.registry)
        self._lookups = {answer: lookups.labels(answer) for answer in ANSWERS}
        downloads = Counter("corpdir_gateway_directory_downloads", "Directory documents and pages served, by phone",
                            ["phone"], registry=self.registry)
        self._downloads = {phone: downloads.labels(phone) for phone in PHONES}
        self._n1 = Histogram("corpdir_gateway_n1_seconds", "N1 requests for uncached numbers and how long they took",
                             registry=self.registry, buckets=(0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5, 10))
        self._n1_failed = Counter("corpdir_gateway_n1_failures", "N1 requests that failed", registry=self.registry)
        self.last_sync: float | None = None
        Gauge("corpdir_gateway_sync_age_seconds", "Seconds since the last successful sync (NaN: none yet)",
              registry=self.registry).set_function(self._sync_age)

    def lookup(self, answer: str) -> None:
        counter = self._lookups.get(answer)
        if counter is not None:
            counter.inc()

    def download(self, phone: str) -> None:
        self._downloads[phone].inc()

    async def timed_n1(self, call: Awaitable[T]) -> T:
        started = time.monotonic()
        try:
            return await call
        except Exception:
            self._n1_failed.inc()
            raise
        finally:
            self._n1.observe(time.monotonic() - started)

    def synced(self) -> None:
        self.last_sync = self.clock()

    def _sync_age(self) -> float:
        return math.nan if self.last_sync is None else self.clock() - self.last_sync

    def text(self) -> bytes:
        return generate_latest(self.registry)


def counted_ask(metrics: Metrics, ask: Callable[[list[str]], Awaitable[Any]] | None) -> Any:
    """``ask`` (the service's N1 for one number), timed and counted."""
    if ask is None:
        return None
    return lambda forms: metrics.timed_n1(ask(forms))
