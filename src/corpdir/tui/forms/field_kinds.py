"""Which widget edits a field, read from the pydantic annotation of the request model.

| annotation | kind | widget |
|---|---|---|
| str | text | Input |
| str of PHONE_CHARS | phone | PhoneInput (full width folded, layout dropped, as typed) |
| int | int | Input (digits) |
| bool | bool | Switch |
| an Enum or Literal | enum | Select |
| date / datetime | date / datetime | Input (ISO text) |
| list of str / int | lines | TextArea, one item a line |
| list of an Enum | choices | SelectionList |
| list of a model | rows | TextArea, one item a line, columns split by `|` |
| a model (Address ...) | object | one Input per sub-field (flattened: ``officeLocation.zipCode``) |
| a division or folder (a spec's ``pickers``) | pick | ChoiceField: names and paths, chosen in a picker |

Each kind turns the widget's state into the JSON value of the request (``read``) and a
loaded value into the widget's state (``write``). What the user typed that is not the
right type (letters in a number) is passed on as text, so validation says what is wrong.
"""

from __future__ import annotations

import enum
import typing
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel
from textual.widget import Widget
from textual.widgets import Input, Select, SelectionList, Switch, TextArea

from corpdir.phone import phone_field_text
from corpdir.spec.constraints import PHONE, PHONE_1
from corpdir.tui.forms.choice_field import ChoiceField
from corpdir.tui.forms.choices import Picker
from corpdir.tui.forms.phone_input import PhoneInput
from corpdir.tui.labels import value_label
from corpdir.tui.text import literal

ROW_SEPARATOR = " | "


def _base(annotation: Any) -> Any:
    while hasattr(annotation, "__metadata__"):  # Annotated[...]
        annotation = get_args(annotation)[0]
    return annotation


