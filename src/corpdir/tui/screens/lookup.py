"""Who is this number? Type (or paste) numbers, press Enter: each is answered from the
cache's phone index (however it is written: '+81 3-1234-5678' finds '03-1234-5678'), and
what the cache does not know goes to N1, five numbers to a request.

How numbers are separated (:func:`corpdir.phone.split_numbers`): lines, commas and spaces
between numbers ('0756784245 2310 ０３６４４０２９７９ 999-9999 abc' is five entries; '090 1111
2222' one number). A pasted list of lines becomes one line joined by ", ". Each entry is
answered on its own row, in the order typed; an entry that is no number says so on its
row. (A comma is also a dial pause in PHONE_CHARS; a number with a pause cannot be looked
up here, nor does N1 identify one.) Numbers looked up are remembered between runs (the
state file, per profile) and listed on the left, the latest first: after a lookup, its numbers stand
beside their answers; choosing one looks it up again.
"""

from __future__ import annotations

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input, Static

from corpdir.service.errors import CorpdirError
from corpdir.phone import for_display, same_number, split_numbers
from corpdir.service.identify import NOT_A_NUMBER, Identity
from corpdir.tui.context import AppContext
from corpdir.tui.screens.list_screen import ListScreen
from corpdir.tui.text import literal
from corpdir.tui.widgets.answer_detail import AnswerDetail, LookupRow
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.list_columns import Column, number_column
from corpdir.tui.widgets.row_sources import ListSource
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar
from corpdir.tui.widgets.virtual_list import VirtualList

def result_columns(region: str) -> list[Column]:
    return [
        number_column("Number", lambda r: r.query, region, width=15),
        Column("Name", lambda r: r.name, min_width=8, ratio=3),
        Column("Organisation", fit=lambda r, width: r.organisation(width), min_width=12, ratio=4),
        Column("Type", lambda r: r.kind, width=8),
        Column("From", lambda r: r.source, width=7),
    ]


def recent_columns(region: str) -> list[Column]:
    return [Column("Recent lookups", lambda n: for_display(n, region), min_width=6)]


def answer_rows(answers: list[Identity]) -> list[LookupRow]:
    """One row per entry, in the order typed: who has the number, or why nobody does."""
    return [LookupRow(a) for a in answers]


class NumbersInput(Input):
    """An Input that keeps every line of a paste (joined by ", ") instead of the first only."""

    def on_paste(self, event: events.Paste) -> None:
        # Textual then runs Input's own handler (first line only) unless the default is prevented.
        if "\n" in event.text.strip():
            event.prevent_default()
            event.stop()
            self.insert_text_at_cursor(", ".join(split_numbers(event.text, self.screen.service.settings.region)))


class LookupScreen(ListScreen):
    CSS_PATH = "lookup.tcss"
    BINDINGS = [
        Binding("slash", "focus_numbers", "Numbers", id="lookup.numbers", priority=True),
        Binding("c", "copy_number", "Copy no.", id="lookup.copy_number"),
        Binding("delete", "forget", "Forget", show=False, id="lookup.forget"),
        Binding("escape", "clear", "Clear", show=False, id="lookup.clear"),
    ]

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.selected: LookupRow | None = None
        self.profile = context.profile  # whose lookups the list shows

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield NumbersInput(placeholder="Numbers to look up, with commas, spaces or lines between them — Enter", id="numbers")
        yield Static(id="caption")
        with Horizontal(id="lookup-body"):
            yield VirtualList(recent_columns(self.service.settings.region), empty_text="None yet.", id="recent")
            yield VirtualList(result_columns(self.service.settings.region), empty_text="Nothing looked up yet.", id="results")
            yield AnswerDetail(self.service, id="detail")
        yield StatusBar(self.context, id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_recent()
        note = "" if self.service.offers("N1") else "  (this service has no N1: answers come from the cache only)"
        self.query_one("#caption", Static).update(literal("One number per line, or several separated by commas or spaces." + note, "dim"))
        self.query_one("#numbers", Input).focus()

    def _show_recent(self) -> None:
        self.query_one("#recent", VirtualList).source = ListSource(self.context.state.recent_lookups(self.profile))

    # -- looking up ----------------------------------------------------------------------------
    @on(Input.Submitted, "#numbers")
    def _numbers_submitted(self, event: Input.Submitted) -> None:
        numbers = split_numbers(event.value, self.service.settings.region)
        if numbers:
            self.run_lookup(numbers)

    @work(group="lookup", exclusive=True, exit_on_error=False)
    async def run_lookup(self, numbers: list[str]) -> None:
        caption = self.query_one("#caption", Static)
        caption.update(literal(f"looking up {len(numbers)} {'number' if len(numbers) == 1 else 'numbers'}…", "dim"))
        try:
            answers = await self.service.lookup(numbers)
        except CorpdirError as exc:
            caption.update(literal(f"lookup failed: {exc}", "red"))
            return
        results = self.query_one("#results", VirtualList)
        results.source = ListSource(answer_rows(answers))
        found = sum(1 for a in answers if a.found)
        not_numbers = sum(1 for a in answers if a.error == NOT_A_NUMBER)
        failed = sum(1 for a in answers if a.error and a.error != NOT_A_NUMBER and not a.found)
        parts = [f"{len(answers)} asked", f"{found} found", f"{len(answers) - found - failed - not_numbers} not found"]
        if not_numbers:
            parts.append(f"{not_numbers} not {'a number' if not_numbers == 1 else 'numbers'}")
        if failed:
            parts.append(f"{failed} failed")
        caption.update(literal(" · ".join(parts), "dim"))
        region = self.service.settings.region
        for answer in reversed(answers):
            if answer.error != NOT_A_NUMBER:
                self.context.state.remember_lookup(self.profile, answer.query, lambda a, b: same_number(a, b, region))
        self._show_recent()
        results.focus()

    # -- events ------------------------------------------------------------------------------
    @on(VirtualList.Selected, "#recent")
    def _recent_chosen(self, event: VirtualList.Selected) -> None:
        self.query_one("#numbers", Input).value = event.row
        self.run_lookup([event.row])

    @on(VirtualList.Highlighted, "#results")
    def _result_highlighted(self, event: VirtualList.Highlighted) -> None:
        if event.row != self.selected:
            self.selected = event.row
            self.query_one(AnswerDetail).answer = event.row

    @on(VirtualList.Selected, "#results")
    def _result_opened(self, event: VirtualList.Selected) -> None:
        self.open_details(self.query_one(AnswerDetail), event.row, lambda: AnswerDetail(self.service, event.row))

    # -- actions -----------------------------------------------------------------------------
    def action_focus_numbers(self) -> None:
        self.set_focus(self.query_one("#numbers", Input))  # at once: keys after '/' are already queued

    def action_clear(self) -> None:
        numbers = self.query_one("#numbers", Input)
        numbers.value = ""
        numbers.focus()

    def action_forget(self) -> None:
        recent = self.query_one("#recent", VirtualList)
        if self.focused is recent and recent.highlighted is not None:
            self.context.state.forget_lookup(self.profile, recent.highlighted)
            self._show_recent()

    def action_copy_number(self) -> None:
        self.copy(self.selected.number if self.selected else None, "number")
