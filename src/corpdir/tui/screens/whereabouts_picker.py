"""Set where a person is (``w`` on a person): one of the tenant's destinations
(``[whereabouts]``) and a note such as "15:00戻り". The desk keeps it and sends it to the
service with the other changes of the minute (:mod:`corpdir.service.whereabouts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from corpdir.text import printable
from corpdir.tui.text import literal
from corpdir.tui.wide_space import WideSpaceTyping

if TYPE_CHECKING:
    from corpdir.config import Destination
    from corpdir.service.whereabouts import Whereabout


class WhereaboutsPicker(WideSpaceTyping, ModalScreen["tuple[Destination, str] | None"]):
    CSS_PATH = "whereabouts_picker.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="whereabouts.cancel")]

    def __init__(self, who: str, destinations: list[Destination], now: Whereabout | None = None) -> None:
        super().__init__()
        self.who = who
        self.destinations = destinations
        self.current = now

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(f"Where is {printable(self.who)}?", "bold"))
            yield Static(literal(f"Now: {self.current.shown}" if self.current else "Now: not set by this desk", "dim"))
            yield OptionList(*[Option(literal(d.name), id=str(d.id)) for d in self.destinations], id="whereabouts")
            yield Input(id="whereabouts-note", max_length=40, placeholder="note, e.g. 15:00戻り (optional)")
            yield Static(literal("⏎ on a place: set it · Tab: add a note first · Esc cancels", "dim"))

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = next((i for i, d in enumerate(self.destinations)
                                    if self.current and d.id == self.current.destination_id), 0)
        options.focus()

    @on(OptionList.OptionSelected)
    def _place_chosen(self) -> None:
        self._done()

    @on(Input.Submitted)
    def _note_done(self) -> None:
        self._done()

    def _done(self) -> None:
        index = self.query_one(OptionList).highlighted or 0
        self.dismiss((self.destinations[index], self.query_one(Input).value.strip()))

    def action_cancel(self) -> None:
        self.dismiss(None)
