"""Take a message for a call: one line of at most 50 characters (the call record's
``note``, spec 2.10). Enter keeps it, Escape leaves without one; the dialog says where
the message goes (with the call record, or, for a call nobody records, nowhere but the
card), wrapped: a hint cut at the dialog's edge told nothing."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from corpdir.calls.recorder import NOTE_MAX
from corpdir.tui.text import literal


class TakeMessage(ModalScreen[str | None]):
    CSS_PATH = "take_message.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="message.cancel")]

    def __init__(self, who: str, note: str = "", goes: str = "") -> None:
        super().__init__()
        self.who = who
        self.note = note
        self.goes = goes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(f"Message from {self.who}", "bold"))
            yield Input(self.note, max_length=NOTE_MAX, placeholder="e.g. please call back before 17:00", id="message")
            yield Static(id="message-count")
            yield Static(self.goes, id="message-goes")

    def on_mount(self) -> None:
        self._count(self.note)

    @on(Input.Changed, "#message")
    def _typed(self, event: Input.Changed) -> None:
        self._count(event.value)

    def _count(self, value: str) -> None:
        self.query_one("#message-count", Static).update(
            f"{len(value)}/{NOTE_MAX} characters · Enter keeps it · Escape cancels")

    @on(Input.Submitted, "#message")
    def _done(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
