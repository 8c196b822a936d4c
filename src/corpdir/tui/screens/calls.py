"""Your calls: incoming (H1) and outgoing (H4) history, newest or oldest first, all,
answered or missed, each with who it was.

Who a call was comes from the call record (fromNumContact / toNumContact); when the record
names no one, the number is looked up in the cache's phone index (however it is written),
else the row says "unknown". The list paints from the cache at once; each direction is
refreshed from the API once per visit (and on Ctrl+R). Filter and order answer from the cache.

The desk's views: incoming, the missed calls nobody has returned yet come first ("call
back"; h marks one handled by hand, kept per profile in local state); b calls back
through the desk's dialer, O opens the caller's person or contact, S saves an unknown
number as a new contact, * makes the caller a favourite (F8), t shows
answered and missed calls per day for the last 30 days.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static, Tab, Tabs

from corpdir.service.errors import CorpdirError
from corpdir.service.handled_calls import HandledCalls
from corpdir.spec.calls import IncomingCall, OutgoingCall
from corpdir.tui.context import AppContext
from corpdir.tui.record_writes.call_records import CallRecordWrites
from corpdir.tui.screens.list_screen import ListScreen
from corpdir.tui.text import literal
from corpdir.tui.widgets.call_detail import CallDetail, CallRow, local_time, minutes
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.list_columns import Column, number_column
from corpdir.tui.widgets.row_sources import ListSource
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar
from corpdir.tui.widgets.virtual_list import VirtualList

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

ANSWERED_CYCLE: tuple[bool | None, ...] = (None, True, False)
ANSWERED_NAMES = {None: "all calls", True: "answered only", False: "missed only"}
CODES = {"incoming": "H1", "outgoing": "H4"}


def call_columns(region: str) -> list[Column]:
    return [
        Column("Time", lambda r: local_time(r.at), width=16),
        number_column("Number", lambda r: r.number, region, width=15),
        Column("Who", lambda r: r.who_text, min_width=10, ratio=3),
        Column("Outcome", lambda r: r.outcome, width=9),
        Column("Dur.", lambda r: minutes(r.record.duration), width=5),
        Column("Note", lambda r: r.record.note, min_width=4, ratio=2),
    ]


@dataclass(frozen=True)
class CallView:
    direction: str = "incoming"
    answered: bool | None = None
    newest_first: bool = True

    def caption(self, count: int) -> str:
        order = "newest first" if self.newest_first else "oldest first"
        return f"{self.direction.title()} · {ANSWERED_NAMES[self.answered]} · {order} · {count} {'call' if count == 1 else 'calls'}"


async def call_rows(service: DirectoryService, direction: str, records: list[IncomingCall | OutgoingCall]) -> list[CallRow]:
    """Rows with who each call was: the record's contact, else the cache's phone index."""
    def named(record: Any) -> dict[str, Any]:
        contact = record.fromNumContact if direction == "incoming" else record.toNumContact
        return contact.model_dump(exclude_none=True) if contact is not None and contact.displayName else {}

    rows = [CallRow(direction, r, named(r), "record") for r in records]
    unknown = [row.number for row in rows if not row.who]
    found = await service.identify_cached(unknown)
    return [row if row.who else replace(row, who=found[row.number][0], who_source="cache")
            if found.get(row.number) else replace(row, who_source="") for row in rows]


class CallsScreen(ListScreen):
    CSS_PATH = "calls.tcss"
    BINDINGS = [
        Binding("i", "direction('incoming')", "Incoming", id="calls.incoming"),
        Binding("o", "direction('outgoing')", "Outgoing", id="calls.outgoing"),
        Binding("a", "cycle_answered", "All/answered/missed", id="calls.answered"),
        Binding("r", "reverse_order", "Newest/oldest", id="calls.order"),
        Binding("c", "copy_number", "Copy no.", id="calls.copy_number"),
        Binding("b", "call_back", "Call back", id="calls.call_back"),
        Binding("O", "open_who", "Open person", id="calls.open_who"),
        Binding("S", "save_contact", "Save as contact", show=False, id="calls.save_contact"),
        Binding("h", "mark_handled", "Handled", show=False, id="calls.handled"),
        Binding("t", "chart", "Chart", id="calls.chart"),
        Binding("ctrl+r", "refresh", "Refresh", show=False, id="calls.refresh"),
        Binding("n", "new_call", "Add record", show=False, id="calls.new"),
        Binding("E", "edit", "Edit", id="calls.edit"),
    ]
    WRITES = frozenset({"new_call", "edit", "save_contact", "mark_handled"})

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.view = CallView()
        self.selected: CallRow | None = None
        self._refreshed: set[str] = set()
        self.handled = HandledCalls(context.state, context.profile)
        self.tabs = Tabs(Tab("Incoming (i)", id="incoming"), Tab("Outgoing (o)", id="outgoing"), id="direction")
        self.caption = Static(id="caption")
        self.call_list = VirtualList(call_columns(self.service.settings.region), empty_text="No calls.", id="calls")
        self.detail = CallDetail(self.service.settings.region, id="detail")
        self.writes = CallRecordWrites(self, context, saved=lambda: self.load(self.view))

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="calls-body"):
            with Vertical(id="middle"):
                yield self.tabs
                yield self.caption
                yield self.call_list
            yield self.detail
        yield StatusBar(self.context, id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        if not (self.service.offers("H1") or self.service.offers("H4")):
            self.call_list.empty_text = (
                "This service does not offer call histories (H1/H4): only the cache, if any, is shown.")
        self.show_rows()
        self.call_list.focus()

    # -- what the list shows -----------------------------------------------------------------
    def show_rows(self, refresh_api: bool = False) -> None:
        if refresh_api:
            self._refreshed.discard(self.view.direction)
        self.load(self.view)

    @work(group="calls-load", exclusive=True, exit_on_error=False)
    async def load(self, view: CallView) -> None:
        calls = self.call_list
        calls.source = ListSource(await self.rows(view))
        if view.direction in self._refreshed or not self.service.offers(CODES[view.direction]):
            return
        try:
            await self.service.calls.refresh(view.direction)
        except CorpdirError as exc:
            self.notify(f"Could not refresh the {view.direction} calls: {exc}", severity="warning", timeout=4)
            return
        self._refreshed.add(view.direction)
        if view == self.view:
            calls.source = ListSource(await self.rows(view))

    async def rows(self, view: CallView) -> list[CallRow]:
        """The view's calls; incoming, the missed ones not yet called back come first."""
        records = await self.service.calls.cached(view.direction, answered=view.answered, newest_first=view.newest_first)
        rows = await call_rows(self.service, view.direction, records)
        if view.direction != "incoming":
            return rows
        handled = self.handled.ids()
        pending = await self.context.desk_phone.desk.to_return(handled)
        marked = [replace(r, call_back=r.record.incomingCallHistoryId in pending,
                          handled=r.record.incomingCallHistoryId in handled) for r in rows]
        return [r for r in marked if r.call_back] + [r for r in marked if not r.call_back]

    @on(VirtualList.Loaded, "#calls")
    def _count_known(self, event: VirtualList.Loaded) -> None:
        self.caption.update(literal(self.view.caption(event.count), "dim"), layout=False)  # one line: no re-layout

    # -- events ------------------------------------------------------------------------------
    @on(Tabs.TabActivated, "#direction")
    def _tab_chosen(self, event: Tabs.TabActivated) -> None:
        if event.tab.id and event.tab.id != self.view.direction:
            self.view = replace(self.view, direction=event.tab.id)
            self.show_rows()

    @on(VirtualList.Highlighted, "#calls")
    def _call_highlighted(self, event: VirtualList.Highlighted) -> None:
        if event.row != self.selected:
            self.selected = event.row
            self.detail.call = event.row

    @on(VirtualList.Selected, "#calls")
    def _call_opened(self, event: VirtualList.Selected) -> None:
        self.open_details(self.detail, event.row, lambda: CallDetail(self.service.settings.region, event.row))

    # -- actions -----------------------------------------------------------------------------
    def action_direction(self, direction: str) -> None:
        self.tabs.active = direction  # TabActivated reloads
        self.call_list.focus()

    def action_cycle_answered(self) -> None:
        following = ANSWERED_CYCLE[(ANSWERED_CYCLE.index(self.view.answered) + 1) % len(ANSWERED_CYCLE)]
        self.view = replace(self.view, answered=following)
        self.show_rows()

    def action_reverse_order(self) -> None:
        self.view = replace(self.view, newest_first=not self.view.newest_first)
        self.show_rows()

    def action_call_back(self) -> None:
        self.context.desk_phone.dial(self.selected.number if self.selected else "")

    @work(group="calls-open", exclusive=True, exit_on_error=False)
    async def action_open_who(self) -> None:
        """The caller's (or called) person or contact, full screen."""
        phone = self.context.desk_phone
        record = await phone.desk.record_for(self.selected.who) if self.selected else None
        if record is None:
            self.notify("No one in the directory has this number: S saves it as a new contact", timeout=4)
            return
        phone.open_record("user" if self.selected.who.get("userId") else "contact", record)

    def action_save_contact(self) -> None:
        if self.selected is None or not self.selected.number:
            self.notify("Choose a call with a number first", severity="warning", timeout=2)
            return
        if self.selected.who:
            self.notify(f"{self.selected.name} already has this number: O opens the record", timeout=4)
            return
        from corpdir.tui.desk_phone import new_contact_form

        # The rows read again once it is saved: the caller is named at once, not after Ctrl+R.
        self.run_worker(new_contact_form(self.app, self.selected.number, then=lambda _: self.load(self.view)),
                        group="save-contact", exit_on_error=False)

    def action_mark_handled(self) -> None:
        """A missed call the desk dealt with otherwise (called back from another phone):
        out of "call back" with the earlier ones from its number; h again undoes it."""
        row = self.selected
        if row is None or row.direction != "incoming" or row.record.answered is not False:
            self.notify("Only a missed incoming call can be marked handled", severity="warning", timeout=3)
            return
        if not (row.call_back or row.handled):
            self.notify("This call was returned already", timeout=3)
            return
        now_handled = self.handled.toggle(row.record.incomingCallHistoryId)
        self.notify(f"Marked handled: {row.number}" if now_handled else f"Back in call back: {row.number}", timeout=3)
        self.load(self.view)

    def action_chart(self) -> None:
        from corpdir.tui.screens.calls_chart import CallsChart

        self.app.push_screen(CallsChart(self.service))

    # -- writes ------------------------------------------------------------------------------
    def action_new_call(self) -> None:
        self.writes.new(self.view.direction)

    def action_edit(self) -> None:
        if self.selected is None:
            self.notify("Choose a call first", severity="warning", timeout=2)
        else:
            self.writes.edit(self.selected)
