"""Users or contacts as CSV or vCard 4.0, written as they come.

Records arrive a batch at a time (a window of the cache, or one page of the service) and
each batch is formatted and written before the next is read, so an export of 100,000
people holds one batch in memory, and nothing it reads is written back to the cache.

Every value is directory data, so it goes through :func:`corpdir.text.printable`: on a
terminal nothing is kept that a terminal would act on (as `lookup` prints); in a file a
newline inside a value stays (quoted in CSV, escaped in vCard) and every other control,
bidi or invisible character is replaced. A CSV cell that a spreadsheet would not keep as
written gets a leading ' (:func:`csv_cell`, docs/export.md): one it would run as a formula
(it starts with = + - @ TAB or CR: OWASP's rule; '+81-3-1234-5678' included, which Excel
computes), and a number whose leading zero it would drop ('08059306682').

A user's divisions are named by their paths ('本社 › 技術本部 › 品質保証部 › 1課'): in CSV
each path, '; ' between them; in a vCard ORG the company's own name, then the first
division's path as organisational units (``ORG:コーポ電機;本社;技術本部;品質保証部;1課``).

vCards have FN, N, X-PHONETIC-LAST-NAME and X-PHONETIC-FIRST-NAME (the reading, as the
iOS and Android importers read it), ORG, TITLE, one TEL per number (work/cell/fax), one
EMAIL per address, URL, NOTE and a UID naming the record; a contact's card also has its
company's and division's URLs and the head office's and the office's addresses (ADR).

A CSV file is written in UTF-8 with a byte order mark by default: Excel on Japanese Windows
reads a CSV without one as Shift_JIS and shows the names garbled. ``--encoding utf-8``
leaves the mark out (for tools that take it for part of the first column's name). text is escaped by vobject's
own rule, lines are folded at 75 octets (RFC 6350 3.2). Each card is written as lines
rather than built as a vobject component: vobject takes 0.4-0.7 ms a card, which is 40-70 s
for 100,000 (docs/export.md).
"""

from __future__ import annotations

import csv
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from corpdir.division_path import division_path
from corpdir.service.backend import backend_of
from corpdir.text import printable

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

USER_CSV = ("userId", "loginId", "fullname", "fullnameKana", "fullnameAlphabet", "employeeNum", "divisions", "position",
            "post", "extensionNum", "phoneNum", "companyMobileNum", "mobileNum", "personalMobileNum", "faxNum",
            "email1", "email2", "webUrl", "comment")
CONTACT_CSV = ("contactId", "directory", "folderNum", "fullname", "fullnameKana", "fullnameAlphabet", "companyName",
               "companyNameKana", "divisionName", "position", "phoneNum", "companyMobileNum", "mobileNum",
               "personalMobileNum", "faxNum", "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum", "email1", "email2",
               "webUrl", "companyUrl", "divisionUrl", "headOfficeZipCode", "headOfficeAddress", "officeZipCode",
               "officeAddress", "comment")
# CSV column -> (the contact's location field, which part); an address is its two lines joined
ADDRESS_COLUMNS = {"headOfficeZipCode": ("headquartersLocation", "zip"), "headOfficeAddress": ("headquartersLocation", "lines"),
                   "officeZipCode": ("officeLocation", "zip"), "officeAddress": ("officeLocation", "lines")}
