"""One generic form for every write of the spec, driven by a request model.

A :class:`FormSpec` says which operation the form is for (its body model gives the
fields and their rules), what each field is called, which are read-only, and how the
validation context (the user's type) follows from what is typed. :class:`ModelForm`
builds a row per field (label, widget from :mod:`field_kinds`, the message beside it),
fills it from the loaded record, validates as you type (debounced) and on save with the
spec's own rules, and saves through a callback given by the screen that opened it.

Saving sends what the spec's edit rules say (:mod:`corpdir.spec.edits`): on an edit the
changes only (a field the user did not touch is absent, a text field emptied is sent as
``''``), on a create what was filled in. A failed save keeps what was typed and shows the
service's details beside their fields.

The form checks and saves; the parts that are a job of their own live beside it: the spec
of a form (:mod:`.form_spec`), the messages put with their fields (:mod:`.form_messages`),
the values taken from pickers and the file picker (:mod:`.form_pickers`), and the doubts
about e-mail addresses before a save (:mod:`.email_doubts`).
"""

from __future__ import annotations

import re
from typing import Any, Awaitable, Callable, Mapping

from pydantic import BaseModel
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Label, Select, SelectionList, Static, Switch, TextArea

from corpdir.service.errors import ApiError, CorpdirError, Invalid, PermissionDenied
from corpdir.spec import ErrorDetail, QueryModel, SpecViolation, validate_body, validate_query
from corpdir.spec.edits import CannotClear, create_body, edit_body, is_empty, request_form
from corpdir.tui.forms.choice_field import ChoiceField
from corpdir.tui.forms.choices import Choice, Picker
from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.email_doubts import ask_about_addresses
from corpdir.tui.forms.field_kinds import FieldKind, kinds_for
from corpdir.tui.forms.form_messages import FormMessages
from corpdir.tui.forms.form_pickers import FormPickers
from corpdir.tui.forms.form_spec import FormSpec, Values
from corpdir.tui.text import literal
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.wide_space import WideSpaceTyping

VALIDATE_DELAY = 0.3  # seconds of quiet typing before the form checks itself


