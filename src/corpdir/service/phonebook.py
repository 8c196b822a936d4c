"""The phonebook the gateway serves: who has a number, and everyone with a number.

Read from the profile's cache file on connections of its own (:mod:`corpdir.cache.phonebook`):
point lookups (a caller-ID answer: one indexed probe, tens of microseconds) run on the
event loop, where a hop to a thread would cost more than the query; listings (a desk
phone's whole directory) run on a worker thread. What is derived from the cache (the
reading order, division paths) is rebuilt when another connection has committed, e.g.
the gateway's own background sync.

Caller-ID is not answered here but by :mod:`corpdir.service.identify` (the same answer as
every other surface); the phonebook lends it its point connection (:meth:`Phonebook.read`).
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Generic, Iterable, Iterator, TypeVar

from corpdir.cache import bulk_unpack, number_changes, numbers
from corpdir.cache import phonebook as reads
from corpdir.cache.blobs import Codec
from corpdir.cache.folding import fold
from corpdir.cache.number_changes import Marks
from corpdir.client.ratelimit import reserved
from corpdir.division_path import division_path
from corpdir.phone import match_key
from corpdir.service.identify import Identity, read_number
from corpdir.spec.phone_fields import CONTACT_PHONE_FIELDS, USER_PHONE_FIELDS

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

# How a phone field is labelled on a desk phone (and in JSON answers). Fax numbers are
# not dialled for a conversation: directories leave them out, LDAP keeps them.
PHONE_LABELS = {
    "extensionNum": "Ext", "phoneNum": "Office", "companyMobileNum": "Company mobile", "mobileNum": "Mobile",
    "personalMobileNum": "Personal mobile", "faxNum": "Fax", "companyDelegatedPhoneNum": "Company",
    "divisionDelegatedPhoneNum": "Division", "divisionPhoneNum": "Division",
}
T = TypeVar("T")
MOBILE_FIELDS = frozenset({"companyMobileNum", "mobileNum", "personalMobileNum"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One person or external contact as a phonebook shows it (text exactly as stored)."""

    kind: str  # "user" or "contact"
    id: int | None
    name: str
    kana: str = ""
    alphabet: str = ""
    company: str = ""
    company_kana: str = ""
    division: tuple[str, ...] = ()  # the division path, top first
    division_alphabet: tuple[str, ...] = ()  # the same path in the directory's alphabet names ("" where none)
    numbers: tuple[tuple[str, str], ...] = ()  # (phone field, number as stored)
    emails: tuple[str, ...] = ()
    url: str = ""
    position: str = ""
    employee_num: str = ""

    @property
    def ref(self) -> str:
        return f"{self.kind}:{self.id}" if self.id is not None else ""

    @property
    def division_path(self) -> str:
        return division_path(self.division)

    def dialable_numbers(self) -> list[tuple[str, str]]:
        """(label, number) of the numbers a phone can call (no fax)."""
        return [(PHONE_LABELS[f], n) for f, n in self.numbers if f != "faxNum"]


