"""A record's fields as a two-column grid of label and value, all literal text."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from corpdir.phone import for_display
from corpdir.spec.phone_fields import CONTACT_PHONE_FIELDS, USER_PHONE_FIELDS
from corpdir.tui.labels import VALUE_LABELS, value_label
from corpdir.tui.text import Wrapped, joined

LABEL_WIDTH = 16  # "Personal mobile"; longer labels (admin fields) wrap between words
NUMBER_FIELDS = frozenset(USER_PHONE_FIELDS + CONTACT_PHONE_FIELDS)


def display_value(value: Any) -> str:
    """A field value as one readable string (lists joined, objects by their name)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return value.astimezone().strftime("%Y-%m-%d %H:%M")
    if hasattr(value, "model_dump"):  # a record's part (pydantic is imported by the records, not here)
        data = value.model_dump(exclude_none=True)
        for name_key in ("fullname", "cucmAdapterName", "alphaAdapterName", "divisionName"):
            if name_key in data:
                return str(data[name_key])
        if "folderNum" in data:
            return f"{data.get('directory', '')} #{data['folderNum']}"
        return joined([v for v in data.values() if isinstance(v, (str, int))], " ")
    if isinstance(value, (list, tuple)):
        return joined([display_value(v) for v in value])
    return str(value)


def field_text(record: BaseModel, field: str, region: str) -> str:
    """One field of a record as a pane shows it: a phone number by the one display rule
    (:func:`corpdir.phone.for_display` for ``region``), an enumeration by its label
    ('Regular user', not REGULAR_USER), anything else readable."""
    value = getattr(record, field, None)
    if field in NUMBER_FIELDS and isinstance(value, str):
        return for_display(value, region)
    if field in VALUE_LABELS:
        return value_label(field, value)
    return display_value(value)


def fields_table(record: BaseModel, labels: Mapping[str, str],
                 shown: Mapping[str, str | Sequence[str]] | None = None, *, region: str) -> Table:
    """Every labelled field the record carries (the caller's permission range decides which);
    ``shown`` gives the text of fields the caller words better (a folder by its name), or
    their lines (divisions by their paths, one a line). Numbers are written for ``region``.
    Values wrap between words and at an address's parts, never inside a word."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", max_width=LABEL_WIDTH)  # a long label wraps, not the value beside it
    table.add_column(overflow="fold")
    for field, label in labels.items():
        text = (shown or {}).get(field) or field_text(record, field, region)
        if text:
            table.add_row(Text(label), Wrapped(text) if isinstance(text, str) else Group(*map(Wrapped, text)))
    return table
