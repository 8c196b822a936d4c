"""Bulk writes from CSV: destinations (U11) and spots (L1).

Every row is checked with the spec's models before anything is sent: if any row is bad,
every bad row is reported as ``line N: field: message`` (N is the line of the file, the
header being line 1) and nothing is sent. Destinations go in requests of at most 10,000
entries (the U11 limit); spots go in one request (L1 takes up to 10,000 and accepts one
request per tenant per 5 minutes).

The file is read as UTF-8 (a byte-order mark is dropped, Windows line endings are fine);
a file in another encoding, or a spreadsheet, is refused with the line it fails on and
what to do. Column names are matched whatever their case; a missing header, a column
named twice, a row with too few or too many values are each reported by line.

The file is read a line at a time, never whole, and is refused above MAX_CSV_BYTES (16 MiB,
about 400,000 destinations: 40 requests); the first MAX_PROBLEMS problems are listed and
the rest counted, so a file of a million bad rows prints 101 lines.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from corpdir.spec import details_from
from corpdir.spec.location import L1_MAX_LOCATIONS, LocationEntry
from corpdir.spec.user import U11_MAX_DESTINATIONS, DestinationEntry

DESTINATION_COLUMNS = ("loginId", "destinationId", "destinationName")
SPOT_COLUMNS = ("bleId", "spotId")
COLUMNS = {"destinations": DESTINATION_COLUMNS, "spots": SPOT_COLUMNS}
MAX_CSV_BYTES = 16 * 1024 * 1024
MAX_PROBLEMS = 100


class CsvUnreadable(Exception):
    """The file cannot be read as CSV text; the message says where and what to do."""


@dataclass
class ParsedCsv:
    kind: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)  # the raw rows, for a preview
    lines: list[int] = field(default_factory=list)  # the file's line of each entry
    unlisted: int = 0  # problems found past the first MAX_PROBLEMS

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.entries)

    def problem(self, text: str) -> None:
        if len(self.errors) < MAX_PROBLEMS:
            self.errors.append(text)
        else:
            self.unlisted += 1

    @property
    def problem_count(self) -> int:
        return len(self.errors) + self.unlisted

    def problem_lines(self) -> list[str]:
        """The problems listed, then how many more there are."""
        more = [f"… and {plural(self.unlisted, 'more problem')} (only the first {MAX_PROBLEMS} are listed)"]
        return self.errors + (more if self.unlisted else [])

    def requests(self) -> int:
        batch = U11_MAX_DESTINATIONS if self.kind == "destinations" else L1_MAX_LOCATIONS
        return -(-len(self.entries) // batch)


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return text


def read_lines(path: str | Path) -> Iterator[str]:
    """The file's lines as text (UTF-8, a BOM dropped, CR LF and CR read as LF), read one
    at a time. OSError if it cannot be opened; CsvUnreadable, naming the line, if it is
    larger than MAX_CSV_BYTES, a spreadsheet, or not UTF-8 text."""
    too_large = CsvUnreadable(f"the file is larger than {MAX_CSV_BYTES // 2**20} MiB, the most read at once: "
                              "split it into smaller files")
    with Path(path).expanduser().open("rb") as file:
        if os.fstat(file.fileno()).st_size > MAX_CSV_BYTES:
            raise too_large
        head = file.read(4)
        if head == b"PK\x03\x04" or head == b"\xd0\xcf\x11\xe0":
            raise CsvUnreadable("this is a spreadsheet (Excel) file, not CSV: save it as \"CSV UTF-8 (comma delimited)\"")
        file.seek(0)
        number, size = 0, 0
        while raw := file.readline(MAX_CSV_BYTES + 1 - size):  # a pipe can be longer than it said
            size += len(raw)
            if size > MAX_CSV_BYTES:
                raise too_large
            if number == 0 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            for piece in raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n").splitlines(keepends=True):
                number += 1
                if b"\x00" in piece:
                    raise CsvUnreadable(f"line {number}: the file holds NUL bytes: it is not a text CSV file")
                try:
                    yield piece.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise CsvUnreadable(
                        f"line {number}: the file is not UTF-8 text (byte 0x{piece[exc.start]:02x}; Shift_JIS?): "
                        "save it as \"CSV UTF-8 (comma delimited)\"") from None


def parse_file(kind: str, path: str | Path, *, variant: str = "C") -> ParsedCsv:
    """Read and check the CSV file at ``path`` (see :func:`read_lines`, :func:`parse`)."""
    return parse(kind, read_lines(path), variant=variant)


def _shown(cells: list[str], limit: int = 60) -> str:
    text = ",".join(cells)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _header_problem(kind: str, names: list[str], raw: list[str], line: int) -> str | None:
    columns = COLUMNS[kind]
    expected = ",".join(columns)
    known = [n for n in names if n in columns]
    if not known:
        if len(raw) == 1 and any(sep in raw[0] for sep in (";", "\t")):
            sep = "';'" if ";" in raw[0] else "tabs"
            return (f"line {line}: the columns are separated by {sep}, not commas: save the file as "
                    f"comma-separated CSV (header: {expected})")
        other = next((k for k, cols in COLUMNS.items() if k != kind and {n.lower() for n in raw} == {c.lower() for c in cols}), None)
        if other is not None:
            return f"line {line}: these are the columns of a {other} file ({','.join(raw)}): use `bulk {other}`"
        return f"line {line}: the first line must be the header {expected} (it reads: {_shown(raw)})"
    twice = sorted({n for n in names if n and names.count(n) > 1})
    missing = [c for c in columns if c not in names]
    unknown = [h for h, n in zip(raw, names) if h and n not in columns]
    problems = []
    if twice:
        problems.append("column named twice: " + ", ".join(twice))
    if missing:
        problems.append("missing column " + ", ".join(missing))
    if unknown:
        problems.append("unknown column " + ", ".join(unknown))
    if problems:
        return f"line {line}: {'; '.join(problems)} (expected: {expected})"
    return None


def parse(kind: str, lines: Iterable[str], *, variant: str = "C", keep_rows: int = 10) -> ParsedCsv:
    """Read and check the lines of a CSV of ``kind`` ("destinations" or "spots")."""
    columns = COLUMNS[kind]
    model = DestinationEntry if kind == "destinations" else LocationEntry
    canonical = {c.lower(): c for c in columns}
    out = ParsedCsv(kind)
    reader = csv.reader(lines)
    last_line = 0  # the file's line where the row read last ended
    try:
        header: list[str] | None = None
        header_line = 1
        for row in reader:
            start, last_line = last_line + 1, reader.line_num
            if header is None:
                if not any(cell.strip() for cell in row):
                    continue  # blank lines before the header
                raw = [h.strip() for h in row]
                out.header = [canonical.get(h.lower(), h) for h in raw]
                problem = _header_problem(kind, out.header, raw, start)
                if problem:
                    out.problem(problem)
                    return out
                header, header_line = out.header, start
                continue
            if not any(cell.strip() for cell in row):
                continue
            if len(out.rows) < keep_rows:
                out.rows.append(row)
            width = len(header)
            while width and not header[width - 1]:  # empty trailing header cells ("a,b,c,")
                width -= 1
            if len(row) > len(header) and any(cell.strip() for cell in row[len(header):]):
                out.problem(f"line {start}: {len(row)} values for {len(header)} columns (a comma too many?)")
                continue
            if len(row) < width:
                out.problem(f"line {start}: {plural(len(row), 'value')} for {width} columns "
                                  f"({', '.join(n for n in header[len(row):width] if n)} missing; "
                                  "an empty value still needs its comma)")
                continue
            data: dict[str, Any] = {}
            for name, cell in zip(header, row):
                if not name:
                    continue
                cell = cell.strip()
                if name == "destinationId":
                    if cell:  # empty: left out, so the rule says it is required
                        data[name] = _number(cell)
                elif cell or name in ("loginId", "bleId", "spotId"):
                    data[name] = cell
            try:
                entry = model.model_validate(data, context={"variant": variant})
            except ValidationError as exc:
                for d in details_from(exc):
                    value = data.get(d.field)
                    got = f" (got {str(value)[:40]!r})" if value not in (None, "") else ""
                    out.problem(f"line {start}: {d.field}: {d.description}{got}")
                continue
            out.entries.append(entry.body())
            out.lines.append(start)
    except csv.Error as exc:
        out.problem(f"line {reader.line_num}: not readable as CSV: {exc}")
        return out
    if header is None:
        out.problem("line 1: the file is empty (expected a header: " + ",".join(columns) + ")")
    elif not out.entries and not out.errors:
        out.problem(f"line {header_line}: the file has its header line but no rows after it")
    if kind == "spots" and len(out.entries) > L1_MAX_LOCATIONS:
        out.problem(f"{len(out.entries)} spots: the service takes at most {L1_MAX_LOCATIONS:,} in one request "
                          "and one request per 5 minutes: split the file")
    return out


def destinations_missing(parsed: ParsedCsv, answers: list[Any]) -> int:
    """Rows of a U11 run the service did not register."""
    return len(parsed.entries) - sum(a.registeredCount for a in answers)


def spots_missing(answer: Any) -> int:
    """Spots of an L1 run the service did not accept."""
    return answer.locationsCount - answer.acceptedCount


def destinations_result(parsed: ParsedCsv, answers: list[Any]) -> str:
    """What a U11 run the service answered did."""
    missing = destinations_missing(parsed, answers)
    text = (f"Sent {plural(len(parsed.entries), 'destination')} in {plural(len(answers), 'request')}: "
            f"{len(parsed.entries) - missing} registered.")
    if missing > 0:
        text += (f" {missing} not registered (the service does not say which: "
                 "check that each loginId exists).")
    return text


def spots_result(answer: Any) -> str:
    text = f"Sent {plural(answer.locationsCount, 'spot')}: {answer.acceptedCount} accepted (they expire in 10 minutes)."
    if (missing := spots_missing(answer)) > 0:
        text += (f" {missing} not accepted (the service does not say which: "
                 "usually a bleId that is no user's location tag).")
    return text


def partly_sent(parsed: ParsedCsv, done: int) -> str:
    """After a failed request: which rows went before it (none, or whole requests)."""
    total = len(parsed.entries)
    if done <= 0:
        return "Nothing was changed."
    return (f"{done} of {total} rows were sent before this (lines {parsed.lines[0]}-{parsed.lines[done - 1]}); "
            f"lines {parsed.lines[done]}-{parsed.lines[-1]} were not: send those again.")
