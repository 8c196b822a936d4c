"""The desk phones' routes: whole directories, pages, and searches.

Apart from :mod:`corpdir.gateway.app` (caller-ID, 3CX, records, life) because each phone
maker's paging, search and limits are their own. Every listing names people as
:class:`corpdir.gateway.names.Distinct` tells them apart, over the whole directory (a
search result or a page alone cannot know who else shares a name). Searches go past one
screen: Cisco and Snom page their results with Next/Prev as they page the directory;
Yealink, which shows what it gets, gets up to :data:`SEARCH_LIMIT`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from corpdir.gateway import charsets
from corpdir.gateway.names import Distinct
from corpdir.gateway.pages import Costs, Page, layout, page_at
from corpdir.gateway.phones import cisco, grandstream, snom, yealink
from corpdir.phone import digits, for_display, number_forms
from corpdir.service.phonebook import Entry

if TYPE_CHECKING:
    from corpdir.gateway.app import Gateway

TITLE = "Directory"
SEARCH_LIMIT = 2000


def ascii_wanted(request: Request) -> bool:
    return request.query_params.get("ascii", "") in ("1", "true", "yes")


def _charset(request: Request) -> tuple[str, bool]:
    """(the charset to answer in, whether names must be ASCII) from ``Accept-Charset`` and ``ascii=``."""
    charset = charsets.negotiate(request.headers.get("accept-charset", ""))
    return charset, ascii_wanted(request) or charset == charsets.ASCII


def _xml(body: str, charset: str) -> Response:
    return Response(charsets.encode(body.encode(), charset), media_type=charsets.media_type(charset))


async def _encoded(chunks: AsyncIterator[bytes], charset: str) -> AsyncIterator[bytes]:
    async for chunk in chunks:
        yield charsets.encode(chunk, charset)


def _int(request: Request, name: str, default: int) -> int:
    try:
        return int(request.query_params.get(name, default))
    except ValueError:
        return default


def phone_routes(gw: Gateway) -> list[Route]:
    def shared_line(q: str) -> Entry | None:
        """A company's, a division's or a division's own number as the one entry caller-ID
        names (the company and division, the division's path), not the hundreds of
        contacts who share it: a phone looking up an incoming call shows the line."""
        identity = gw.lookup.now(q, 0.0, 1)[1]
        if identity.kind not in ("company", "division"):
            return None
        return Entry("line", None, identity.who, numbers=((identity.field, identity.stored or identity.number),))

    async def search(q: str) -> list[Entry]:
        """What the cache's search finds for ``q``; for a number in a form it does not know
        (a phone looking up the caller it received: '+81...', '81...', 'sip:...'), the
        same number in the national form the directory writes."""
        numeric = bool(digits(q)) and not any(c.isalpha() for c in q.partition("@")[0].removeprefix("sip:").removeprefix("tel:"))
        if numeric and (line := shared_line(q)) is not None:
            return [line]
        found = await gw.phonebook.search(q, limit=SEARCH_LIMIT)
        if found or not numeric:
            return found
        for form in number_forms(q, gw.phonebook.region, gw.settings.strip_prefixes):
            national = for_display(form, gw.phonebook.region)
            if national != q and (found := await gw.phonebook.search(national, limit=SEARCH_LIMIT)):
                return found
        return []

    async def streamed(head: str, rows: Callable[[list[Entry], Distinct], Any], tail: str,
                       q: str = "") -> AsyncIterator[bytes]:
        """A whole directory (or a search's result), written a batch at a time on a thread:
        a caller-ID lookup is not kept waiting behind 200k entries."""
        if q:
            entries = await search(q)
            names = await gw.listing.told_apart(entries)
        else:
            entries, names = await gw.listing.current()
        yield head.encode()
        for i in range(0, len(entries), 2000):
            batch = entries[i:i + 2000]
            yield await asyncio.to_thread(lambda: "".join(rows(batch, names)).encode())
        yield tail.encode()

    async def yealink_directory(request: Request) -> Response:
        gw.metrics.download("yealink")
        (charset, ascii), q = _charset(request), request.query_params.get("q", "").strip()
        q = "" if q == "#SEARCH" else q

        def render() -> AsyncIterator[bytes]:
            return _encoded(streamed(yealink.directory_head(TITLE), lambda b, n: yealink.directory_rows(b, ascii, n),
                                     yealink.DIRECTORY_TAIL, q), charset)

        if q:
            return StreamingResponse(render(), media_type=charsets.media_type(charset))
        return await gw.document(("yealink-directory", ascii, charset), render, charsets.media_type(charset))

    async def yealink_phonebook(request: Request) -> Response:
        gw.metrics.download("yealink")
        charset, ascii = _charset(request)

        async def render() -> AsyncIterator[bytes]:
            entries, names = await gw.listing.current()
            body = await asyncio.to_thread(lambda: "".join(yealink.phonebook(entries, TITLE, ascii, names)).encode())
            yield charsets.encode(body, charset)

        return await gw.document(("yealink-phonebook", ascii, charset), render, charsets.media_type(charset))

    async def grandstream_phonebook(request: Request) -> Response:
        gw.metrics.download("grandstream")
        charset, ascii = _charset(request)
        return await gw.document(("grandstream", ascii, charset), lambda: _encoded(streamed(
            grandstream.HEAD, lambda batch, _: grandstream.contacts(batch, ascii), grandstream.TAIL), charset),
            charsets.media_type(charset))

    def pager(request: Request, path: str, search_path: str, **keep: str) -> Callable[[int | None], str]:
        """URLs of this listing's other pages (None: the search), keeping its query and options."""
        base = gw.base(request)
        extra = {k: v for k, v in {"ascii": "1" if ascii_wanted(request) else "", **keep}.items() if v}

        def url_for(start: int | None) -> str:
            if start is None:
                options = {k: v for k, v in extra.items() if k != "q"}
                return f"{base}{search_path}" + (f"?{urlencode(options)}" if options else "")
            return f"{base}{path}?{urlencode({**extra, 'start': start})}"

        return url_for

    async def paged(request: Request, key: tuple[Any, ...], cost: Costs, rows: int,
                    budget: int | None = None) -> tuple[Page, Distinct]:
        """The page at ``?start=`` of the directory, or of the search ``?q=``, laid out once."""
        q, start = request.query_params.get("q", "").strip(), max(0, _int(request, "start", 0))
        if not q:
            return await gw.listing.page(key, start, cost, rows, budget)
        found = await search(q)
        names = await gw.listing.told_apart(found)
        return page_at(found, await asyncio.to_thread(layout, found, cost(names), rows, budget), start), names

    async def cisco_directory(request: Request) -> Response:
        gw.metrics.download("cisco")
        charset, ascii = _charset(request)
        wanted = _int(request, "bytes", gw.settings.cisco_page_bytes)
        page_bytes = min(max(wanted, cisco.MIN_PAGE_BYTES), cisco.MAX_PAGE_BYTES)
        keep = {"q": request.query_params.get("q", "").strip(),
                "bytes": str(page_bytes) if page_bytes != gw.settings.cisco_page_bytes else ""}
        url_for = pager(request, "/cisco/directory.xml", "/cisco/search.xml", **keep)
        total = await gw.listing.total()
        budget = page_bytes - cisco.overhead(TITLE, url_for, total)
        current, names = await paged(request, ("cisco", ascii, budget), lambda n: cisco.cost(ascii, n),
                                     cisco.MAX_ENTRIES, budget)
        return _xml(cisco.directory(current, TITLE, ascii, url_for, names), charset)

    async def cisco_search(request: Request) -> Response:
        options = {k: v for k, v in (("ascii", "1" if ascii_wanted(request) else ""),
                                     ("bytes", request.query_params.get("bytes", ""))) if v}
        action = f"{gw.base(request)}/cisco/directory.xml" + (f"?{urlencode(options)}" if options else "")
        return _xml(cisco.search_input(TITLE, action), _charset(request)[0])

    async def snom_directory(request: Request) -> Response:
        gw.metrics.download("snom")
        charset, ascii = _charset(request)
        url_for = pager(request, "/snom/directory.xml", "/snom/directory.xml", q=request.query_params.get("q", "").strip())
        current, names = await paged(request, ("snom",), lambda _: snom.cost, snom.PAGE_ROWS)
        return _xml(snom.directory(current, TITLE, ascii, url_for, names), charset)

    return [
        Route("/yealink/directory.xml", yealink_directory), Route("/yealink/phonebook.xml", yealink_phonebook),
        Route("/cisco/directory.xml", cisco_directory), Route("/cisco/search.xml", cisco_search),
        Route("/snom/directory.xml", snom_directory), Route("/grandstream/phonebook.xml", grandstream_phonebook),
    ]
