"""A yes/no question before something that cannot be undone (or loses typed work)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from corpdir.tui.forms.texts import literal_lines


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with True (y / the first button) or False (n / Escape)."""

    CSS_PATH = "confirm.tcss"
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal_lines(self.question), id="confirm-text")  # a question may have several lines
            with Horizontal():
                yield Button(f"{self.yes} (y)", variant="error", id="confirm-yes")
                yield Button(f"{self.no} (n)", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
