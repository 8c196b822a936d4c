"""Token bucket per API key (spec section 8, http-contract.md).

Each request costs ``Operation.tokens`` (1, or 10 for U11, L1, N1 and X5). The four
``x-ratelimit-*`` headers go on every answer, errors included. The clock is injected so
tests move time instead of sleeping.

A bucket is named by the pipeline after it has looked the key up: a known key, or else
the caller's address, so a key that is not one is throttled with the address that
sent it instead of getting a fresh bucket of its own. The buckets are bounded
(``MAX_BUCKETS``): past it the least recently used goes, which has been idle longest and
so is full again, or nearly, whenever fewer than that many callers are active at once.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

from corpdir.server.settings import Clock, RateLimitSettings


@dataclass
class Charge:
    allowed: bool
    remaining: float
    requested: int
    retry_after: int = 0


MAX_BUCKETS = 10_000


class RateLimiter:
    def __init__(self, settings: RateLimitSettings, clock: Clock, max_buckets: int = MAX_BUCKETS) -> None:
        self.settings = settings
        self.clock = clock
        self.max_buckets = max_buckets
        # bucket -> (tokens, last refill time), least recently charged first
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._buckets)

    def charge(self, bucket: str, cost: int) -> Charge:
        s = self.settings
        if not s.enabled:
            return Charge(True, s.burst, cost)
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.pop(bucket, (float(s.burst), now))
            tokens = min(float(s.burst), tokens + max(0.0, now - last) * s.rate)
            while len(self._buckets) >= self.max_buckets:
                self._buckets.popitem(last=False)
            if tokens >= cost:
                self._buckets[bucket] = (tokens - cost, now)
                return Charge(True, tokens - cost, cost)
            self._buckets[bucket] = (tokens, now)
        wait = (cost - tokens) / s.rate if s.rate > 0 else 3600
        return Charge(False, tokens, cost, max(1, math.ceil(wait)))

    def headers(self, charge: Charge) -> dict[str, str]:
        s = self.settings
        out = {
            "x-ratelimit-remaining": str(int(charge.remaining)),
            "x-ratelimit-requested-tokens": str(charge.requested),
            "x-ratelimit-burst-capacity": str(s.burst),
            "x-ratelimit-replenish-rate": f"{s.rate:g}",
        }
        if not charge.allowed:
            out["retry-after"] = str(charge.retry_after)
        return out
