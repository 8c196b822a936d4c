"""The values a form takes from elsewhere: a file path from the file picker (the business
card) and fields chosen by name from a picker (a division, a folder, a user type).

A mixin of :class:`~corpdir.tui.forms.model_form.ModelForm`, apart from it because these
open other screens and read the service's choices in workers, while the form itself only
checks and saves what its fields hold. The ``ChoiceField.Pick`` handler stays on the form:
Textual collects ``@on`` handlers from its own classes only.
"""

from __future__ import annotations

from typing import Awaitable, Callable

from textual import work
from textual.widgets import Input

from corpdir.tui.forms.choice_field import ChoiceField
from corpdir.tui.forms.choices import Choice, Picker, described
from corpdir.tui.forms.field_kinds import FieldKind
from corpdir.tui.forms.form_spec import FormSpec, Values


class FormPickers:
    """Ctrl+O and the pickers; the form gives ``spec``, ``kinds`` and its widgets."""

    spec: FormSpec
    kinds: dict[str, FieldKind]
    original: Values
    load_choices: Callable[[Picker], Awaitable[list[Choice]]] | None
    _choices: dict[str, list[Choice]]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "browse":
            return bool(self.spec.extra_fields)  # only forms with a file path offer Ctrl+O
        return True

    def action_browse(self) -> None:
        from pathlib import Path

        from corpdir.tui.forms.file_picker import FilePicker

        key = next(iter(self.spec.extra_fields), None)
        if key is None:
            return
        field = self.widget(key)
        typed = Path(field.value.strip()).expanduser() if field.value.strip() else None
        start = typed.parent if typed is not None and typed.parent.is_dir() else None

        def chosen(path: Path | None) -> None:
            if path is not None:
                field.value = str(path)
            field.focus()

        self.app.push_screen(FilePicker(f"Choose: {self.spec.extra_fields[key]}", start=start,
                                        suffixes=self.spec.browse_suffixes), chosen)

    # -- fields chosen from a picker ---------------------------------------------------------
    async def _choices_for(self, key: str) -> list[Choice]:
        if key not in self._choices and self.load_choices is not None:
            self._choices[key] = await self.load_choices(self.spec.pickers[key])
        return self._choices.get(key, [])

    @work(group="form-choices", exit_on_error=False)
    async def read_choices(self) -> None:
        """Names and paths for the values the fields hold (a read-only folder by its name)."""
        for key in self.spec.pickers:
            if key not in self.kinds:
                continue
            choices = await self._choices_for(key)
            widget = self.widget(key)
            if isinstance(widget, ChoiceField):
                widget.set_choices(choices)
            elif isinstance(widget, Input) and self.spec.editing:
                chosen = described(self.original.get(key), choices)
                widget.value = chosen.path or chosen.name

    @work(group="form-picker", exclusive=True, exit_on_error=False)
    async def open_picker(self, field: ChoiceField, index: int) -> None:
        from corpdir.tui.forms.choice_picker import ChoicePicker

        key = next(k for k, kind in self.kinds.items() if kind.widget_id == field.id)
        choices = await self._choices_for(key)
        current = field.values[index] if index < len(field.values) else None
        chosen = described(current, choices) if current is not None else None

        def picked(choice: Choice | None) -> None:
            if choice is not None:
                field.put(index, choice.value)
            field.focus()

        self.app.push_screen(ChoicePicker(f"{self._label(key)}: choose a {field.noun}", choices, chosen=chosen,
                                          noun=field.noun), picked)
