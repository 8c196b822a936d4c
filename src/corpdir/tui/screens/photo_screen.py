"""The FULL-size face photo, on demand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import ModalScreen

from corpdir.service.errors import CorpdirError
from corpdir.spec.user import User
from corpdir.tui.text import literal
from corpdir.tui.widgets.photo import PhotoView

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService


class PhotoScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,p", "app.pop_screen", "Close", id="photo.close")]
    CSS_PATH = "photo_screen.tcss"

    def __init__(self, service: DirectoryService, user: User) -> None:
        super().__init__()
        self.service, self.user = service, user

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield PhotoView(cells=(self.app.size.width - 6, self.app.size.height - 4))

    def on_mount(self) -> None:
        self.load()

    @work(exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        view = self.query_one(PhotoView)
        title = literal(self.user.fullname or "")
        view.border_title = title
        # wide enough for the whole name, even around a short "no photo"
        view.styles.min_width = min(title.cell_len + 6, self.app.size.width - 2)
        try:
            await view.show(await self.service.images.photo(self.user.userId, "FULL"))
        except CorpdirError as exc:
            await view.show(None, f"photo unavailable: {exc}")
