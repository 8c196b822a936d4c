"""Which connections that have not logged in yet the server keeps: sshd's ``MaxStartups``
and ``PerSourceMaxStartups``/``PerSourcePenalties``, so that a flood cannot lock out a
real user.

A hard cap alone lets 200 connections that send a version line and hold fill every slot:
a real user's login is dropped for the whole login timeout, and with the flood
reconnecting, every login fails. So:

- **each source has a share** (``per_source``, default ``start``): an address (an IPv6
  /64) holding that many pre-auth connections gets no more, so one address cannot take
  the slots of the others;
- **random early drop** between ``start`` and ``full`` (sshd's ``10:30:100``): past
  ``start``, a new connection from a source that already holds one is dropped with a
  chance growing from ``rate`` % to 100 % at ``full``; a source holding none is let in
  until ``full``, so a flood from some addresses still leaves room for the others;
- **a connection that does not progress is dropped early** (``preauth_timeout``: no
  authentication request, i.e. no finished key exchange, within it; a real client needs
  well under a second) and **its source is refused** for ``penalty`` seconds, as sshd's
  ``grace-exceeded`` penalty does.
"""

from __future__ import annotations

import ipaddress
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

PENALTY_TABLE_MAX = 4096  # sources remembered as penalised; past it, new penalties are not recorded


@dataclass(frozen=True)
class StartupLimits:
    """sshd's ``MaxStartups start:rate:full``, a source's share, the pre-auth timeout."""

    start: int
    rate: int = 30  # percent dropped at ``start``
    full: int | None = None  # None: 5 x start
    per_source: int | None = None  # None: start
    preauth_timeout: float = 10.0
    penalty: float = 20.0  # seconds a source that let a connection time out is refused; 0: never

    @classmethod
    def parse(cls, text: str, **others: Any) -> StartupLimits:
        """``"20"`` or ``"10:30:100"``, as sshd's MaxStartups is written; ValueError if not."""
        parts = [int(part) if part.isdigit() else -1 for part in text.split(":")]
        if len(parts) == 1 and parts[0] > 0:
            return cls(parts[0], **others)
        if len(parts) != 3 or not 0 < parts[0] < parts[2] or not 0 <= parts[1] <= 100:
            raise ValueError(f"max startups {text!r}: expected START or START:RATE:FULL, 0 < START < FULL, RATE 0-100")
        return cls(parts[0], parts[1], parts[2], **others)

    @property
    def ceiling(self) -> int:
        return self.full if self.full is not None else max(self.start * 5, self.start + 1)

    @property
    def share(self) -> int:
        return self.per_source if self.per_source is not None else self.start


def source_of(address: str) -> str:
    """The unit a share is counted per: the address, or its /64 for IPv6 (one host has a
    whole /64 to pick from)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ip.ipv4_mapped) if ip.ipv4_mapped else str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Startups:
    """The connections not yet logged in, per source, and the sources refused for a while."""

    def __init__(self, limits: StartupLimits, *, chance: Callable[[], float] = random.random,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.held: Counter[str] = Counter()
        self._penalised: dict[str, float] = {}  # source -> refused until (clock)
        self._chance = chance
        self._clock = clock

    @property
    def total(self) -> int:
        return sum(self.held.values())

    def admit(self, source: str) -> str | None:
        """Take a slot for a connection from ``source``; or why it is dropped."""
        limits, total, held = self.limits, self.total, self.held[source]
        until = self._penalised.get(source)
        if until is not None:
            if until > self._clock():
                return f"its address is refused for {until - self._clock():.0f} s more (a connection did not progress)"
            del self._penalised[source]
        if total >= limits.ceiling:
            return f"{total} connections already logging in (the maximum)"
        if held >= limits.share:
            return f"{held} connections from its address already logging in (its share)"
        if held and total >= limits.start:
            drop = limits.rate + (100 - limits.rate) * (total - limits.start) / (limits.ceiling - limits.start)
            if self._chance() * 100 < drop:
                return f"{total} connections already logging in (dropped at random, {drop:.0f} %)"
        self.held[source] += 1
        return None

    def release(self, source: str) -> None:
        """The connection logged in or went away."""
        self.held[source] -= 1
        if self.held[source] <= 0:
            del self.held[source]

    def penalise(self, source: str) -> None:
        """Refuse ``source`` for ``penalty`` seconds: one of its connections did not progress."""
        if self.limits.penalty <= 0:
            return
        now = self._clock()
        if len(self._penalised) >= PENALTY_TABLE_MAX:
            self._penalised = {s: until for s, until in self._penalised.items() if until > now}
        if len(self._penalised) < PENALTY_TABLE_MAX:
            self._penalised[source] = now + self.limits.penalty
