"""Caller-ID replies precomputed once per state of the cache: a request is parsed, looked
up in a dict and written.

A PBX asks the same question again and again (who is 0312345678?) while the cache only
changes when a sync commits. So for every number the cache holds, the ``/cid`` and
``/cid.kv`` replies are rendered once, off the event loop, by the same code that answers a
request (:meth:`corpdir.gateway.callerid.CallerId.reply`, hence the renderers of
:mod:`corpdir.gateway.answers`), and kept as bytes under one key for the spellings a PBX
sends (national '0312345678', E.164 with and without '+': :meth:`Precomputed.key`). The
cache's ``data_version`` is checked every ``CHECK_SECONDS`` on the loop; when it moved, the
marks of the new state (:mod:`corpdir.cache.number_changes`: per record, a hash and its
numbers) say which numbers' answers the commit changed: those leave the map at once and
are rendered again from the new state while the map answers every other number; a commit
that changed nothing (a periodic sync) leaves it be. The first map, and one after a change
too large to pay number by number, is built whole off the loop; until it is in, requests
take the ordinary path. A request the map cannot answer exactly as the ordinary path would also
takes that path: JSON (it echoes the query and links by the Host header), ASCII answers,
``/cid/NUMBER``, other spellings, numbers the cache lacks (the N1 fallback), credentials
by basic auth or an address allow-list, anything but a lone small GET with plain headers.

What the ordinary path costs is in docs/performance.md ("Gateway"): most of it is Python's
per-request work (the HTTP parser's callbacks, the request object, the query parse, the
number's forms and the SQL probe), which this removes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Callable

from corpdir.gateway.callerid import CallerId, query
from corpdir.gateway.http_messages import Reply, after_date, date, status_line
from corpdir.gateway.lookup import CallerLookup
from corpdir.phone import cached_region_rules
from corpdir.service.identify import MAX_HOLDERS

if TYPE_CHECKING:
    from corpdir.gateway.app import GatewayApp
    from corpdir.service.phonebook import CacheState, Marks

log = logging.getLogger("corpdir.gateway")
CHECK_SECONDS = 0.1  # how often the loop asks whether the cache changed (a PRAGMA: ~7 us)
# Of the map's numbers a change touches, the share above which the map is built whole
# rather than number by number: a number rendered again cost 108 us of CPU against 93 us
# in a full build at 10k people + 10k contacts, 137 us against 100 us at 100k + 100k, plus
# one pass over the records' marks (bench/precomputed_bench.py, docs/performance.md), so
# the two cost alike near 86 % and 73 %; below, number by number costs less and keeps
# answering the numbers it did not touch meanwhile.
INCREMENTAL_SHARE = 0.7
MAX_REQUEST = 2048  # bytes; a larger request is the parser's (its limits answer 413/431)
FORMATS = {b"/cid": 0, b"/cid.kv": 1}  # the index of a format's reply in a map entry
NAMES = ("text", "kv")
# a body, a connection to close or upgrade, an expectation: the parser's (b"close" anywhere: a
# Connection header's token, or a User-Agent's word, which costs only the ordinary path)
_REFUSED = (b"\ncontent-length", b"\ntransfer-encoding", b"close", b"upgrade", b"\nexpect")

HEAD = status_line(200) + b"date: "
# per format, two items: the headers after the Date value (one object for every entry with
# the same), then content-length and the body; one flat tuple: 388k of them at 100k people
Entry = tuple[bytes, ...]


class _Reader:
    """What :class:`CallerLookup` needs of a phonebook: ``read`` on the rebuild's own connection."""

    def __init__(self, region: str) -> None:
        self.region = region
        self.read: Callable[[list[str], int], Any] = lambda forms, limit: None


class _OnceLookup(CallerLookup):
    """The last number's answer kept: a number's two formats rendered from one probe."""

    last: tuple[str, Any] = ("", None)

    def now(self, number: str, started: float, limit: int = MAX_HOLDERS) -> Any:
        if self.last[0] != number:
            self.last = (number, super().now(number, started, limit))
        return self.last[1]