class _Divisions:
    """Division id -> path, from the cached divisions (both names and alphabet names)."""

    def __init__(self, rows: Iterable[dict[str, Any]]) -> None:
        self._rows = {d["divisionId"]: d for d in rows}
        self._paths: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}

    @classmethod
    def read(cls, conn: sqlite3.Connection) -> _Divisions:
        return cls(reads.divisions(conn))

    def pairs(self, ids: list[int]) -> dict[int, list[tuple[str, str]]]:
        """{id: path as (name, alphabet name) pairs} of the cached ``ids`` (caller-ID's shape)."""
        return {i: list(zip(*self.path(i))) for i in ids if i in self._rows}

    def path(self, division_id: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if division_id not in self._paths:
            names, alphabet, seen = [], [], set()
            current: int | None = division_id
            while current is not None and current in self._rows and current not in seen:
                seen.add(current)
                row = self._rows[current]
                names.append(row.get("divisionName") or "")
                alphabet.append(row.get("divisionNameAlphabet") or "")
                current = row.get("parentDivisionId") or None
            self._paths[division_id] = (tuple(reversed(names)), tuple(reversed(alphabet)))
        return self._paths[division_id]


def _entry(kind: str, data: dict[str, Any], divisions: _Divisions) -> Entry:
    fields = USER_PHONE_FIELDS if kind == "user" else CONTACT_PHONE_FIELDS
    numbers = tuple((f, data[f]) for f in fields if data.get(f))
    emails = tuple(e for e in (data.get("email1"), data.get("email2")) if e)
    if kind == "user":
        first = next(iter(data.get("divisions") or ()), None)
        path, alphabet = divisions.path(first["divisionId"]) if first else ((), ())
        if first and not path and first.get("divisionName"):
            path, alphabet = (first["divisionName"],), ("",)
        return Entry("user", data.get("userId"), data.get("fullname") or "", data.get("fullnameKana") or "",
                     data.get("fullnameAlphabet") or "", "", "", path, alphabet, numbers, emails,
                     data.get("contactDetailsUrl") or data.get("webUrl") or "", data.get("position") or "",
                     data.get("employeeNum") or "")
    division = (data["divisionName"],) if data.get("divisionName") else ()
    return Entry("contact", data.get("contactId"), data.get("fullname") or "", data.get("fullnameKana") or "",
                 data.get("fullnameAlphabet") or "", data.get("companyName") or "", data.get("companyNameKana") or "",
                 division, ("",) * len(division), numbers, emails, data.get("webUrl") or "",
                 data.get("position") or "", "")


class _UntilCommit(Generic[T]):
    """What ``build`` derives from the cache on ``conn``, kept until another connection
    commits (SQLite's data_version moves): built again only then."""

    __slots__ = ("_build", "_conn", "_value", "_version")

    def __init__(self, conn: sqlite3.Connection, build: Callable[[sqlite3.Connection], T]) -> None:
        self._conn, self._build = conn, build
        self._version = -1  # data_version is never negative: the first call builds
        self._value: T

    def __call__(self) -> T:
        version = reads.data_version(self._conn)
        if version != self._version:
            self._value, self._version = self._build(self._conn), version
        return self._value


class Phonebook:
    """The gateway's view of one profile's cache (see the module docstring)."""

    def __init__(self, service: DirectoryService, *, one_pass: bool = False) -> None:
        """``one_pass``: for reading every record once (an export), not serving listings
        again and again: the records are not memory-mapped (:func:`reads.open_reader`)."""
        self.service = service
        self.region = service.settings.region
        path = service.cache_path()
        self._point = reads.open_reader(path, self.region)
        self._point_codec = Codec(self._point)  # compression dictionaries never change once written
        self._bulk = reads.open_reader(path, self.region, mapped=not one_pass)
        self._bulk_codec = Codec(self._bulk)  # the worker thread's, as _bulk is
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="corpdir-phonebook")
        self._current = _UntilCommit(self._point, _Divisions.read)
        # the worker's, on its own connection: a listing's every page and search answers need them
        self._order_now = _UntilCommit(self._bulk, reads.reading_order)
        self._divisions_now = _UntilCommit(self._bulk, _Divisions.read)
        self._listed_now = _UntilCommit(self._bulk, lambda _: frozenset(self._order_now()))

    def close(self) -> None:
        self._worker.shutdown(wait=True)
        self._point.close()
        self._bulk.close()

    def version(self) -> int:
        """Changes whenever the cache changed (a sync committed): what was derived from it is stale."""
        return reads.data_version(self._point)

    # -- caller-ID -----------------------------------------------------------------------
    def read(self, forms: list[str], limit: int) -> Any:
        """The cache's holders of a number (:func:`corpdir.cache.numbers.read`), on the
        caller's thread: what :func:`corpdir.service.identify.read_number` answers from."""
        return numbers.read(self._point, forms, self.region, self._point_codec, limit, self._current().pairs)

    def state(self) -> CacheState:
        """One state of the cache, held for as long as the gateway renders from it
        (``async with phonebook.state() as state``)."""
        return CacheState(self)

    async def ask_service(self, forms: list[str]) -> Identity | None:
        """The service's answer for a number the cache does not know, asked in its
        spellings ``forms`` (N1, and U3 for a person:
        :meth:`corpdir.service.numbers.Identification.resolve`), paid from the rate
        budget's reserved share (:meth:`DirectoryService.reserve_rate_share`)."""
        with reserved():
            found = await self.service.identification.resolve(forms)
        return next((a for a in found if a is not None), None)

    def entry(self, kind: str, rid: int) -> Entry | None:
        """One user or shared contact by id (None: not cached, or a personal contact)."""
        data = reads.records(self._point, kind, [rid], self._point_codec).get(rid)
        if data is None or (kind == "contact" and (data.get("folderId") or {}).get("directory") != "SHARED"):
            return None
        return _entry(kind, data, self._current())

    # -- listings (on the worker thread) ---------------------------------------------------
    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn, *args)

    def _window(self, offset: int, limit: int | None) -> tuple[int, list[Entry]]:
        order = self._order_now()
        wanted = order[offset:] if limit is None else order[offset:offset + limit]
        divisions = self._divisions_now()
        by_kind = {kind: reads.records(self._bulk, kind, [i for k, i in wanted if k == kind], self._bulk_codec) for kind in ("user", "contact")}
        entries = [_entry(k, by_kind[k][i], divisions) for k, i in wanted if i in by_kind[k]]
        return len(order), entries

    async def window(self, offset: int = 0, limit: int | None = None) -> tuple[int, list[Entry]]:
        """(how many entries in all, the entries from ``offset``), in reading order."""
        return await self._run(self._window, offset, limit)

    async def namesakes(self, names: Iterable[str]) -> list[Entry]:
        """Entries of :meth:`window` whose name is one of ``names`` or folds as one does (the
        search index's whole-name term; "": those with no name): with everyone who holds a
        name at hand, the first pages of a directory tell them apart before the rest is read."""
        terms = {fold(name) for name in names}

        def build() -> list[Entry]:
            listed, divisions = self._listed_now(), self._divisions_now()
            found = []
            for kind in ("user", "contact"):
                ids = sorted({rid for term in terms for rid in reads.named(self._bulk, kind, term) if (kind, rid) in listed})
                found += [_entry(kind, data, divisions) for data in reads.records(self._bulk, kind, ids, self._bulk_codec).values()]
            return found

        return await self._run(build)

    async def batches(self, size: int = 2000) -> AsyncIterator[list[Entry]]:
        """Every entry in reading order, ``size`` at a time (a whole directory, streamed)."""
        total, entries = await self.window(0, size)
        yield entries
        for offset in range(size, total, size):
            yield (await self.window(offset, size))[1]

    async def search(self, text: str, limit: int = 32) -> list[Entry]:
        """Entries whose name, reading or number matches ``text`` (the cache's search), with a number."""
        found = await self.service.search.records(text, limit=limit * 2)

        def build() -> list[Entry]:
            divisions = self._divisions_now()
            out = []
            for result in found:
                kind = result.hit.kind
                data = result.record.model_dump(mode="json", exclude_none=True)
                if kind == "contact" and (data.get("folderId") or {}).get("directory") != "SHARED":
                    continue
                entry = _entry(kind, data, divisions)
                if entry.dialable_numbers():
                    out.append(entry)
            return out[:limit]

        return await self._run(build)

    async def shared_lines(self, contact_numbers: Iterable[str] | None = None) -> list[Identity]:
        """The answers for every division's own number and every company's or division's
        number written on contacts, each once (LDAP gives each such line one entry, named
        as every caller-ID answer names it, instead of one per contact that carries it).
        ``contact_numbers``: those numbers of the contacts, when the caller has just read
        them all (an export): the contacts are then not read a second time."""

        def build() -> list[Identity]:
            found = [d["divisionPhoneNum"] for d in reads.divisions(self._bulk) if d.get("divisionPhoneNum")]
            found += contact_numbers if contact_numbers is not None else [
                data[f] for data in reads.all_records(self._bulk, "contact")
                for f in numbers.SHARED_FIELDS if data.get(f)]
            lines: dict[str, Identity] = {}
            with bulk_unpack.expanding(self._bulk) as codec:  # a holder's record read for each of 18k lines
                for number in found:
                    key = match_key(number, self.region)
                    if key and key not in lines:
                        lines[key] = read_number(number, lambda forms: numbers.read(self._bulk, forms, self.region,
                                                                                    codec, 1), self.region, ())
                        lines[key].record = None  # an entry needs the names, not the record (18k of them: ~90 MB)
            return [a for a in lines.values() if a.kind in ("company", "division")]

        return await self._run(build)

    async def entry_batches(self, kinds: Iterable[str] = ("user", "contact"), size: int = 2000) -> AsyncIterator[list[Entry]]:
        """Every user and shared contact of ``kinds`` (numbers or not), ``size`` at a
        time: an LDIF export streams them rather than holding 190k entries at once."""
        for kind in kinds:
            rows = reads.all_records(self._bulk, kind)  # read on the worker thread only

            def batch(rows: Iterator[dict[str, Any]] = rows, kind: str = kind) -> list[Entry]:
                divisions = self._divisions_now()
                return [_entry(kind, data, divisions) for data in itertools.islice(rows, size)]

            ahead = asyncio.ensure_future(self._run(batch))  # the next batch is read while this one is used
            try:
                while found := await ahead:
                    ahead = asyncio.ensure_future(self._run(batch))
                    yield found
            finally:
                ahead.cancel()  # a reader that stopped early (a failed write) leaves no read behind

    async def entries(self) -> list[Entry]:
        """Every user and shared contact (numbers or not), for LDAP."""

        def build() -> list[Entry]:
            divisions = self._divisions_now()
            return [_entry(kind, data, divisions) for kind in ("user", "contact") for data in reads.all_records(self._bulk, kind)]

        return await self._run(build)


