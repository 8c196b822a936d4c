"""Putting a call through (``t`` blind, ``T`` announced on a call's card): whom to.

Type to search the directory (names, kana) or type a number (full width is folded); the
people listed carry their busy lamp and are sorted free first; with nothing typed the
desk view's people are listed (favourites, most put through). Enter on a person puts the
call through to their extension (else their first number); Enter in the box with no one
listed puts it through to the number typed. For an announced transfer the desk then
speaks to the target (:class:`Announcing`): c completes, r returns to the caller."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from corpdir.calls.dialers import dial_string
from corpdir.calls.transfer import ANNOUNCED
from corpdir.text import printable
from corpdir.tui.busy_lamps import LampsChanged
from corpdir.tui.screens.lamp_rows import where_of, LampRow, by_lamp, option, rows_of
from corpdir.tui.wide_space import WideSpaceTyping

if TYPE_CHECKING:
    from corpdir.tui.busy_lamps import BusyLamps

Target = tuple[str, str, "LampRow | None"]  # the number, who (for the notice), the person picked (None: typed)


class TransferPicker(WideSpaceTyping, ModalScreen["Target | None"]):
    CSS_PATH = "transfer_picker.tcss"
    BINDINGS = [Binding("escape", "app.pop_screen", "Cancel", id="transfer.cancel"),
                Binding("down", "to_list", "List", show=False, id="transfer.to_list")]

    def __init__(self, caller: str, kind: str, lamps: BusyLamps, start: list[Any]) -> None:
        """``start``: the people listed before anything is typed (users)."""
        super().__init__()
        self.caller = caller
        self.kind = kind
        self.lamps = lamps
        self.start = rows_of(start)
        self.rows: list[LampRow] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            verb = "Announce" if self.kind == ANNOUNCED else "Put through"
            yield Static(f"{verb} {printable(self.caller)} to … · ⏎ choose  Esc cancel", id="transfer-help")
            yield Input(placeholder="name, kana or number", id="transfer-query")
            yield OptionList(id="transfer-people")

    def on_mount(self) -> None:
        self.show(self.start)
        self.query_one(Input).focus()

    def show(self, rows: list[LampRow]) -> None:
        self.rows = rows
        self.lamps.show(row.extension for row in rows)
        self.paint()

    def paint(self) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        self.rows = by_lamp(self.rows, self.lamps)
        width = max(10, options.size.width - 24 if options.size.width else 30)
        options.add_options([option(row, self.lamps, width, f"row-{i}", where_of(self.app, row)) for i, row in enumerate(self.rows)])
        if self.rows:
            options.highlighted = 0

    def on_lamps_changed(self, message: LampsChanged) -> None:
        if any(row.extension in message.extensions for row in self.rows):
            self.paint()

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        self.search(event.value)

    @work(group="transfer-search", exclusive=True, exit_on_error=False)
    async def search(self, query: str) -> None:
        query = query.strip()
        if not query:
            self.show(self.start)
            return
        if dial_string(query) and not any(ch.isalpha() for ch in query):
            self.show([row for row in self.start if dial_string(query) in (row.extension, dial_string(row.number))])
            return
        _ids, users = await self.app.service.search.users(query, limit=50, first=50)
        self.show(rows_of(users))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        options = self.query_one(OptionList)
        if self.rows and options.highlighted is not None:
            self._pick(self.rows[options.highlighted])
        elif number := dial_string(event.value):
            self.dismiss((number, number, None))
        else:
            self.notify("Type a name or a number", severity="warning", timeout=2)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._pick(self.rows[event.option_index])

    def _pick(self, row: LampRow) -> None:
        self.dismiss((dial_string(row.number), f"{row.name} ({row.number})", row))

    def action_to_list(self) -> None:
        self.query_one(OptionList).focus()
