"""What a :class:`~corpdir.tui.forms.model_form.ModelForm` edits: the spec of one form.

Kept apart from the form itself because the form specs (:mod:`.specs`) and the write
flows (:mod:`.writes`) describe forms without building one, and the error messages
(:mod:`.form_messages`) read field paths the same way the spec names them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pydantic import BaseModel

from corpdir.spec import OPERATIONS, ErrorDetail
from corpdir.tui.forms.choices import Picker

Values = dict[str, Any]


@dataclass
class FormSpec:
    """What a form edits and how it is checked. ``code`` is the operation (U2, U4 ...)."""

    title: str
    code: str
    labels: dict[str, str]  # request field -> label, in the order shown
    model: type[BaseModel] | None = None  # default: the operation's body model
    readonly: frozenset[str] = frozenset()
    initial: Mapping[str, Any] = field(default_factory=dict)  # create: values to start from
    hints: dict[str, str] = field(default_factory=dict)
    context: Callable[[Values], dict[str, Any]] | None = None  # validation context from the values
    restricted: Callable[[Values], frozenset[str]] | None = None  # fields the values forbid
    restricted_note: Callable[[Values], str] | None = None
    extra_check: Callable[[Values], list[ErrorDetail]] | None = None  # rules beyond the model (a file)
    extra_fields: dict[str, str] = field(default_factory=dict)  # text inputs outside the model (a file path)
    browse_suffixes: tuple[str, ...] = ()  # Ctrl+O fills the first extra field from a file picker showing these
    pickers: dict[str, Picker] = field(default_factory=dict)  # fields chosen by name from a picker, not typed

    @property
    def body_model(self) -> type[BaseModel]:
        model = self.model or OPERATIONS[self.code].body
        assert model is not None
        return model

    @property
    def editing(self) -> bool:
        return OPERATIONS[self.code].method == "PATCH"


def field_of(path: str) -> tuple[str, int | None, str]:
    """'briefHistories[2].briefHistoryDate' -> ('briefHistories', 2, 'briefHistoryDate')."""
    m = re.match(r"^([A-Za-z0-9_]+)(?:\.([A-Za-z0-9_]+))?(?:\[(\d+)\])?(?:\.(.+))?$", path)
    if not m:
        return path, None, ""
    top, sub, index, rest = m.groups()
    name = f"{top}.{sub}" if sub else top
    return name, int(index) if index is not None else None, rest or ""
