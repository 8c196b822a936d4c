"""Where a :class:`~corpdir.tui.widgets.virtual_list.VirtualList` takes its rows from: a
source counts them and fetches a window of them.

Apart from the list widget because the screens build sources (the cache's windows, the
rows of a search in rank order, rows already in memory) without drawing anything, and a
source holds no Textual state: the list only asks it for the rows it paints.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Generic, Iterable, Protocol, Sequence, TypeVar

T = TypeVar("T")


class RowSource(Protocol[T]):
    async def count(self) -> int: ...

    async def fetch(self, offset: int, limit: int) -> Sequence[T]: ...


class ListSource(Generic[T]):
    """Rows already in memory (search results, call lists)."""

    def __init__(self, rows: Sequence[T]) -> None:
        self.rows = list(rows)

    async def count(self) -> int:
        return len(self.rows)

    async def fetch(self, offset: int, limit: int) -> Sequence[T]:
        return self.rows[offset:offset + limit]


class RankedRows(Generic[T]):
    """The rows of a search: ids in rank order, known at once, and records read a page at
    a time when painted (a keystroke reads the ~40 rows on screen, not all 200 hits).
    Records given as ``known`` (the service's fresher answer) are used as they are.

    ``more`` (when the service has further pages) gives the same answer with its next page
    (an object with ``ids``, ``known`` and ``more``): the list calls :meth:`grow` when its
    last row is painted, so every match is shown as the user scrolls."""

    def __init__(self, ids: Sequence[int], load: Callable[[Sequence[int]], Awaitable[Sequence[T]]],
                 key: Callable[[T], int], known: Iterable[T] = (),
                 more: Callable[[], Awaitable[Any]] | None = None) -> None:
        self.ids = list(ids)
        self._load, self._key = load, key
        self._known = {key(r): r for r in known}
        self.more = more
        self.error: Exception | None = None

    async def count(self) -> int:
        return len(self.ids)

    def discard(self, rid: int) -> None:
        """Leave out a record that no longer exists (the user deleted it)."""
        self.ids = [i for i in self.ids if i != rid]
        self._known.pop(rid, None)

    async def grow(self) -> None:
        """Take the next page of the answer: more ids, their records, and what follows."""
        if self.more is None:
            return
        answer = await self.more()
        self.ids = list(answer.ids)
        self._known.update((self._key(r), r) for r in answer.known)
        self.more, self.error = answer.more, answer.error

    def at_hand(self, offset: int, limit: int) -> Sequence[T] | None:
        """The rows from ``offset`` if every record is already known, else None."""
        ids = self.ids[offset:offset + limit]
        return [self._known[i] for i in ids] if all(i in self._known for i in ids) else None

    async def fetch(self, offset: int, limit: int) -> Sequence[T]:
        ids = self.ids[offset:offset + limit]
        missing = [i for i in ids if i not in self._known]
        if missing:
            self._known.update((self._key(r), r) for r in await self._load(missing))
        return [self._known[i] for i in ids if i in self._known]
