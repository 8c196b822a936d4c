"""The desk view (F7): the people the desk puts calls through to, with their busy lamps:
its favourites, then those it has put through to most. ⏎ opens a person, b calls them,
t puts the call on the line through to them (blind), T announced, Esc or F7 closes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from corpdir.calls.events import CallState
from corpdir.tui.busy_lamps import LampsChanged
from corpdir.tui.screens.lamp_rows import where_of, LampRow, option, rows_of
from corpdir.tui.transfer_flow import desk_people, transfer

if TYPE_CHECKING:
    from corpdir.tui.desk_phone import DeskPhone


class DeskView(ModalScreen[None]):
    CSS_PATH = "desk_view.tcss"
    BINDINGS = [
        Binding("escape,q,f7", "app.pop_screen", "Close", id="desk.close"),
        Binding("b", "call", "Call", id="desk.call"),
        Binding("t", "put_through('blind')", "Put through", id="desk.transfer"),
        Binding("T", "put_through('announced')", "Announce", id="desk.announce"),
    ]

    def __init__(self, phone: DeskPhone) -> None:
        super().__init__()
        self.phone = phone
        self.rows: dict[str, LampRow] = {}
        self.sections: tuple[list[LampRow], list[LampRow]] = ([], [])

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Desk · ⏎ open  b call  t put through  T announce  Esc close", id="desk-help")
            yield Static(id="desk-lamps-source")
            yield OptionList(id="desk-people")

    def on_mount(self) -> None:
        self.load()
        self.query_one(OptionList).focus()

    @work(group="desk-view", exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        favourites, most = await desk_people(self.phone)
        self.sections = (rows_of(favourites), rows_of(most))
        self.phone.lamps.keep(row.extension for row in self.sections[0])
        self.phone.lamps.show(row.extension for row in self.sections[1])
        self.paint()

    def paint(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        self.rows.clear()
        width = max(10, options.size.width - 24 if options.size.width else 30)
        for heading, rows in (("★ Favourites", self.sections[0]), ("Put through most", self.sections[1])):
            options.add_option(Option(Text(heading, style="bold"), disabled=True))
            if not rows:
                options.add_option(Option(Text("  (none yet)", style="dim"), disabled=True))
            for row in rows:
                oid = f"row-{len(self.rows)}"
                self.rows[oid] = row
                options.add_option(option(row, self.phone.lamps, width, oid, where_of(self.app, row)))
        presence = self.phone.lamps.presence
        self.query_one("#desk-lamps-source", Static).update(
            Text("busy lamps: " + (presence.state if presence is not None else "none configured ([calls.presence])"),
                 style="dim"))
        if highlighted is not None and highlighted < options.option_count:
            options.highlighted = highlighted
        else:
            options.action_first()

    def on_lamps_changed(self, message: LampsChanged) -> None:
        self.paint()

    def _selected(self) -> LampRow | None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return None
        return self.rows.get(options.get_option_at_index(options.highlighted).id or "")

    @on(OptionList.OptionSelected)
    def _open(self, event: OptionList.OptionSelected) -> None:
        row = self.rows.get(event.option.id or "")
        if row is not None:
            self.phone.open_record("user", row.record)

    def action_call(self) -> None:
        if (row := self._selected()) is not None:
            self.phone.dial(row.number)

    def action_put_through(self, kind: str) -> None:
        """The newest call on the line (answered, else ringing) goes to the person highlighted."""
        row = self._selected()
        rings = [r for r in self.phone.session.rings if r.event.state is not CallState.ENDED]
        ring = next((r for r in rings if r.event.state is CallState.ANSWERED), rings[0] if rings else None)
        if row is None or ring is None:
            self.notify("No call to put through" if row is not None else "Choose a person first", timeout=2)
            return
        if kind not in self.phone.session.transfers(ring):
            self.notify(f"This call cannot be put through ({kind})", severity="warning", timeout=3)
            return
        self.app.run_worker(transfer(self.phone, ring, kind, (row.number, f"{row.name} ({row.number})", row)),
                            group="transfer", exit_on_error=False)
