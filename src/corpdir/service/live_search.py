"""The search policy of the list screens, written once: answer from the cache at once,
wait for a pause in typing, ask the service, and merge the two answers.

:func:`live_search` is an async generator of :class:`SearchAnswer`: the cache's ranked
hits first (when there is text and no filter: the service decides who passes a filter),
then the merged answer with the service's first page. The screen runs it in an exclusive
worker, so the next keystroke cancels it during the pause and a fast typist costs the
service one request, not one per key. The service's further pages come when asked
(:attr:`SearchAnswer.more`, as the user scrolls): a filter shows every match, never a
silent first hundred. Nothing here imports Textual.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import Any, AsyncIterator, Awaitable, Callable, Generic, Sequence, TypeVar

from corpdir.client.errors import CorpdirError

T = TypeVar("T")
TYPING_PAUSE = 0.3  # seconds without a keystroke before the service is asked


@dataclass(frozen=True)
class SearchAnswer(Generic[T]):
    """One answer of a search: record ids in rank order and the records already at hand
    (the rest are read from the cache as they are painted)."""

    ids: list[int]
    known: Sequence[T] = ()
    final: bool = False  # the service's answer (or the last one there will be)
    error: CorpdirError | None = None  # the service failed: the ids are the cache's (none when only filtered)
    unfiltered: bool = False  # the service cannot filter: the ids are the cache's search, filters not applied
    more: Callable[[], Awaitable[SearchAnswer[T]]] | None = None  # the service has more: this answer with its next page


def merge_ranked(local: Sequence[int], remote: Sequence[T], key: Callable[[T], int], *, filtered: bool) -> list[int]:
    """The ids of the cache's ranked hits (kana and width folding the service may lack),
    then of what only the service found. With filters, the service's answer decides who
    qualifies."""
    fresh = {key(r) for r in remote}
    ranked = [i for i in local if i in fresh] if filtered else list(local)
    seen = set(ranked)
    return ranked + [key(r) for r in remote if key(r) not in seen]


def _paged(answer: SearchAnswer[T], pages: AsyncIterator[Any], key: Callable[[T], int], has_more: bool) -> SearchAnswer[T]:
    """``answer``, able to take the service's next page when there is one."""
    if not has_more:
        return answer

    async def more() -> SearchAnswer[T]:
        try:
            page = await anext(pages, None)
        except CorpdirError as exc:
            return replace(answer, more=None, error=exc)
        if page is None:
            return replace(answer, more=None)
        seen = set(answer.ids)
        ids = answer.ids + [key(r) for r in page.items if key(r) not in seen]
        return _paged(SearchAnswer(ids, [*answer.known, *page.items], final=True), pages, key, page.hasMore)

    return replace(answer, more=more)


async def live_search(text: str, *, filtered: bool, key: Callable[[T], int],
                      local: Callable[[str], Awaitable[tuple[list[int], Sequence[T]]]],
                      remote: Callable[[list[str]], AsyncIterator[Any]] | None,
                      max_words: int | None) -> AsyncIterator[SearchAnswer[T]]:
    """The answers to ``text`` (with filters given to ``remote`` or none): ``local(text)``
    gives the cache's ranked ids and the first records, ``remote(words)`` the service's
    pages ({hasMore, items}; None: the service offers no search of this kind)."""
    text = text.strip()
    ids: list[int] = []
    first: Sequence[T] = ()
    if text:
        ids, first = await local(text)
        if not filtered or remote is None:
            yield SearchAnswer(ids, first, final=remote is None, unfiltered=filtered)
    if remote is None:
        if filtered and not text:
            yield SearchAnswer([], final=True, unfiltered=True)
        return
    if text:
        await asyncio.sleep(TYPING_PAUSE)
    pages = remote(text.split()[:max_words])
    try:
        page = await anext(pages, None)
    except CorpdirError as exc:
        yield SearchAnswer(ids if text and not filtered else [], first, final=True, error=exc)
        return
    found = page.items if page is not None else []
    answer = SearchAnswer(merge_ranked(ids, found, key, filtered=filtered), [*first, *found], final=True)
    yield _paged(answer, pages, key, page is not None and page.hasMore)