#: CSV files: UTF-8 with a byte order mark unless told otherwise (see the module's docstring)
CSV_ENCODINGS = ("utf-8-sig", "utf-8")
# phone field -> vCard TEL types
TEL_TYPES = {
    "extensionNum": ["work", "voice"], "phoneNum": ["work", "voice"], "companyMobileNum": ["work", "cell"],
    "mobileNum": ["cell"], "personalMobileNum": ["home", "cell"], "faxNum": ["work", "fax"],
    "companyDelegatedPhoneNum": ["work", "voice"], "divisionDelegatedPhoneNum": ["work", "voice"],
}
FORMATS = ("csv", "vcard")
SUFFIX = {"csv": ".csv", "vcard": ".vcf"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER_CHARACTERS = frozenset("0123456789-() ")
BATCH = 1000  # records read and written at a time
# filters the cache's own lists answer (one division or folder); any other goes to the service
CACHE_FILTERS = {"users": {"divisionIds", "includeSubDepartment"}, "contacts": {"directory", "folderNums"}}


def csv_cell(value: object, *, terminal: bool = False) -> str:
    """One CSV cell: kept as text, then neutralised (a newline stays unless ``terminal``).
    A leading ' keeps as text what a spreadsheet would run as a formula or read as a
    number without its leading zero (a national number, a zip code)."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) or (text.startswith("0") and set(text) <= _NUMBER_CHARACTERS):
        text = "'" + text
    return printable(text, keep_newlines=not terminal)


def _path_names(ref: Any, paths: Mapping[int, list[str]]) -> list[str]:
    """A user's division as names from the top (its own name when its path is not cached)."""
    return paths.get(ref.divisionId) or [ref.divisionName or str(ref.divisionId)]


def _value(record: Any, name: str, paths: Mapping[int, list[str]]) -> str:
    if name == "divisions":  # each by its path: '本社 › 技術本部 › 品質保証部 › 1課; 本社 › ...'
        return "; ".join(division_path(_path_names(d, paths)) for d in getattr(record, "divisions", None) or [])
    if name in ("directory", "folderNum"):
        folder = getattr(record, "folderId", None)
        return "" if folder is None else str(getattr(folder, name))
    if name in ADDRESS_COLUMNS:
        field, part = ADDRESS_COLUMNS[name]
        zip_code, lines = _address(getattr(record, field, None))
        return zip_code if part == "zip" else " ".join(lines)
    value = getattr(record, name, None)
    return "" if value is None else str(value)


def _address(location: Any) -> tuple[str, list[str]]:
    """(zip code, address lines) of a contact's location, empty where it has none."""
    if location is None:
        return "", []
    return location.zipCode or "", [line for line in (location.address1, location.address2) if line]


def _escape(text: str) -> str:
    from vobject.base import backslashEscape

    return backslashEscape(text)


def _fold(line: str) -> str:
    """``line`` folded into lines of at most 75 octets of UTF-8, never inside a character."""
    if len(line) <= 75 and line.isascii() or len(line.encode()) <= 75:
        return line + "\r\n"
    parts, start, size = [], 0, 0
    for i, char in enumerate(line):
        width = 1 if char < "\x80" else 2 if char < "\u0800" else 3 if char < "\U00010000" else 4
        if size + width > 75:
            parts.append(line[start:i])
            start, size = i, 1  # a continuation line starts with one space
        size += width
    parts.append(line[start:])
    return "\r\n ".join(parts) + "\r\n"


class ExportWriter:
    """Writes one export to ``out``, a batch of records at a time; ``count`` is how many
    records have been written."""

    def __init__(self, kind: str, fmt: str, out: TextIO, *, terminal: bool = False,
                 divisions: Callable[[Iterable[int]], Mapping[int, list[str]]] | None = None, company: str = "") -> None:
        """``divisions`` reads division paths by id (the cache's), so users' divisions are
        named by their paths; ``company`` is the company's own name, first in a user's ORG."""
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}: use csv or vcard")
        self.kind, self.fmt, self.out, self.terminal = kind, fmt, out, terminal
        self.divisions, self.company = divisions, company
        self.count = 0
        self.columns = USER_CSV if kind == "users" else CONTACT_CSV
        self._csv = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        if self._csv is not None:
            self._csv.writerow(self.columns)

    def write(self, records: Sequence[Any]) -> None:
        paths: Mapping[int, list[str]] = {}
        if self.kind == "users" and self.divisions is not None:
            paths = self.divisions({d.divisionId for r in records for d in r.divisions or ()})
        if self._csv is not None:
            self._csv.writerows([csv_cell(_value(r, c, paths), terminal=self.terminal)
                                 for c in self.columns] for r in records)
        else:
            self.out.write("".join(self._card(r, paths) for r in records))
        self.out.flush()  # the batch is in the file before the next one is read
        self.count += len(records)

    def _text(self, value: object) -> str:
        return _escape(printable(value, keep_newlines=not self.terminal))

    def _card(self, record: Any, paths: Mapping[int, list[str]]) -> str:
        text = self._text
        rid = f"user:{record.userId}" if self.kind == "users" else f"contact:{record.contactId}"
        fullname = record.fullname or ""
        family, _, given = fullname.replace("\u3000", " ").partition(" ")
        lines = ["BEGIN:VCARD", "VERSION:4.0", f"UID:urn:corpdir:{rid}", f"FN:{text(fullname)}",
                 f"N:{text(family)};{text(given)};;;"]
        if kana := getattr(record, "fullnameKana", None):  # family then given, as N (docs/export.md)
            family_kana, _, given_kana = kana.replace("\u3000", " ").partition(" ")
            lines.append(f"X-PHONETIC-LAST-NAME:{text(family_kana)}")
            if given_kana:
                lines.append(f"X-PHONETIC-FIRST-NAME:{text(given_kana)}")
        if self.kind == "users":  # the company, then the first division's path (RFC 6350 ORG: name; units)
            units = _path_names(record.divisions[0], paths) if record.divisions else []
            org = [self.company, *units] if self.company or units else []
        else:
            org = [v for v in (record.companyName, record.divisionName) if v]
        if org:
            lines.append("ORG:" + ";".join(text(v) for v in org))
        if position := getattr(record, "position", None):
            lines.append(f"TITLE:{text(position)}")
        for field, types in TEL_TYPES.items():
            if number := getattr(record, field, None):
                extension = ";X-CORPDIR=extension" if field == "extensionNum" else ""
                lines.append(f"TEL;TYPE={','.join(types)}{extension}:{text(number)}")
        for field in ("email1", "email2"):
            if address := getattr(record, field, None):
                lines.append(f"EMAIL;TYPE=work:{text(address)}")
        if url := getattr(record, "webUrl", None):
            lines.append(f"URL:{text(url)}")
        for field, label in (("companyUrl", "company"), ("divisionUrl", "division")):
            if url := getattr(record, field, None):
                lines.append(f"URL;TYPE=work;X-CORPDIR={label}:{text(url)}")
        for field, label in (("headquartersLocation", "head-office"), ("officeLocation", "office")):
            zip_code, street = _address(getattr(record, field, None))
            if zip_code or street:  # ADR: PO box; extended; street; locality; region; code; country
                lines.append(f"ADR;TYPE=work;X-CORPDIR={label}:;;{text(' '.join(street))};;;{text(zip_code)};")
        if comment := getattr(record, "comment", None):
            lines.append(f"NOTE:{text(comment)}")
        lines.append("END:VCARD")
        return "".join(_fold(line) for line in lines)


