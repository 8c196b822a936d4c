"""Export the list on screen (with its search and filters) to CSV or vCard 4.0."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Select, Static

from corpdir.service.export import SUFFIX, export_writer, file_encoding, finish, open_private, windows
from corpdir.tui.text import literal
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.wide_space import WideSpaceTyping

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService


class ExportScreen(WideSpaceTyping, ModalScreen[Path | None]):
    CSS_PATH = "export.tcss"
    BINDINGS = [Binding("escape", "close", "Close", id="export.close")]

    def __init__(self, service: DirectoryService, kind: str, source: Any) -> None:
        super().__init__()
        self.service, self.kind, self.source = service, kind, source

    def _default_path(self, fmt: str) -> str:
        return str(Path.cwd() / f"corpdir-{self.kind}-{datetime.now():%Y%m%d-%H%M}{SUFFIX[fmt]}")

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Export this list of {self.kind}"
            yield Select([("CSV", "csv"), ("vCard 4.0", "vcard")], value="csv", allow_blank=False, id="export-format",
                         compact=True)
            yield Input(self._default_path("csv"), id="export-path", compact=True)
            yield Static("Enter writes the file.", id="export-status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @on(Select.Changed, "#export-format")
    def _format(self, event: Select.Changed) -> None:
        path = self.query_one("#export-path", Input)
        stem = Path(path.value).with_suffix(SUFFIX[str(event.value)])
        path.value = str(stem)

    @on(Input.Submitted, "#export-path")
    def _go(self, event: Input.Submitted) -> None:
        self.write(Path(event.value.strip()).expanduser(), str(self.query_one("#export-format", Select).value))

    @work(exclusive=True, exit_on_error=False)
    async def write(self, path: Path, fmt: str) -> None:
        """The list, a window at a time, into a 0600 file that appears only when complete."""
        status = self.query_one("#export-status", Static)
        status.update("Writing…")
        try:
            stream, part = await asyncio.to_thread(open_private, path, file_encoding(fmt))
        except OSError as exc:
            status.update(literal(f"Not written: {exc.strerror or exc}: {path}"))
            return
        ok = False
        try:
            writer = await export_writer(self.service, self.kind, fmt, stream)
            total = await self.source.count() if self.source is not None else 0
            async for batch in windows(self.source.fetch if self.source is not None else None, total):
                await asyncio.to_thread(writer.write, batch)
                status.update(f"Writing… {writer.count} of {total}")
            ok = True
        except OSError as exc:
            status.update(literal(f"Not written: {exc.strerror or exc}: {path}"))
            return
        except Exception as exc:  # the list could not be read: say so, write nothing
            status.update(literal(f"Not written: the list could not be read ({exc})"))
            return
        finally:
            await asyncio.to_thread(finish, stream, part, path, ok=ok)
        self.notify(f"Exported {writer.count} {self.kind} to {path}", timeout=4)
        self.dismiss(path)

    def action_close(self) -> None:
        self.dismiss(None)