class Precomputed:
    """The map (number as sent -> replies) for one gateway, and the request path that uses it."""

    def __init__(self, app: GatewayApp) -> None:
        gw, access = app.gateway, app.app
        self.phonebook = gw.phonebook
        self.strip_prefixes = gw.lookup.strip_prefixes
        # a token as the path's first segments is checked by the prefix itself; basic auth
        # and allow-lists are the ordinary path's (Access.admit)
        self.enabled = not access.networks and (access.token is not None or access.open)
        self.prefix = f"/t/{access.token}".encode() if access.token is not None else b""
        rules = cached_region_rules(self.phonebook.region)
        self.trunk, self.country_code = (rules.trunk or "", rules.country_code) if rules is not None else ("", "")
        self.replies: dict[str, Entry] = {}  # what requests read: the map, or {} while it may hold stale entries
        self._map: dict[str, Entry] = {}  # the map of the state ``marks`` is of
        self._rendering = False
        self._blocks: dict[bytes, bytes] = {}  # header blocks the map's entries share
        self.version = -1
        self.marks: Marks | None = None  # the state of the cache the map was rendered from
        self.answered: Callable[[str], None] | None = None  # the hook a caller-ID counter sets: called with the format
        self._timer: asyncio.TimerHandle | None = None
        self._follow: asyncio.Task[None] | None = None

    # -- the request path ----------------------------------------------------------------------
    def reply(self, data: bytes) -> bytes | None:
        """The whole reply to ``data`` when it is one request the map answers, else None
        (the parser takes it: the answer is then the ordinary path's)."""
        replies = self.replies
        if not replies or len(data) > MAX_REQUEST or not data.startswith(b"GET ") or not data.endswith(b"\r\n\r\n"):
            return None
        line_end = data.find(b"\r\n")
        if data[line_end - 9:line_end] != b" HTTP/1.1" or data.find(b"\r\n\r\n") != len(data) - 4:
            return None  # HTTP/1.0 (closes after the answer), or more than one request (pipelined)
        rest = data[line_end:-4].lower()
        if any(r in rest for r in _REFUSED) or not _plain_headers(rest):
            return None
        target = data[4:line_end - 9]
        if not target.startswith(self.prefix):
            return None
        path, _, raw = target[len(self.prefix):].partition(b"?")
        fmt = FORMATS.get(path)
        if fmt is None or not raw.startswith(b"number=") or b"&" in raw:
            return None
        number = raw[7:]
        # '%2B81...', '+' (a space in a query): read exactly as the ordinary path reads it
        entry = replies.get(self.key(number.decode("ascii") if number.isdigit() else query(raw)[0]))
        if entry is None:
            return None
        if self.answered is not None:
            self.answered(NAMES[fmt])
        return b"".join((HEAD, date(), entry[2 * fmt], entry[2 * fmt + 1]))

    def key(self, number: str) -> str:
        """The map's key for a number as a PBX sent it: E.164 digits for '+81312345678',
        '81312345678' and national '0312345678' alike (the phone index answers these
        spellings with the same holders); any other number as it came."""
        if number[:1] == "+":
            return number[1:]
        if self.trunk and number.startswith(self.trunk):
            return self.country_code + number[len(self.trunk):]
        return number

    def _keyed(self, replies: dict[str, Entry]) -> dict[str, Entry]:
        """The rebuild's entries (phone index key -> replies) under :meth:`key`'s keys. Where
        two index keys meet on one (an extension written like a national number, say), the
        key is left out: its spellings take the ordinary path, which tells them apart."""
        keyed: dict[str, Entry] = {}
        seen, ambiguous = set(), set()
        for index_key, entry in replies.items():
            key = self.key(index_key)
            if key in seen or (not index_key.startswith("+") and key != index_key):
                ambiguous.add(key)
            seen.add(key)
            if entry:
                keyed[key] = entry
        for key in ambiguous:
            keyed.pop(key, None)
        return keyed

    # -- keeping the map to the cache's state -------------------------------------------------------
    def start(self) -> None:
        if self.enabled:
            self._check()

    def stop(self) -> None:
        self.enabled = False  # a rebuild under way ends at its next number (_entry)
        if self._timer is not None:
            self._timer.cancel()
        if self._follow is not None:
            self._follow.cancel()
        self.replies = self._map = {}

    def _check(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            version = self.phonebook.version()
        except Exception:  # noqa: BLE001 - the cache closed under us (shutting down): the ordinary path answers
            version = self.version
        if version != self.version:
            self.version = version
            if self._rendering:  # what this commit changed is not known before the render ends: none of it stale
                self.replies = {}
            if self._follow is None or self._follow.done():
                self._follow = loop.create_task(self._follow_cache())
        self._timer = loop.call_later(CHECK_SECONDS, self._check)

    async def _follow_cache(self) -> None:
        """The cache committed: bring the map to its state (again if it committed meanwhile)."""
        while True:
            version = self.version
            try:
                async with self.phonebook.state() as state:
                    await self._update(state, version)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - without the map every request takes the ordinary path
                log.warning("caller-ID replies not precomputed (%s); answering each request", exc.__class__.__name__)
                self.replies = self._map = {}
                self.marks = None
                return
            finally:
                self._rendering = False
            if version == self.version:
                return

    async def _update(self, state: CacheState, version: int) -> None:
        """Most commits are a sync that changed nothing (it marks when it ran): the marks
        say so and the map stays. When a few records changed, the numbers they touch
        (:func:`corpdir.cache.number_changes.read_changes`) leave the map at once and come
        back rendered from the new state, while the map answers every other number. Else
        (the first build, the settings, a division added or removed, more than
        :data:`INCREMENTAL_SHARE` of the map) the map is dropped and built whole. A commit
        seen while rendering stops the map answering until the next pass has dropped what
        that commit changed (:meth:`_check`); one seen while the marks are read is dropped
        by the next pass, the map answering meanwhile (a sync commits every page: it would
        be stopped for most of a sync)."""
        began = time.monotonic()
        marks, changed = await state.marks(self.marks if self._map else None)
        keys = None if changed is None else {self.key(key) for key in changed}
        if keys is None or len(keys) > INCREMENTAL_SHARE * len(self._map):
            self.replies = self._map = {}  # the ordinary path answers until the new map is in
            self.marks, self._blocks = None, {}
            self._map, self.marks = self._keyed(await state.answers(self._renderer())), marks
            log.info("caller-ID replies precomputed for %d numbers in %.1f s", len(self._map), time.monotonic() - began)
        else:
            self.marks = marks
            for key in keys:
                self._map.pop(key, None)
            self.replies, self._rendering = self._map, bool(keys)
            if keys:
                rendered = self._keyed(await state.answers(self._renderer(), self._index_keys(keys)))
                self._map.update((key, entry) for key, entry in rendered.items() if key in keys)
                log.info("caller-ID replies of %d numbers rendered again in %.2f s", len(keys), time.monotonic() - began)
        self._rendering = False
        if version == self.version:
            self.replies = self._map

    def _index_keys(self, keys: set[str]) -> list[str]:
        """The phone index keys that :meth:`key` may turn into one of ``keys`` (the index
        holds some of them): each map key's entry is made of all of them (:meth:`_keyed`)."""
        found = []
        for key in keys:
            found += ("+" + key, key)
            if self.trunk and key.startswith(self.country_code):
                found.append(self.trunk + key[len(self.country_code):])
        return found

    def _renderer(self) -> Callable[[Callable[[list[str], int], Any], str], Entry]:
        """``answer(read, key)`` for :meth:`CacheState.answers`: one number's entry (:meth:`_entry`)."""
        reader = _Reader(self.phonebook.region)
        callerid = CallerId(_OnceLookup(reader, None, deadline=0, strip_prefixes=self.strip_prefixes))  # type: ignore[arg-type]

        def answer(read: Callable[[list[str], int], Any], key: str) -> Entry:
            reader.read = read
            return self._entry(callerid, key, self._blocks)

        return answer

    def _entry(self, callerid: CallerId, key: str, blocks: dict[bytes, bytes]) -> Entry:
        """The replies for one number, rendered as a request for it is (on the rebuild's
        thread); () when the cache does not answer it (the ordinary path does)."""
        if not self.enabled:
            raise asyncio.CancelledError  # the gateway is stopping: the rest of the rebuild is not wanted
        entry: list[bytes] = []
        for fmt in NAMES:
            reply = callerid.reply(fmt, key, False, _no_link)
            if not isinstance(reply, Reply) or reply.status != 200:
                return ()
            headers = [(n, b"lookup;dur=0.000" if n == b"server-timing" else v) for n, v in reply.headers]
            after = after_date(headers, len(reply.body), True)
            cut = after.rindex(b"content-length: ")  # the headers before it are the same for most answers: kept once
            block = b"\r\n" + after[:cut]
            entry += (blocks.setdefault(block, block), after[cut:] + reply.body)
        return tuple(entry)


def _no_link(answer: Any) -> str:
    return ""  # text and key=value answers carry no link


def _plain_headers(rest: bytes) -> bool:
    """Every header line is ``name: value`` with a plain name (else the parser judges it)."""
    for line in rest.split(b"\r\n")[1:]:
        name, colon, _ = line.partition(b":")
        if not colon or not name.replace(b"-", b"").isalnum():
            return False
    return True
