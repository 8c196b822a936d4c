"""The messages beside a form's fields: the spec's and the service's details, each put
with the field it names.

A mixin of :class:`~corpdir.tui.forms.model_form.ModelForm`, apart from it because
mapping a reported path ('briefHistories[2].briefHistoryDate', X5's 'folderNum') to the
form's field is one job, shared by checking as you type, saving, and the service's
refusals; the form keeps what it shows and how it reads its widgets.
"""

from __future__ import annotations

from textual.widgets import Static

from corpdir.spec import ErrorDetail
from corpdir.tui.forms.field_kinds import FieldKind
from corpdir.tui.forms.form_spec import field_of
from corpdir.tui.forms.texts import literal_lines
from corpdir.tui.text import literal


class FormMessages:
    """Errors by field and the message at the top; the form gives ``kinds`` and its widgets."""

    kinds: dict[str, FieldKind]
    errors: dict[str, str]

    def _key_of(self, path: str) -> tuple[str, int | None, str]:
        """The form's field a reported field path belongs to ('folderNum' of X5: the folder),
        with the line and the part of it the path names."""
        name, index, rest = field_of(path)
        name = next((key for key in self.kinds if name in self._spread_by(key)), name)
        if name not in self.kinds and name.partition(".")[0] in self.kinds:
            name = name.partition(".")[0]
        return name, index, rest

    def show_errors(self, details: list[ErrorDetail], message: str = "") -> None:
        by_key: dict[str, list[str]] = {}
        general: list[str] = []
        for d in details:
            name, index, rest = self._key_of(d.field)
            text = d.description or d.code
            if rest:
                text = f"{rest}: {text}"
            if index is not None:
                text = f"line {index + 1}: {text}"
            if name in self.kinds:
                by_key.setdefault(name, []).append(text)
            else:
                general.append(f"{d.field or 'request'}: {text}")
        self.errors = {k: "; ".join(dict.fromkeys(v)) for k, v in by_key.items()}  # X5's folder: said once
        for key, kind in self.kinds.items():
            static = self.query_one(f"#e-{kind.widget_id}", Static)
            text = self.errors.get(key, "")
            static.update(literal(text))
            static.display = bool(text)
            self.query_one(f"#row-{kind.widget_id}").set_class(bool(text), "-invalid")
        self.show_message("\n".join([message, *general]).strip())

    def _needing_attention(self) -> str:
        """The fields with errors, by their labels: 'check Name, Extension'."""
        names = [self._label(key) for key in self.kinds if key in self.errors]
        return f"check {', '.join(names)}" if names else "see the message at the top"

    def focus_first_error(self) -> None:
        """The focus goes to the first field (in form order) that needs attention."""
        key = next((k for k in self.kinds if k in self.errors), None)
        if key is not None and not self.widget(key).disabled:
            self._focus_field(self.widget(key))

    def show_message(self, text: str) -> None:
        shown = self.query_one("#form-message", Static)
        shown.update(literal_lines(text))
        shown.display = bool(text)
