"""Token bucket per API key (spec section 8, http-contract.md).

Each request costs ``Operation.tokens`` (1, or 10 for U11, L1, N1 and X5). The four
``x-ratelimit-*`` headers go on every answer, errors included. The clock is injected so
tests move time instead of sleeping.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from corpdir.server.settings import Clock, RateLimitSettings


@dataclass
class Charge:
    allowed: bool
    remaining: float
    requested: int
    retry_after: int = 0


class RateLimiter:
    def __init__(self, settings: RateLimitSettings, clock: Clock) -> None:
        self.settings = settings
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last refill time)
        self._lock = threading.Lock()

    def charge(self, bucket: str, cost: int) -> Charge:
        s = self.settings
        if not s.enabled:
            return Charge(True, s.burst, cost)
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.get(bucket, (float(s.burst), now))
            tokens = min(float(s.burst), tokens + max(0.0, now - last) * s.rate)
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
