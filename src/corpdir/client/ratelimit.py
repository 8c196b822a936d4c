"""A client-side copy of the service's token bucket, so a correct client never gets a 429.

The service limits each API key with a token bucket (spec section 8) and reports it on
every answer in four headers: ``x-ratelimit-remaining``, ``-requested-tokens``,
``-burst-capacity`` and ``-replenish-rate``. :class:`TokenBucket` mirrors it:

- before a request, :meth:`TokenBucket.acquire` takes the operation's cost (the spec's
  ``Operation.tokens`` until the service reports another cost for that operation), waiting
  until the bucket can pay;
- after the answer, :meth:`TokenBucket.settle` resets the estimate to what the service
  said minus every other request still in flight (the service may not have counted them
  yet: at worst they are counted twice, which errs on the safe side and the next answer
  corrects). An answer overtaken by the answer of a request sent after it may only lower
  the estimate, never raise it: its figure is older;
- a 429 that comes anyway pauses every caller (:meth:`TokenBucket.pause`).

A share of the bucket can be kept for urgent requests (:meth:`TokenBucket.reserve`; the
gateway keeps one for N1 on a number its cache does not know, with a phone ringing):
every other request leaves that many tokens in the bucket, and requests made inside
:func:`reserved` may spend them and do not queue behind the others. So a long sync,
throttled by the bucket, cannot starve a caller-ID lookup of tokens; the sync waits for
the reserve to refill (at the key's rate) before it goes on; and as both are paid from
one estimate, neither pushes the other into a 429.

Until the first answer the bucket is unknown: one request goes out alone as a probe and
the others wait for its headers. A service that sends no rate-limit headers is treated as
unlimited. The clock and sleep are injectable so tests run on a fake clock.
"""

from __future__ import annotations

import asyncio
import math
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterator, Mapping

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
Listener = Callable[["BucketSnapshot"], None]

H_REMAINING = "x-ratelimit-remaining"
H_REQUESTED = "x-ratelimit-requested-tokens"
H_BURST = "x-ratelimit-burst-capacity"
H_RATE = "x-ratelimit-replenish-rate"
_RESERVED: ContextVar[bool] = ContextVar("corpdir_reserved_share", default=False)


@contextmanager
def reserved() -> Iterator[None]:
    """Requests made inside (and in tasks started inside) are paid from the reserved share."""
    token = _RESERVED.set(True)
    try:
        yield
    finally:
        _RESERVED.reset(token)


def is_reserved() -> bool:
    return _RESERVED.get()


@dataclass(frozen=True)
class BucketSnapshot:
    """What the status bar shows: the estimate of the service's bucket right now."""

    tokens: float  # estimated tokens left (may be < 0 while answers are outstanding)
    capacity: float | None  # burst capacity, None until the service said
    rate: float | None  # tokens per second, None until the service said
    in_flight: int  # requests sent and not yet answered
    waiting: int  # callers waiting for tokens
    paused_for: float  # seconds left of a 429 pause
    known: bool  # the service has reported its limits
    unlimited: bool  # the service reports no limits
    throttled: int  # how many times a caller had to wait for tokens
    rate_limited: int  # how many 429 answers came anyway


@dataclass(frozen=True)
class RateHeaders:
    remaining: float
    requested: float | None
    burst: float | None
    rate: float | None

    @classmethod
    def parse(cls, headers: Mapping[str, str]) -> RateHeaders | None:
        def num(name: str) -> float | None:
            value = headers.get(name)
            try:
                number = float(value) if value is not None else None
            except ValueError:
                return None
            # 'nan' and 'inf' parse as floats but would poison the estimate for good
            return number if number is not None and math.isfinite(number) else None

        remaining = num(H_REMAINING)
        if remaining is None:
            return None
        return cls(remaining, num(H_REQUESTED), num(H_BURST), num(H_RATE))


@dataclass
class Ticket:
    """One request's claim on the bucket, returned by acquire and given back to settle."""

    seq: int
    cost: float
    operation: str
    probe: bool = False


