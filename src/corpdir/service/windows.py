"""A list of any length read from the cache a window at a time: what a screen's list
shows while browsing a division or a folder (the row source of its virtual list)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable, Generic, Sequence, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class CacheWindow(Generic[T]):
    """``count()`` the rows; ``fetch(offset, limit)`` a window of them, in list order;
    ``first(limit)`` the count and the first rows at once, without awaiting (a list's first
    paint, before any frame of an empty list)."""

    count: Callable[[], Awaitable[int]]
    fetch: Callable[[int, int], Awaitable[Sequence[T]]]
    row_offset: Callable[[str], Awaitable[int]] | None = None  # where a kana row or letter starts (by name only)
    first: Callable[[int], tuple[int, Sequence[T]]] | None = None
