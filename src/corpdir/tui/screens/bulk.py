"""Bulk from CSV: destinations (U11) or spots (L1). Choose the file, see its first rows
and every bad row (line numbers of the file), then send: destinations in requests of at
most 10,000 entries with a progress bar. Nothing is sent while any row is bad. Spots sent
within 5 minutes of the last accepted list are explained with the time to try again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, ProgressBar, Select, Static

from corpdir.service.errors import CorpdirError, RateLimited
from corpdir.service.bulk import (CsvUnreadable, ParsedCsv, destinations_result, parse_file, partly_sent, plural,
                                  spots_result)
from corpdir.service.messages import explain, retry_after_text
from corpdir.tui.forms.texts import literal_lines
from corpdir.tui.text import literal
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.wide_space import WideSpaceTyping

if TYPE_CHECKING:
    from corpdir.tui.context import AppContext


# what each kind of row is, in the user's words (the operations behind them, U11 and L1, are not theirs)
KINDS = {"destinations": "Destinations of people", "spots": "Spots of location tags"}


class BulkScreen(WideSpaceTyping, ModalScreen[None]):
    CSS_PATH = "bulk.tcss"
    BINDINGS = [
        Binding("ctrl+s", "send", "Send", priority=True, id="bulk.send"),
        Binding("ctrl+o", "browse", "Browse", id="bulk.browse"),
        Binding("escape", "close", "Close", id="bulk.close"),
    ]

    def __init__(self, context: AppContext, kind: str = "destinations") -> None:
        super().__init__()
        self.context = context
        self.service = context.service
        self.kind = kind
        self.parsed: ParsedCsv | None = None
        self.sending = False

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Bulk from CSV"
            with Horizontal():
                yield Select([(KINDS["destinations"], "destinations"), (KINDS["spots"], "spots")], value=self.kind,
                             allow_blank=False, id="bulk-kind", compact=True)
                yield Input(placeholder="CSV file path (Ctrl+O to browse), Enter to read", id="bulk-path", compact=True)
            yield Static(id="bulk-preview")
            yield Static(id="bulk-errors")
            yield ProgressBar(id="bulk-progress", show_eta=False)
            yield Static(id="bulk-result")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#bulk-path", Input).focus()
        self.query_one("#bulk-progress", ProgressBar).display = False

    @on(Select.Changed, "#bulk-kind")
    def _kind(self, event: Select.Changed) -> None:
        self.kind = str(event.value)
        if self.query_one("#bulk-path", Input).value.strip():
            self.read_file(self.query_one("#bulk-path", Input).value)

    @on(Input.Submitted, "#bulk-path")
    def _path(self, event: Input.Submitted) -> None:
        self.read_file(event.value)

    def action_browse(self) -> None:
        from corpdir.tui.forms.file_picker import FilePicker

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.query_one("#bulk-path", Input).value = str(path)
                self.read_file(str(path))

        self.app.push_screen(FilePicker("Choose a CSV file", suffixes=(".csv", ".txt")), chosen)

    @work(group="bulk-read", exclusive=True, exit_on_error=False)
    async def read_file(self, path_text: str) -> None:
        path = Path(path_text.strip()).expanduser()
        errors = self.query_one("#bulk-errors", Static)
        self.query_one("#bulk-result", Static).update("")
        self.parsed = None
        self.query_one("#bulk-preview", Static).update("")
        try:
            parsed = await asyncio.to_thread(parse_file, self.kind, path, variant=self.service.variant)
        except CsvUnreadable as exc:
            errors.update(literal(f"{path.name}: {exc}. Nothing will be sent."))
            return
        except OSError as exc:
            errors.update(literal(f"The file cannot be read: {exc.strerror or exc}"))
            return
        self.parsed = parsed
        # file name, header and cells are the file's text: Text objects, never markup
        table = Table(title=literal(f"{path.name}: first rows"), title_justify="left", expand=False)
        for column in parsed.header:
            table.add_column(literal(column))
        for row in parsed.rows[:5]:
            table.add_row(*[literal(cell) for cell in row[: len(parsed.header)]])
        self.query_one("#bulk-preview", Static).update(table)
        if parsed.errors:
            errors.update(literal_lines(f"{plural(parsed.problem_count, 'bad row')}; nothing will be "
                                        "sent until they are fixed:\n" + "\n".join(parsed.problem_lines())))
        else:
            errors.update(literal(f"{plural(len(parsed.entries), 'row')}, all valid: Ctrl+S sends them in "
                                  f"{plural(parsed.requests(), 'request')}."))

    def action_send(self) -> None:
        if self.sending:
            return
        if self.parsed is None:
            self.notify("Choose a CSV file first", severity="warning", timeout=3)
            return
        if not self.parsed.ok:
            self.notify("Nothing sent: fix the rows listed first", severity="error", timeout=4)
            return
        if self.context.read_only:
            self.notify("This terminal is read-only: nothing can be changed here", severity="warning", timeout=3)
            return
        self.sending = True
        self.send(self.parsed)

    @work(group="bulk-send", exclusive=True, exit_on_error=False)
    async def send(self, parsed: ParsedCsv) -> None:
        bar = self.query_one("#bulk-progress", ProgressBar)
        result = self.query_one("#bulk-result", Static)
        bar.display = True
        bar.update(total=len(parsed.entries), progress=0)
        done = 0

        def progress(sent: int, total: int) -> None:
            nonlocal done
            done = sent
            bar.update(progress=sent)

        try:
            if parsed.kind == "destinations":
                answers = await self.service.people.send_destinations(parsed.entries, progress=progress)
                text = destinations_result(parsed, answers)
            else:
                answer = await self.service.people.register_spots(parsed.entries)
                bar.update(progress=len(parsed.entries))
                text = spots_result(answer)
        except RateLimited as exc:
            if parsed.kind == "spots" and exc.retry_after is not None:
                text = retry_after_text(exc)
            else:
                text = f"{explain(exc)}\n{partly_sent(parsed, done)}"
            result.update(literal_lines(text))
            self.notify(text, severity="warning", timeout=8)
            return
        except CorpdirError as exc:
            text = f"{explain(exc)}\n{partly_sent(parsed, done)}"
            result.update(literal_lines(text))
            self.notify(text, title="Not sent", severity="error", timeout=8)
            return
        finally:
            self.sending = False
        result.update(literal_lines(text))
        self.notify(text, timeout=5)

    def action_close(self) -> None:
        self.dismiss(None)
