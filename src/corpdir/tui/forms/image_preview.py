"""The image about to be uploaded, shown before it replaces the stored one."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from corpdir.tui.text import literal
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.photo import PhotoView


class ImagePreview(ModalScreen[bool]):
    CSS_PATH = "image_preview.tcss"
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Upload", id="preview.yes"),
        Binding("n,escape", "answer(False)", "Cancel", id="preview.no"),
    ]

    def __init__(self, jpeg: bytes, question: str) -> None:
        super().__init__()
        self.jpeg, self.question = jpeg, question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PhotoView(cells=(min(40, self.app.size.width - 8), max(4, min(16, self.app.size.height - 8))), id="preview")
            yield Static(literal(self.question), id="preview-question")
            yield Static("(y: upload, n: cancel)", id="preview-keys")  # a line of its own: never split mid-hint
        yield KeyBar()

    def on_mount(self) -> None:
        self.draw()

    @work(exclusive=True, exit_on_error=False)
    async def draw(self) -> None:
        await self.query_one(PhotoView).show(self.jpeg, "(no preview)")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
