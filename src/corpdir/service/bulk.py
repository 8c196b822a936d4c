"""Bulk writes from CSV: destinations (U11) and spots (L1).

Every row is checked with the spec's models before anything is sent: if any row is bad,
every bad row is reported as ``line N: field: message`` (N is the line of the file, the
header being line 1) and nothing is sent. Destinations go in requests of at most 10,000
entries (the U11 limit); spots go in one request (L1 takes up to 10,000 and accepts one
request per tenant per 5 minutes).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from corpdir.spec import details_from
from corpdir.spec.location import L1_MAX_LOCATIONS, LocationEntry
from corpdir.spec.user import DestinationEntry

DESTINATION_COLUMNS = ("loginId", "destinationId", "destinationName")
SPOT_COLUMNS = ("bleId", "spotId")
U11_BATCH = 10_000


@dataclass
class ParsedCsv:
    kind: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)  # the raw rows, for a preview

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.entries)

    def requests(self) -> int:
        batch = U11_BATCH if self.kind == "destinations" else L1_MAX_LOCATIONS
        return -(-len(self.entries) // batch)


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return text


def parse(kind: str, text: str, *, variant: str = "C", keep_rows: int = 10) -> ParsedCsv:
    """Read and check a CSV of ``kind`` ("destinations" or "spots")."""
    columns, model = (DESTINATION_COLUMNS, DestinationEntry) if kind == "destinations" else (SPOT_COLUMNS, LocationEntry)
    out = ParsedCsv(kind)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = next(reader)
    except StopIteration:
        out.errors.append("line 1: the file is empty (expected a header: " + ",".join(columns) + ")")
        return out
    out.header = [h.strip() for h in header]
    missing = [c for c in columns if c not in out.header]
    unknown = [h for h in out.header if h and h not in columns]
    if missing or unknown:
        problems = []
        if missing:
            problems.append("missing column " + ", ".join(missing))
        if unknown:
            problems.append("unknown column " + ", ".join(unknown))
        out.errors.append(f"line 1: {'; '.join(problems)} (expected: {','.join(columns)})")
        return out
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(out.rows) < keep_rows:
            out.rows.append(row)
        if len(row) > len(out.header):
            out.errors.append(f"line {line}: {len(row)} values for {len(out.header)} columns")
            continue
        data: dict[str, Any] = {}
        for name, cell in zip(out.header, row):
            if not name:
                continue
            cell = cell.strip()
            if name == "destinationId":
                data[name] = _number(cell) if cell else cell
            elif cell or name in ("loginId", "bleId", "spotId"):
                data[name] = cell
        try:
            entry = model.model_validate(data, context={"variant": variant})
        except ValidationError as exc:
            for d in details_from(exc):
                out.errors.append(f"line {line}: {d.field}: {d.description}")
            continue
        out.entries.append(entry.body())
    if not out.entries and not out.errors:
        out.errors.append("the file has a header but no rows")
    return out
