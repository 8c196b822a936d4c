"""Today's message slips (F6): each message the desk took, for whom, from whom, and
whether it reached the person (e-mailed at 10:43, not delivered and why, maybe delivered).
``r`` sends the highlighted one again; older slips not yet delivered are listed too."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from corpdir.phone import for_display
from corpdir.text import printable
from corpdir.tui.text import cell, literal

if TYPE_CHECKING:
    from corpdir.calls.messages.courier import MessageCourier
    from corpdir.calls.messages.slips import Slip


class SlipsScreen(ModalScreen[None]):
    CSS_PATH = "slips.tcss"
    BINDINGS = [
        Binding("escape,q,f6", "app.pop_screen", "Close", id="slips.close"),
        Binding("r", "resend", "Send again", id="slips.resend"),
    ]

    def __init__(self, courier: MessageCourier, day: datetime | None = None) -> None:
        """``day``: whose slips (default today)."""
        super().__init__()
        self.courier = courier
        self.day = day

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Message slips, today and any not delivered · r send again  Esc close", id="slips-help")
            yield DataTable(id="slips", cursor_type="row", zebra_stripes=True)
            yield Static(id="slips-detail")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Taken", "For", "From", "Wants", "State")
        self.fill()
        table.focus()

    def fill(self) -> None:
        """Newest first; the highlighted slip stays highlighted."""
        table = self.query_one(DataTable)
        keep = table.cursor_row
        table.clear()
        slips = list(reversed(self.courier.book.of_day(self.day)))
        for slip in slips:
            table.add_row(slip.taken.strftime("%H:%M" if slip.taken.date() == (self.day or datetime.now()).astimezone().date() else "%m-%d %H:%M"),
                          cell(slip.for_name, 10), cell(slip.caller_name or for_display(slip.caller_number), 14),
                          cell(slip.outcome.brief, 11), _state(slip), key=slip.id)
        if not slips:
            self.query_one("#slips-detail", Static).update(literal("No messages taken today.", "dim"))
        elif keep < len(slips):
            table.move_cursor(row=keep)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        slip = self.courier.book.get(event.row_key.value or "")
        if slip is not None:
            said = literal(f"{slip.outcome.japanese} · {for_display(slip.caller_number)} · {slip.text or '(no text)'}")
            said.append("\n")  # its own line: literal() turns a newline into a visible mark
            said.append_text(literal(slip.status))
            self.query_one("#slips-detail", Static).update(said)

    def action_resend(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return
        slip_id = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or ""
        self.run_worker(self._resend(slip_id), group="slip-resend", exclusive=True, exit_on_error=False)

    async def _resend(self, slip_id: str) -> None:
        slip = await self.courier.resend(slip_id)
        if slip is not None:
            self.notify(f"{printable(slip.for_name)}: {slip.status}", severity="information" if slip.state.delivered else "warning",
                        timeout=4)


def _state(slip: Slip) -> str:
    """The status without its reason (the line below the list has it)."""
    return cell(slip.status if slip.state.delivered else slip.status.split(":")[0].removesuffix(", retrying"), 22)
