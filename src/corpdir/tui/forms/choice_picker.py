"""Choosing a division or a folder by name: type to filter, the matches shown with their
paths ('1課  本社 › 技術本部 › 品質保証部 › 1課'), Enter chooses, Esc leaves as it was.

The filter keeps the focus, so typing and moving go together: ↑/↓ (and PgUp/PgDn) move
through the matches while the words typed stay where they are.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from corpdir.tui.forms.choices import Choice
from corpdir.tui.text import literal
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.wide_space import WideSpaceTyping


class ChoicePicker(WideSpaceTyping, ModalScreen[Choice | None]):
    CSS_PATH = "choice_picker.tcss"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
        Binding("enter", "choose", "Choose", id="picker.choose", priority=True),
        Binding("down", "move('cursor_down')", "Next", show=False),
        Binding("up", "move('cursor_up')", "Previous", show=False),
        Binding("pagedown", "move('page_down')", "Page down", show=False),
        Binding("pageup", "move('page_up')", "Page up", show=False),
    ]

    def __init__(self, title: str, choices: list[Choice], *, chosen: Choice | None = None, noun: str = "choice") -> None:
        super().__init__()
        self.title_text, self.choices, self.chosen, self.noun = title, choices, chosen, noun
        self.shown: list[Choice] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box") as box:
            box.border_title = literal(self.title_text)
            yield Input(placeholder="type to filter: name, reading or path", id="choice-filter", compact=True)
            yield Static(id="choice-count")
            yield OptionList(id="choice-list")
        yield KeyBar()

    def on_mount(self) -> None:
        self._filter("")
        self.query_one("#choice-filter", Input).focus()

    @staticmethod
    def _prompt(choice: Choice) -> Text:
        text = literal(choice.name, "bold")
        if choice.path and choice.path != choice.name:
            text.append_text(Text("  ")).append_text(literal(choice.path, "dim"))
        return text

    @on(Input.Changed, "#choice-filter")
    def _typed(self, event: Input.Changed) -> None:
        self._filter(event.value)

    def _filter(self, typed: str) -> None:
        self.shown = [c for c in self.choices if c.matches(typed)]
        options = self.query_one("#choice-list", OptionList)
        options.set_options([Option(self._prompt(c)) for c in self.shown])
        current = self.shown.index(self.chosen) if self.chosen in self.shown else 0
        options.highlighted = current if self.shown else None
        count = f"{len(self.shown)} of {len(self.choices)} {self.noun}s" if typed.strip() else \
            f"{len(self.choices)} {self.noun}s"
        self.query_one("#choice-count", Static).update(count if self.shown else f"No {self.noun} matches “{typed.strip()}”")

    def action_move(self, how: str) -> None:
        getattr(self.query_one("#choice-list", OptionList), f"action_{how}")()

    def action_choose(self) -> None:
        index = self.query_one("#choice-list", OptionList).highlighted
        if index is not None and index < len(self.shown):
            self.dismiss(self.shown[index])

    @on(Input.Submitted, "#choice-filter")
    def _submitted(self) -> None:
        self.action_choose()

    @on(OptionList.OptionSelected, "#choice-list")
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.shown[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)