async def export_writer(service: DirectoryService, kind: str, fmt: str, out: TextIO, *,
                        terminal: bool = False) -> ExportWriter:
    """The writer for ``service``'s records: divisions by the cache's paths, and
    (users' vCards) the company's name, which the service is asked for once."""
    company = await service.identification.company_name() if kind == "users" and fmt == "vcard" else ""
    return ExportWriter(kind, fmt, out, terminal=terminal,
                        divisions=backend_of(service).store.division_paths, company=company)


# -- where the records come from ------------------------------------------------------------

@dataclass
class Records:
    """The records of one export: from ``source`` ("cache" or "service"), ``total`` of them
    when known beforehand, in ``batches``."""
    source: str
    total: int | None
    batches: AsyncIterator[Sequence[Any]]


async def windows(fetch: Callable[[int, int], Awaitable[Sequence[Any]]], total: int,
                  size: int = BATCH) -> AsyncIterator[Sequence[Any]]:
    """``total`` rows of a windowed list (the cache's ids, or a screen's) ``size`` at a time."""
    for offset in range(0, total, size):
        rows = await fetch(offset, min(size, total - offset))
        if not rows:
            return
        yield rows


def beyond_cache(kind: str, query: dict[str, Any]) -> list[str]:
    """The filters of ``query`` the cache cannot apply (several divisions or folders count)."""
    several = [key for key in ("divisionIds", "folderNums") if len(query.get(key, ())) > 1]
    return sorted(set(query) - CACHE_FILTERS[kind]) + several


async def cache_answers(service: DirectoryService, kind: str, query: dict[str, Any]) -> bool:
    """The cache has been synced and can apply every filter of ``query`` itself."""
    return await service.sync.age(kind) is not None and not beyond_cache(kind, query)


async def records(service: DirectoryService, kind: str, query: dict[str, Any], *, limit: int, source: str | None = None) -> Records:
    """The records ``query`` selects (U1 / X1 filters), at most ``limit``: read from the
    cache when it can answer (or ``source="cache"``: the ids in name order once, then the
    records a batch at a time), else page by page from the service."""
    use_cache = source == "cache" or (source is None and await cache_answers(service, kind, query))
    if use_cache:
        store, cache = backend_of(service).store, backend_of(service).cache
        if kind == "users":
            division = (query.get("divisionIds") or [None])[0]
            ids = await cache.run(store.user_ids, division, include_sub=bool(query.get("includeSubDepartment")))
            read = store.users
        else:
            ids = await cache.run(store.contact_ids, query.get("directory"), (query.get("folderNums") or [None])[0])
            read = store.contacts
        ids = ids[:limit]

        async def fetch(offset: int, count: int) -> Sequence[Any]:
            return await cache.run(read, ids[offset:offset + count])
        return Records("cache", len(ids), windows(fetch, len(ids)))
    if kind == "users":
        return Records("service", None, _pages(service, "U1", query, limit))
    return Records("service", None, _pages(service, "X1", {"orderBy": "fullname", **query}, limit))


async def _pages(service: DirectoryService, code: str, query: dict[str, Any], limit: int) -> AsyncIterator[Sequence[Any]]:
    left = limit
    async for page in backend_of(service).pages(code, query):
        items = page.items[:left]
        if items:
            yield items
        left -= len(items)
        if left <= 0:
            return


def file_encoding(fmt: str, requested: str | None = None) -> str:
    """The text encoding of an export file: a CSV's is UTF-8 with a BOM unless ``requested``
    says otherwise; vCard (RFC 6350) and LDIF are UTF-8."""
    if fmt != "csv":
        return "utf-8"
    return requested or CSV_ENCODINGS[0]


def open_private(path: Path, encoding: str = "utf-8") -> tuple[TextIO, Path]:
    """A new file beside ``path`` for writing it whole or not at all: 0600 (it holds personal
    data), renamed over ``path`` by :func:`finish` once complete. A ``path`` that is not a
    file (``/dev/null``, a named pipe a script reads) is written in place: renamed over, the
    device would be replaced by a file."""
    if path.exists() and not path.is_file():
        return open(path, "w", encoding=encoding, newline=""), path
    part = path.with_name(f".{path.name}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    return open(fd, "w", encoding=encoding, newline=""), part


def finish(out: TextIO, part: Path, path: Path, *, ok: bool) -> None:
    out.close()
    if part == path:  # written in place (a device or a pipe): nothing to rename or remove
        return
    if ok:
        os.replace(part, path)
    else:
        part.unlink(missing_ok=True)
