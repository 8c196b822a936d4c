"""The generator's random source: ``random.Random`` with cheaper small draws.

A 100,000-user tenant makes millions of draws. The standard ``randrange``, ``choice``
and ``sample`` spend most of their time on argument checks and rejection sampling that
exact uniformity needs; a demo does not. Here they are one ``random()`` call each, which
makes the large tenant several times faster. Still fully determined by the seed.
"""

from __future__ import annotations

import random
from typing import Any, Sequence, TypeVar

T = TypeVar("T")


class DemoRandom(random.Random):
    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if stop is None:
            start, stop = 0, start
        if step != 1:
            return super().randrange(start, stop, step)
        return start + int(self.random() * (stop - start))

    def choice(self, seq: Sequence[T]) -> T:  # type: ignore[override]
        return seq[int(self.random() * len(seq))]

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:  # type: ignore[override]
        """Small populations (word lists) by a partial shuffle; large ones (unique id
        ranges) by the standard algorithm, which needs no copy of the population."""
        n = len(population)
        if counts is not None or n > 64 or not 0 <= k <= n:
            return super().sample(population, k, counts=counts)
        pool = list(population)
        rnd = self.random
        for i in range(k):
            j = i + int(rnd() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
