"""Walking every page of a list operation, within each list's page and pageSize limits.

The limits are read from the spec's query models (``Le`` on ``page`` / ``pageSize``), so
they are not restated here: pageSize 100 for most lists, 20 for H1/H4, 500 for X1.

X1 (external contacts) only serves pages 0..19, so at most 20 x 500 = 10,000 records per
query. :func:`contact_pages` lists any number by splitting the query into update-time
windows: ordered by updatedAt, each window starts at the last updatedAt seen
(``updatedFrom`` is inclusive), and the records of that boundary time already yielded are
skipped by contactId. Result: every record once, no gaps, provided records do not change
while the listing runs.
"""

from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable, Mapping

from annotated_types import Le

from corpdir.client.errors import ListingIncomplete
from corpdir.spec import OPERATIONS, Page

FetchPage = Callable[[str, dict[str, Any]], Awaitable[Page[Any]]]


def page_limits(code: str) -> tuple[int | None, int]:
    """(highest page number or None, largest pageSize) of a list operation."""
    query = OPERATIONS[code].query
    if query is None or not OPERATIONS[code].is_list:
        raise ValueError(f"{code} ({OPERATIONS[code].name}) is not a list operation: it has no pages")

    def upper(name: str) -> int | None:
        for m in query.model_fields[name].metadata:
            if isinstance(m, Le):
                return int(m.le)
        return None

    max_page = upper("page")
    return (max_page if max_page is not None and max_page < 2**31 - 1 else None), upper("pageSize") or 100


async def pages(fetch: FetchPage, code: str, query: Mapping[str, Any]) -> AsyncIterator[Page[Any]]:
    """Every page of ``code`` from ``query['page']`` (default 0) while hasMore.

    Without a pageSize the largest allowed is used (fewest requests)."""
    if code == "X1":
        async for page in contact_pages(fetch, query):
            yield page
        return
    max_page, max_size = page_limits(code)
    params = dict(query)
    params.setdefault("pageSize", max_size)
    async for page in _numbered(fetch, code, params, max_page):
        yield page


async def _numbered(fetch: FetchPage, code: str, params: dict[str, Any], max_page: int | None) -> AsyncIterator[Page[Any]]:
    """Pages by number; a list whose numbers end (X1) before hasMore does raises
    ListingIncomplete rather than silently stopping short."""
    number = int(params.get("page", 0))
    while True:
        params["page"] = number
        page = await fetch(code, dict(params))
        yield page
        if not page.hasMore or not page.items:
            return
        number += 1
        if max_page is not None and number > max_page:
            raise ListingIncomplete(
                f"more than {(max_page + 1) * int(params['pageSize'])} records match and only pages "
                f"0..{max_page} are served; narrow the search (or, for contacts, sort by update time) to see them all"
            )


async def contact_pages(fetch: FetchPage, query: Mapping[str, Any]) -> AsyncIterator[Page[Any]]:
    """All X1 pages of ``query``, past the 10,000-record window (see module docstring)."""
    max_page, max_size = page_limits("X1")
    assert max_page is not None
    params = dict(query)
    params.setdefault("pageSize", max_size)
    if params.get("orderBy", "updatedAt") != "updatedAt":
        # No window key: plain pages, failing loudly rather than silently stopping short.
        async for page in _numbered(fetch, "X1", params, max_page):
            yield page
        return
    descending = str(params.get("orderDirection", "asc")) == "desc"
    bound = "updatedTo" if descending else "updatedFrom"
    params["orderBy"] = "updatedAt"
    if "select" in params:
        params["select"] = list(dict.fromkeys([*params["select"], "contactId", "updatedAt"]))
    number = int(params.get("page", 0))
    boundary: Any = None  # updatedAt where the current window starts
    seen_at_boundary: set[int] = set()
    while True:
        last_time: Any = None
        ids_at_last: set[int] = set()
        for number in range(number, max_page + 1):
            params["page"] = number
            page = await fetch("X1", dict(params))
            fresh = []
            for item in page.items:
                if item.updatedAt == boundary and item.contactId in seen_at_boundary:
                    continue  # already yielded by the previous window
                fresh.append(item)
                if item.updatedAt != last_time:
                    last_time, ids_at_last = item.updatedAt, set()
                ids_at_last.add(item.contactId)
            yield Page[Any](hasMore=page.hasMore, items=fresh)
            if not page.hasMore or not page.items:
                return
        # The window is used up (page max_page) and there is more: start the next one
        # at the last update time seen.
        if last_time is None or last_time == boundary:
            raise ListingIncomplete(
                "more than 10,000 contacts share one update time; the listing cannot be completed"
            )
        seen_at_boundary = ids_at_last
        boundary = last_time
        params[bound] = last_time.isoformat()
        number = 0
