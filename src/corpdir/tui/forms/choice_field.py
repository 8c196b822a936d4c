"""A form field holding divisions or a folder chosen by name: each shown by its path,
one a line, never as an id.

Enter (or a click) asks for a picker (:class:`ChoiceField.Pick`, a message up: the form
opens :class:`corpdir.tui.forms.choice_picker.ChoicePicker` and sets what was chosen, an
attribute down). A field of several (a person's divisions) has a last line "add a
division"; Enter on a division chooses another in its place, Delete takes it out.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from corpdir.tui.forms.choices import Choice, described
from corpdir.tui.text import literal
from corpdir.tui.widgets import tcss_beside


class ChoiceField(Widget, can_focus=True):
    DEFAULT_CSS = tcss_beside(__file__)
    BINDINGS = [
        Binding("enter,space", "pick", "Choose", id="choice.pick"),
        Binding("delete,backspace", "remove", "Remove", id="choice.remove"),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
    ]
    cursor: reactive[int] = reactive(0)

    class _FieldMessage(Message):
        def __init__(self, field: ChoiceField) -> None:
            super().__init__()
            self.field = field

        @property
        def control(self) -> ChoiceField:
            return self.field

    class Pick(_FieldMessage):
        """The user asks to choose: in place of ``values[index]``, or a new one (index past the end)."""

        def __init__(self, field: ChoiceField, index: int) -> None:
            super().__init__(field)
            self.index = index

    class Changed(_FieldMessage):
        """What the field holds changed (the form checks itself again)."""

    def __init__(self, noun: str, *, multiple: bool = False, none: str = "", id: str | None = None) -> None:
        """``noun``: what is chosen ("division"); ``none``: the words for no choice."""
        super().__init__(id=id)
        self.noun, self.multiple, self.none = noun, multiple, none or f"(no {noun})"
        self.values: list[Any] = []
        self.choices: list[Choice] = []

    # -- what it holds (attributes down) -----------------------------------------------------
    def set_values(self, values: list[Any]) -> None:
        self.values = [v for v in values if v is not None]
        self.cursor = min(self.cursor, self._last)
        self.refresh(layout=True)

    def set_choices(self, choices: list[Choice]) -> None:
        self.choices = choices
        self.refresh(layout=True)

    def put(self, index: int, value: Any) -> None:
        """``value`` in place of ``values[index]`` (added when past the end); a value already
        held is not held twice."""
        values = list(self.values)
        if value in values and values.index(value) != index:
            values.remove(value)
        elif index < len(values):
            values[index] = value
        else:
            values.append(value)
        if not self.multiple:
            values = [value]
        self.set_values(values)
        self.post_message(self.Changed(self))

    # -- painting ----------------------------------------------------------------------------
    @property
    def _last(self) -> int:
        """The index of the last line (the "add" line of a field of several)."""
        return len(self.values) if self.multiple else 0

    def _lines(self) -> list[Text]:
        lines = [literal(choice.path or choice.name) for choice in (described(v, self.choices) for v in self.values)]
        if self.multiple:
            lines.append(Text(f"+ add a {self.noun}", style="italic"))
        elif not lines:
            lines.append(Text(self.none, style="italic"))
        return lines

    def render(self) -> Text:
        lines = self._lines()
        for i, line in enumerate(lines):
            if i == self.cursor and self.has_focus:
                line.stylize("reverse")
        return Text("\n").join(lines)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self._lines())

    def on_focus(self, event: events.Focus) -> None:
        self.refresh()

    def on_blur(self, event: events.Blur) -> None:
        self.refresh()

    def watch_cursor(self) -> None:
        self.refresh()

    # -- keys --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.disabled:
            return False
        if action == "remove":
            return self.multiple and self.cursor < len(self.values)
        if action == "move":
            return 0 <= self.cursor + int(parameters[0]) <= self._last
        return True

    def action_move(self, delta: int) -> None:
        self.cursor = max(0, min(self.cursor + delta, self._last))

    def action_pick(self) -> None:
        self.post_message(self.Pick(self, self.cursor if self.multiple else 0))

    def action_remove(self) -> None:
        if self.cursor < len(self.values):
            self.set_values(self.values[:self.cursor] + self.values[self.cursor + 1:])
            self.post_message(self.Changed(self))

    def on_click(self, event: events.Click) -> None:
        self.cursor = max(0, min(event.y, self._last))
        self.action_pick()
