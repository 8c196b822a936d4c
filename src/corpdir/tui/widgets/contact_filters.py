"""The Contacts filter bar: every X1 filter, four to a row (text fields, the updated
range, the OCR state, duplicates merged). A filter that does not parse (a date) is shown as an
error under the fields, and the bar reports it so that nothing is sent."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, time
from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid
from textual.validation import Function
from textual.widgets import Checkbox, Input, Select, Static

from corpdir.spec.enums import OcrResult, OcrStatus, OcrType
from corpdir.tui.labels import value_label
from corpdir.tui.text import literal
from corpdir.tui.widgets import tcss_beside

TEXT_FILTERS = (("fullname", "Name"), ("fullnameKana", "Kana"), ("companyName", "Company"), ("divisionName", "Division"),
                ("phoneNum", "Phone"), ("email", "E-mail"))
DATE_FILTERS = (("updatedFrom", "Updated from"), ("updatedTo", "Updated to"))
CHOICE_FILTERS = (("ocrStatus", "OCR status", OcrStatus), ("ocrType", "OCR type", OcrType),
                  ("ocrResult", "OCR result", OcrResult))


_DAY = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?")


def parse_day(text: str) -> date | None:
    """A date as typed in the filter bar: YYYY-MM-DD, and as a Japanese desk writes one
    (2024/1/5, 2024年1月5日, full-width digits); None if it is not one."""
    text = unicodedata.normalize("NFKC", text).strip()
    found = _DAY.fullmatch(text)
    try:
        return date(*map(int, found.groups())) if found else date.fromisoformat(text)
    except ValueError:
        return None


def day_bound(day: date, end: bool) -> datetime:
    """The first (or last) moment of ``day`` in local time, with its offset (X1 wants one)."""
    return datetime.combine(day, time.max if end else time.min).astimezone()


class ContactFilters(Grid):
    """The X1 filters, four to a row."""

    DEFAULT_CSS = tcss_beside(__file__)

    def compose(self) -> ComposeResult:
        for field, label in TEXT_FILTERS:
            yield Input(placeholder=label, id=f"filter-{field}", compact=True)
        for field, label in DATE_FILTERS:
            yield Input(placeholder=f"{label} (Y-M-D)", id=f"filter-{field}", compact=True,
                        validators=[Function(lambda v: not v.strip() or parse_day(v) is not None, "not a date")])
        for field, prompt, enum in CHOICE_FILTERS:
            yield Select([(value_label(field, v.value), v.value) for v in enum], prompt=prompt, id=f"filter-{field}",
                         compact=True)
        # X1's ``identified``: contacts with the same name, company and e-mail as one. Its own
        # word was cut to "Identifie…" at 80x24, and said less to a receptionist.
        yield Checkbox("Merged", id="filter-identified", compact=True, tooltip="one entry per person: duplicates merged")
        yield Static(id="filter-errors")

    def on_mount(self) -> None:
        self.query_one("#filter-errors", Static).display = False

    def clear(self) -> None:
        """Every filter back to "any"."""
        for select in self.query(Select):
            select.clear()
        for field in self.query(Input):
            field.value = ""
        self.query_one("#filter-identified", Checkbox).value = False

    def summary(self) -> str:
        """The filters in force, in words: 'company 東邦, updated from 2025-01-01'."""
        labels = {f: label.lower() for f, label in TEXT_FILTERS + DATE_FILTERS}
        labels |= {f: label for f, label, _ in CHOICE_FILTERS}
        parts = []
        for name, value in self.values()[0]:
            if name == "identified":
                parts.append("duplicates merged")
            elif isinstance(value, datetime):
                parts.append(f"{labels[name]} {value.date().isoformat()}")
            else:
                parts.append(f"{labels[name]} {value_label(name, value)}")
        return ", ".join(parts)

    def values(self) -> tuple[tuple[tuple[str, Any], ...], list[str]]:
        """The filters as X1 parameters, and what is wrong with them (then nothing is sent)."""
        out: list[tuple[str, Any]] = []
        errors: list[str] = []
        for field, _ in TEXT_FILTERS:
            value = self.query_one(f"#filter-{field}", Input).value.strip()
            if value:
                out.append((field, value))
        days: dict[str, date] = {}
        for field, label in DATE_FILTERS:
            value = self.query_one(f"#filter-{field}", Input).value.strip()
            if not value:
                continue
            day = parse_day(value)
            if day is None:
                errors.append(f"{label}: {value!r} is not a date (2024-01-05 or 2024/1/5)")
                continue
            days[field] = day
            out.append((field, day_bound(day, end=field == "updatedTo")))
        if len(days) == 2 and days["updatedFrom"] > days["updatedTo"]:
            errors.append("Updated from is after updated to")
        for field, _, _ in CHOICE_FILTERS:
            select = self.query_one(f"#filter-{field}", Select)
            if not select.is_blank():
                out.append((field, select.value))
        if self.query_one("#filter-identified", Checkbox).value:
            out.append(("identified", True))
        shown = self.query_one("#filter-errors", Static)
        shown.update(literal("  ".join(errors)))
        shown.display = bool(errors)
        return tuple(out), errors