class CacheState:
    """One state of the cache, held by a read transaction on a connection and a thread of
    their own: what the gateway precomputes caller-ID replies from, with the marks that tell
    which of them the next state changes (:mod:`corpdir.cache.number_changes`). Neither the
    listings' worker nor the event loop is held up; a sync commits meanwhile (WAL)."""

    def __init__(self, phonebook: Phonebook) -> None:
        self._phonebook = phonebook
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="corpdir-state")
        self._conn: sqlite3.Connection | None = None

    async def _on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    async def __aenter__(self) -> CacheState:
        await self._on_thread(self._open)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._thread.submit(self._close)  # after whatever still runs there (a cancelled rebuild's last number)
        self._thread.shutdown(wait=False)

    def _open(self) -> None:
        self._conn = reads.open_reader(self._phonebook.service.cache_path(), self._phonebook.region)
        reads.hold_state(self._conn)  # every read from here on sees one state
        self._codec, self._pairs = Codec(self._conn), _Divisions.read(self._conn).pairs

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()

    async def marks(self, since: Marks | None = None) -> tuple[Marks, set[str] | None]:
        """This state's marks, and the phone index keys whose answers differ from those of
        the state ``since`` is of (None: all of them, or ``since`` is None)
        (:mod:`corpdir.cache.number_changes`)."""

        def read() -> tuple[Marks, set[str] | None]:
            if since is None:
                return number_changes.read_marks(self._conn), None
            return number_changes.read_changes(self._conn, since)

        return await self._on_thread(read)

    async def answers(self, answer: Callable[[Callable[[list[str], int], Any], str], T],
                      among: Iterable[str] | None = None) -> dict[str, T]:
        """``answer(read, key)`` for every number this state holds, or those of ``among`` it
        holds (``key``: as the phone index keys it; ``read``: as :meth:`Phonebook.read`)."""
        conn, region = self._conn, self._phonebook.region
        assert conn is not None

        def build() -> dict[str, T]:
            keys = reads.number_keys(conn) if among is None else number_changes.present(conn, among)

            def read(forms: list[str], limit: int) -> Any:
                return numbers.read(conn, forms, region, self._codec, limit, self._pairs)

            return {key: answer(read, key) for key in keys}

        return await self._on_thread(build)