def _choices(annotation: Any) -> list[str] | None:
    annotation = _base(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [m.value for m in annotation]
    if get_origin(annotation) is Literal:
        return [str(a.value if isinstance(a, enum.Enum) else a) for a in get_args(annotation)]
    return None


@dataclass
class FieldKind:
    """How one field of the request is edited."""

    name: str  # the request key, e.g. "fullname" or "officeLocation.zipCode"
    kind: str  # text, int, bool, enum, date, datetime, lines, choices, rows, readonly
    choices: list[str] = field(default_factory=list)
    columns: list[tuple[str, str]] = field(default_factory=list)  # rows: (name, kind) of each column
    item_kind: str = "text"  # lines: text or int
    picker: Picker | None = None  # pick: what is chosen, by name (corpdir.tui.forms.choices)

    @property
    def widget_id(self) -> str:
        return "f-" + self.name.replace(".", "__")

    # -- widgets ------------------------------------------------------------------------
    def make(self, placeholder: str = "") -> Widget:
        wid = self.widget_id
        if self.kind == "pick" and self.picker is not None:
            none = self.picker.none[0] if self.picker.none else ""
            return ChoiceField(self.picker.what, multiple=self.picker.multiple, none=none, id=wid)
        if self.kind == "bool":
            return Switch(id=wid)
        if self.kind == "enum":
            return Select([(value_label(self.name, c), c) for c in self.choices],
                          prompt="(not set)", id=wid)
        if self.kind == "choices":
            return SelectionList[str](*[(value_label(self.name, c), c) for c in self.choices], id=wid, classes="choices")
        if self.kind in ("lines", "rows"):
            # numbered lines only where an error names a line of several columns; a gutter
            # beside a list of ids reads as a value
            area = TextArea(id=wid, classes="lines", soft_wrap=False, show_line_numbers=self.kind == "rows")
            area.border_subtitle = literal(placeholder)
            return area
        hint = {"date": "YYYY-MM-DD", "datetime": "YYYY-MM-DDTHH:MM:SS+09:00"}.get(self.kind, placeholder)
        if self.kind == "phone":
            return PhoneInput(placeholder=hint, id=wid, select_on_focus=False)
        # the text is never selected on focus: one key typed would replace a whole name
        return Input(placeholder=hint, id=wid, type="integer" if self.kind == "int" else "text",
                     disabled=self.kind == "readonly", select_on_focus=False)

    def write(self, widget: Widget, value: Any) -> None:
        """Show a loaded (request-form JSON) value in the widget."""
        if isinstance(widget, ChoiceField):
            widget.set_values(list(value) if isinstance(value, list) else [value])
        elif isinstance(widget, Switch):
            widget.value = bool(value)
        elif isinstance(widget, Select):
            if value in self.choices:
                widget.value = value
            else:
                widget.clear()
        elif isinstance(widget, SelectionList):
            widget.deselect_all()
            for v in value or []:
                if v in self.choices:
                    widget.select(v)
        elif isinstance(widget, TextArea):
            widget.load_text("\n".join(self._row_text(v) for v in value or []))
        elif isinstance(widget, Input):
            widget.value = "" if value is None else _local(value) if self.kind == "datetime" else str(value)

    def read(self, widget: Widget) -> Any:
        """The widget's state as the request's JSON value (None: nothing given)."""
        if isinstance(widget, ChoiceField):
            return list(widget.values) if widget.multiple else (widget.values[0] if widget.values else None)
        if isinstance(widget, Switch):
            return widget.value
        if isinstance(widget, Select):
            return None if widget.is_blank() else widget.value
        if isinstance(widget, SelectionList):
            chosen = set(widget.selected)
            return [c for c in self.choices if c in chosen]
        if isinstance(widget, TextArea):
            lines = [line.strip() for line in widget.text.split("\n")]
            if self.kind == "rows":
                return [self._row(line) for line in lines if line]
            return [_number(line) if self.item_kind == "int" else line for line in lines if line]
        if isinstance(widget, Input):
            text = widget.value
            if self.kind == "int":
                return _number(text.strip()) if text.strip() else None
            if self.kind in ("date", "datetime"):
                return text.strip() or None
            return phone_field_text(text) if self.kind == "phone" else text
        return None

    def _row_text(self, value: Any) -> str:
        if self.kind != "rows":
            return str(value)
        return ROW_SEPARATOR.join("" if value.get(name) is None else str(value.get(name)) for name, _ in self.columns)

    def _row(self, line: str) -> dict[str, Any]:
        parts = [p.strip() for p in line.split("|")]
        out: dict[str, Any] = {}
        for (name, kind), part in zip(self.columns, parts):
            if part:
                out[name] = _number(part) if kind == "int" else part
        if len(parts) > len(self.columns):  # a '|' inside the last column's text
            name, _ = self.columns[-1]
            out[name] = "|".join(parts[len(self.columns) - 1:]).strip()
        return out


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return text


def _is_phone(metadata: list[Any]) -> bool:
    """A field limited to PHONE_CHARS, empty allowed or not (``spec.constraints.Phone``,
    ``Phone1``: a new call's number is the second, and folds full width the same way)."""
    return any(getattr(getattr(m, "func", None), "__self__", None) in (PHONE, PHONE_1) for m in metadata)


def _scalar_kind(annotation: Any) -> str:
    base = _base(annotation)
    if base is bool:
        return "bool"
    if base is int:
        return "int"
    if _choices(annotation):
        return "enum"
    if isinstance(base, type) and (issubclass(base, datetime) or base.__name__.endswith("Datetime")):  # AwareDatetime
        return "datetime"
    if isinstance(base, type) and issubclass(base, date):
        return "date"
    if base is str:
        return "text"
    return "readonly"


def _local(value: Any) -> str:
    """A stored moment ('2025-06-02T09:23:06Z') as the user's clock says it, as the lists
    show it ('2025-06-02T18:23:06+09:00'); text that is no moment stays as it is. Untouched,
    it is not sent; edited, it goes with its offset."""
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return moment.astimezone().isoformat() if moment.tzinfo is not None else moment.isoformat()


def kinds_for(model: type[BaseModel], name: str) -> list[FieldKind]:
    """The editable parts of field ``name`` of ``model`` (several for a flattened object)."""
    info = model.model_fields[name]
    annotation = _base(info.annotation)
    origin = get_origin(annotation)
    if annotation is typing.Any:
        return [FieldKind(name, "readonly")]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        out: list[FieldKind] = []
        for sub in annotation.model_fields:
            out += [FieldKind(f"{name}.{k.name}", k.kind, k.choices) for k in kinds_for(annotation, sub)]
        return out
    if origin is list:
        item = _base(get_args(annotation)[0])
        if isinstance(item, type) and issubclass(item, BaseModel):
            columns = [(sub, _scalar_kind(item.model_fields[sub].annotation)) for sub in item.model_fields]
            return [FieldKind(name, "rows", columns=columns)]
        choices = _choices(item)
        if choices:
            return [FieldKind(name, "choices", choices)]
        return [FieldKind(name, "lines", item_kind="int" if _base(item) is int else "text")]
    kind = _scalar_kind(annotation)
    if kind == "text" and _is_phone(info.metadata):
        kind = "phone"
    return [FieldKind(name, kind, _choices(annotation) or [])]