class TokenBucket:
    def __init__(
        self,
        *,
        costs: Mapping[str, float] | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        listener: Listener | None = None,
    ) -> None:
        self._costs: dict[str, float] = dict(costs or {})
        self._clock = clock
        self._sleep = sleep
        self.listener = listener
        self._tokens = 0.0
        self._capacity: float | None = None
        self._rate: float | None = None
        self._stamp = clock()
        self._known = False
        self._unlimited = False
        self._probe_out = False
        self._probe_done = asyncio.Event()
        self._paused_until = 0.0
        self._seq = 0
        self._newest = 0  # seq of the newest answer applied to the estimate
        self._in_flight: dict[int, Ticket] = {}
        self._waiting = 0
        self._throttled = 0
        self._rate_limited = 0
        self._lock = asyncio.Lock()
        self._share = 0.0  # of the capacity, kept for reserved requests

    def reserve(self, share: float) -> None:
        """Keep ``share`` (0 to 0.9) of the bucket's capacity for requests made inside
        :func:`reserved`: no other request takes the bucket below it. 0 keeps nothing."""
        if not 0 <= share <= 0.9:
            raise ValueError(f"reserved share must be between 0 and 0.9, not {share}")
        self._share = share

    # -- observing --------------------------------------------------------------------
    def snapshot(self) -> BucketSnapshot:
        self._refill()
        return BucketSnapshot(
            tokens=self._tokens,
            capacity=self._capacity,
            rate=self._rate,
            in_flight=len(self._in_flight),
            waiting=self._waiting,
            paused_for=max(0.0, self._paused_until - self._clock()),
            known=self._known,
            unlimited=self._unlimited,
            throttled=self._throttled,
            rate_limited=self._rate_limited,
        )

    def _notify(self) -> None:
        if self.listener is not None:
            self.listener(self.snapshot())

    def cost(self, operation: str) -> float:
        return self._costs.get(operation, 1.0)

    # -- the estimate -----------------------------------------------------------------
    def _refill(self) -> None:
        """The tokens the rate has added since the last look, up to what the service's
        bucket can hold less what is in flight: a request still on its way is charged
        there when it arrives, against a bucket that stopped filling at its capacity. Capped
        at the capacity alone, a request slow to arrive while the bucket filled up was paid
        for twice here (once taken, once refilled) and the last of a burst met a 429."""
        now = self._clock()
        if self._rate and now > self._stamp:
            self._tokens += (now - self._stamp) * self._rate
            if self._capacity is not None:
                self._tokens = min(self._tokens, self._capacity - sum(t.cost for t in self._in_flight.values()))
        self._stamp = max(self._stamp, now)

    def _delay(self, cost: float, urgent: bool = False) -> float:
        """Seconds until ``cost`` tokens are there (and any 429 pause is over); 0 = now.
        A request not ``urgent`` also leaves the reserved share in the bucket."""
        now = self._clock()
        pause = max(0.0, self._paused_until - now)
        if self._unlimited or not self._known:
            return pause
        self._refill()
        # A cost above the capacity could never be paid: wait for a full bucket instead.
        need = min(cost, self._capacity) if self._capacity else cost
        if self._share and not urgent and self._capacity:
            need = min(need + self._share * self._capacity, self._capacity)
        if self._tokens >= need:
            return pause
        if not self._rate:
            # No refill rate reported: nothing here will ever make the tokens come, only
            # an answer can. So one request goes (its answer corrects us, or it is a 429
            # whose Retry-After pauses everyone) while the others wait for that answer.
            return pause if not self._in_flight else max(pause, 0.05)
        # At least a millisecond: a wait below the clock's resolution would spin forever.
        return max(pause, (need - self._tokens) / self._rate, 0.001)

    async def acquire(self, operation: str) -> Ticket:
        """Wait until the bucket can pay for one ``operation`` request, then take it."""
        cost = self.cost(operation)
        self._waiting += 1
        try:
            if self._share and is_reserved():  # not behind the queue of the others
                ticket = await self._pay(operation, cost, urgent=True)
            else:
                async with self._lock:  # first come, first served
                    ticket = await self._pay(operation, cost)
        finally:
            self._waiting -= 1
        self._notify()
        return ticket

    async def _pay(self, operation: str, cost: float, urgent: bool = False) -> Ticket:
        waited = False
        while True:
            paused = self._paused_until - self._clock()
            if paused > 0:
                await self._sleep(paused)
                continue
            if not self._known and not self._unlimited:
                if self._probe_out:
                    await self._probe_done.wait()
                    continue
                self._probe_out = True
                self._probe_done.clear()
                return self._take(operation, cost, probe=True)
            delay = self._delay(cost, urgent)
            if delay <= 0:
                return self._take(operation, cost)
            if not waited:
                waited = True
                self._throttled += 1
                self._notify()
            await self._sleep(delay)

    def _take(self, operation: str, cost: float, *, probe: bool = False) -> Ticket:
        self._seq += 1
        ticket = Ticket(self._seq, cost, operation, probe)
        if self._known and not self._unlimited:
            self._tokens -= cost
        self._in_flight[ticket.seq] = ticket
        return ticket

    def settle(self, ticket: Ticket, headers: Mapping[str, str] | None, *, status: int | None = None) -> None:
        """Account for the answer to ``ticket`` (headers None: no answer came)."""
        self._in_flight.pop(ticket.seq, None)
        info = RateHeaders.parse(headers) if headers is not None else None
        if info is not None:
            if info.requested is not None and info.requested > 0:
                self._costs[ticket.operation] = info.requested
            if info.burst is not None and info.burst > 0:
                self._capacity = info.burst
            if info.rate is not None and info.rate >= 0:
                self._rate = info.rate
            # Not in this answer yet, as far as we know: every other request in flight.
            others = sum(t.cost for t in self._in_flight.values())
            self._refill()
            estimate = info.remaining - others
            if ticket.seq > self._newest or not self._known:
                self._tokens, self._newest = estimate, ticket.seq
            else:  # an older answer overtaken by a newer one: it may only lower the estimate
                self._tokens = min(self._tokens, estimate)
            self._stamp = self._clock()
            self._known = True
            self._unlimited = False
        elif headers is not None and not self._known and status is not None and 200 <= status < 300:
            self._unlimited = True  # an answer without rate-limit headers: nothing to mirror
        if status == 429:
            self._rate_limited += 1
        if ticket.probe:
            self._probe_out = False
            self._probe_done.set()
        self._notify()

    def pause(self, seconds: float) -> None:
        """Hold every caller back for ``seconds`` (a 429's Retry-After)."""
        self._paused_until = max(self._paused_until, self._clock() + seconds)
        self._notify()

    def refill_wait(self, operation: str, headers: Mapping[str, str]) -> float | None:
        """The wait a 429 implies when it has no Retry-After: (requested - remaining) / rate."""
        info = RateHeaders.parse(headers)
        if info is None or not info.rate:
            return None
        requested = info.requested if info.requested is not None else self.cost(operation)
        return max(0.0, (requested - info.remaining) / info.rate)