class ModelForm(FormMessages, FormPickers, WideSpaceTyping, ModalScreen[Any]):
    """The form. ``save(body)`` is awaited on save; what it returns is the dismiss result."""

    CSS_PATH = "model_form.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True, id="form.save"),
        Binding("escape", "leave", "Cancel", id="form.cancel"),
        Binding("ctrl+o", "browse", "Browse", id="form.browse"),
        # Tab moves on before the keys after it reach a field. Textual's own Tab is a screen
        # binding, run only once the key has bubbled up from the field; the characters
        # typed next (an IME's committed word, a quick typist) reached the field first.
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True, system=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True, system=True),
    ]

    def __init__(self, spec: FormSpec, record: BaseModel | Mapping[str, Any] | None,
                 save: Callable[[Values], Awaitable[Any]], *, variant: str = "C",
                 choices: Callable[[Picker], Awaitable[list[Choice]]] | None = None) -> None:
        """``choices`` reads what a picker offers (the screen's service: see :mod:`.choices`)."""
        super().__init__()
        self.spec = spec
        self.load_choices = choices
        self._choices: dict[str, list[Choice]] = {}
        self.save_callback = save
        self.variant = variant
        model = spec.body_model
        self.original: Values = request_form(record, model) if spec.editing and record is not None else {}
        if spec.editing and record is not None:  # read-only fields still show what was loaded
            loaded = record.model_dump(mode="json") if isinstance(record, BaseModel) else dict(record)
            for name in spec.readonly:
                if name not in self.original and loaded.get(name) is not None:
                    self.original[name] = loaded[name]
        self.kinds: dict[str, FieldKind] = {}
        for name in spec.labels:
            if name in model.model_fields:
                for kind in kinds_for(model, name):
                    if name in spec.readonly:
                        kind = FieldKind(kind.name, "readonly")
                    self.kinds[kind.name] = kind
            elif name in spec.extra_fields:
                self.kinds[name] = FieldKind(name, "text")
            elif name in spec.pickers and spec.pickers[name].spread:  # one field for several request fields
                self.kinds[name] = FieldKind(name, "pick", picker=spec.pickers[name])
        if spec.editing:  # a read-only object shows as one line
            for name in spec.readonly:
                for key in [k for k in self.kinds if k.startswith(name + ".")]:
                    del self.kinds[key]
                if name in spec.labels:
                    self.kinds.setdefault(name, FieldKind(name, "readonly"))
        self.kinds = self._with_pickers(self.kinds)
        self._initial: Values = {}
        self._ready = False
        self._timer: Timer | None = None
        self.saving = False
        self._save_tried = False  # from the first save on, every field's error shows as the user types
        self.errors: dict[str, str] = {}

    def _with_pickers(self, kinds: dict[str, FieldKind]) -> dict[str, FieldKind]:
        """The kinds with each picked field as one field (a folder's two parts too), in place;
        a read-only one stays read-only (its text becomes the name once choices are read)."""
        out: dict[str, FieldKind] = {}
        for key, kind in kinds.items():
            top = key.partition(".")[0]
            picker = self.spec.pickers.get(top)
            if picker is None or kind.kind == "readonly":
                out[key] = kind
            elif top not in out:
                out[top] = FieldKind(top, "pick", picker=picker)
        return out

    # -- building -----------------------------------------------------------------------
    def label_of(self, key: str) -> str:
        """The field's label as the form shows it ('E-mail 1')."""
        return self._label(key)

    def _label(self, key: str) -> str:
        if key in self.spec.labels:
            return self.spec.labels[key]
        top, _, sub = key.partition(".")
        words = re.sub(r"(?<!^)([A-Z0-9]+)", r" \1", sub).lower()
        return f"{self.spec.labels.get(top, top)}: {words}"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form-box") as box:
            box.border_title = literal(self.spec.title)  # titles quote names: never markup
            yield Static(id="form-message")
            for key, kind in self.kinds.items():
                hint = self.spec.hints.get(key, "")
                if kind.kind == "rows":
                    hint = hint or "one a line: " + " | ".join(name for name, _ in kind.columns)
                elif kind.kind == "lines":
                    hint = hint or "one a line"
                with Horizontal(classes="form-row", id=f"row-{kind.widget_id}"):
                    yield Label(literal(self._label(key)), classes="form-label")
                    widget = kind.make(hint)
                    if isinstance(widget, (Input, Select)):
                        widget.compact = True
                    yield widget
                yield Static(classes="form-error", id=f"e-{kind.widget_id}")
        yield KeyBar()

    def widget(self, key: str) -> Widget:
        return self.query_one(f"#{self.kinds[key].widget_id}")

    def _spread_by(self, key: str) -> tuple[str, ...]:
        picker = self.spec.pickers.get(key)
        return picker.spread if picker is not None else ()

    def on_mount(self) -> None:
        values = self.original if self.spec.editing else dict(self.spec.initial)
        for key, kind in self.kinds.items():
            spread = self._spread_by(key)
            value = ({name: values[name] for name in spread if name in values} or None) if spread else _lookup(values, key)
            if kind.kind == "readonly" and isinstance(value, dict):
                value = " ".join(str(v) for v in value.values())
            kind.write(self.widget(key), value)
        self._initial = self._read_all()
        for static in self.query(".form-error").results(Static):
            static.display = False
        self.query_one("#form-message", Static).display = False
        self._apply_restrictions()
        if self.spec.pickers and self.load_choices is not None:
            self.read_choices()
        self.call_after_refresh(self._arm)
        first = next((w for w in self.query("Input, Select, Switch, TextArea, SelectionList") if not w.disabled), None)
        if first is not None:
            self._focus_field(first)

    @staticmethod
    def _focus_field(widget: Widget) -> None:
        """Focus a field with the cursor after its text (its inputs never select on focus):
        the first key typed adds to a name instead of replacing it."""
        widget.focus()
        if isinstance(widget, Input):
            widget.cursor_position = len(widget.value)
        elif isinstance(widget, TextArea):
            widget.move_cursor(widget.document.end)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The row being typed in is marked (its label lights up): at 80x24 a compact
        field's focus is only a shade lighter, and the cursor blinks. A class, not
        ``:focus-within``, which Textual left on the row the focus had left."""
        for row in self.query(".form-row.-focused"):
            row.remove_class("-focused")
        for row in event.widget.ancestors_with_self:
            if row.has_class("form-row"):
                row.add_class("-focused")
                break

    def _arm(self) -> None:
        self._ready = True

    # -- values -------------------------------------------------------------------------
    def _read_all(self) -> Values:
        return {key: kind.read(self.widget(key)) for key, kind in self.kinds.items() if kind.kind != "readonly"}

    def touched(self) -> set[str]:
        """Widget keys whose state differs from what the form started with."""
        now = self._read_all()
        return {k for k, v in now.items() if v != self._initial.get(k)}

    @property
    def dirty(self) -> bool:
        return bool(self.touched())

    def values(self) -> Values:
        """Everything in the form, in request shape (flattened objects put together)."""
        out: Values = {}
        for key, value in self._read_all().items():
            if key in self.spec.extra_fields:
                continue
            if self._spread_by(key):
                out.update(value or {})
                continue
            top, dot, sub = key.partition(".")
            if dot:
                obj = out.setdefault(top, {})
                if not is_empty(value):
                    obj[sub] = value
            else:
                out[key] = value
        return out

    def extra_values(self) -> Values:
        return {key: self.widget(key).value for key in self.spec.extra_fields if key in self.kinds}

    def body(self) -> Values:
        """The request body: on an edit the changes only, on a create what was filled in."""
        if self.spec.editing:
            return edit_body(self.original, self.values(), self.touched(), self.spec.body_model, self.spec.readonly)
        return create_body(self.values(), self.touched(), self.spec.body_model, initial=self.spec.initial.keys(),
                           readonly=self.spec.readonly)

    def context(self) -> dict[str, Any]:
        return self.spec.context(self.values()) if self.spec.context else {}

    def check(self) -> tuple[Values | None, list[ErrorDetail]]:
        """The body and what is wrong with it, by the spec's rules (nothing is sent)."""
        details: list[ErrorDetail] = []
        if self.spec.extra_check:
            details += self.spec.extra_check(self.extra_values())
        try:
            body = self.body()
        except CannotClear as exc:
            return None, details + [ErrorDetail(field=exc.field, code="INVALID_TYPE", description="cannot be emptied; give it a value")]
        try:
            if issubclass(self.spec.body_model, QueryModel):
                validate_query(self.spec.code, body, variant=self.variant)
            else:
                validate_body(self.spec.code, body, variant=self.variant, context=self.context())
        except SpecViolation as exc:
            details += exc.details
        return (None if details else body), details

    def _apply_restrictions(self) -> None:
        if self.spec.restricted is None:
            return
        values = self.values()
        forbidden = self.spec.restricted(values)
        touched = self.touched()
        for key, kind in self.kinds.items():
            if kind.kind == "readonly":
                continue
            widget = self.widget(key)
            # a forbidden field the user already typed into stays open (with its error) so it can be undone
            widget.disabled = key in forbidden and key not in touched
        note = self.spec.restricted_note(values) if self.spec.restricted_note and forbidden else ""
        if not self.errors:
            self.show_message(note)

    # -- as you type --------------------------------------------------------------------
    @on(Input.Changed)
    @on(Switch.Changed)
    @on(Select.Changed)
    @on(TextArea.Changed)
    @on(SelectionList.SelectedChanged)
    @on(ChoiceField.Changed)
    def _changed(self) -> None:
        if not self._ready:
            return
        self._apply_restrictions()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(VALIDATE_DELAY, self.validate_now)

    def validate_now(self) -> list[ErrorDetail]:
        """Check as the user types: a field's error shows once it was changed (or a save was
        tried), not while the user has not reached it yet."""
        _, details = self.check()
        if not self._save_tried:
            touched = self.touched()
            details = [d for d in details if (key := self._key_of(d.field)[0]) in touched or key not in self.kinds]
        self.show_errors(details)
        self._apply_restrictions()
        return details

    @on(ChoiceField.Pick)
    def _pick(self, event: ChoiceField.Pick) -> None:
        self.open_picker(event.field, event.index)

    # -- save and leave -----------------------------------------------------------------
    def action_save(self) -> None:
        if self.saving:
            return
        self._save_tried = True
        if self._timer is not None:
            self._timer.stop()
        body, details = self.check()
        if body is None:
            self.show_errors(details, "Not saved: the marked fields need attention.")
            self.notify(f"Not saved: {self._needing_attention()}", severity="warning", timeout=6)
            self.focus_first_error()
            return
        self.show_errors([])
        if self.spec.editing and not body:
            self.notify("Nothing changed: nothing was sent", timeout=3)
            self.dismiss(None)
            return
        if not ask_about_addresses(self, body, self._send):
            self._send(body)

    def _send(self, body: Values) -> None:
        self.saving = True
        self.run_save(body)

    @work(exclusive=True, exit_on_error=False)
    async def run_save(self, body: Values) -> None:
        from corpdir.service.messages import explain

        try:
            result = await (self.save_callback(body, self.extra_values()) if self.spec.extra_fields
                            else self.save_callback(body))
        except Invalid as exc:
            self.show_errors(exc.details, f"Not saved: {exc.summary.lower()} (the service said so)."
                             if not exc.local else "Not saved: the marked fields need attention.")
            self.notify(f"{explain(exc)} ({self._needing_attention()})", severity="error", timeout=8)
            self.focus_first_error()
            return
        except ApiError as exc:
            # the service's details beside their fields: "loginId ... is already used" (409), an unknown ID (422)
            if exc.details and not isinstance(exc, PermissionDenied):
                self.show_errors(exc.details, f"Not saved: {exc.summary.lower()} (the service said so).")
                self.focus_first_error()
            else:
                self.show_message(f"Not saved. {explain(exc)}")
            self.notify(explain(exc), title="Not saved", severity="error", timeout=8)
            return
        except CorpdirError as exc:
            self.show_message(f"Not saved. {explain(exc)}")
            self.notify(explain(exc), title="Not saved", severity="error", timeout=8)
            return
        finally:
            self.saving = False
        self.dismiss(result)

    def action_leave(self) -> None:
        if not self.dirty:
            self.dismiss(None)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen("You have changes that are not saved. Leave and lose them?",
                                           yes="Leave", no="Keep editing"), answered)


def _lookup(values: Mapping[str, Any], key: str) -> Any:
    top, dot, sub = key.partition(".")
    value = values.get(top)
    if dot:
        return value.get(sub) if isinstance(value, dict) else None
    return value
