"""External contacts: the address books (shared and personal folders), the contacts of
the chosen one, a filter bar with every X1 filter, and the chosen contact's details with
its business card.

Browsing reads windows of rows from the cache, then refreshes the folder from X1.
Searching is the façade's (:meth:`Search.contacts <corpdir.service.search.Search.contacts>`): the cache's folded
index answers as you type, then X1 (freeWords and the filters, within the chosen folder)
when typing pauses. A filter that does not parse (a date) is shown as an error beside the
field and nothing is sent.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Input, Select, Static

from corpdir.service.errors import CorpdirError
from corpdir.spec.contact import Contact
from corpdir.tui.labels import first_phone
from corpdir.tui.screens.contacts_browse import ContactBrowse
from corpdir.tui.screens.contacts_writes import ContactsWrites
from corpdir.tui.widgets.contact_detail import ContactDetail
from corpdir.tui.widgets.contact_filters import ContactFilters
from corpdir.tui.widgets.folder_tree import FolderTree
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.search_box import SearchBox
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar
from corpdir.tui.widgets.virtual_list import Column, RankedRows, VirtualList

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

CONTACT_COLUMNS = [
    Column("Name", lambda c: c.fullname, min_width=8, ratio=3),
    Column("Company", lambda c: c.companyName, min_width=8, ratio=3),
    Column("Phone", first_phone, width=15),
    Column("Division", lambda c: c.divisionName, min_width=6, ratio=2),
]


class ContactsScreen(ContactsWrites):
    CSS_PATH = "contacts.tcss"
    BINDINGS = [
        Binding("slash", "focus_search", "Search", id="contacts.search", priority=True),
        Binding("f", "toggle_filters", "Filters", id="contacts.filters"),
        Binding("c", "copy_number", "Copy no.", id="contacts.copy_number"),
        Binding("e", "copy_email", "Copy e-mail", id="contacts.copy_email"),
        Binding("J", "jump_row", "Jump", id="contacts.jump_row"),
        Binding("ctrl+r", "refresh", "Refresh", show=False, id="contacts.refresh"),
        Binding("escape", "clear_search", "Clear", show=False, id="contacts.clear"),
        Binding("n", "new_contact", "New contact", show=False, id="contacts.new"),
        Binding("E", "edit", "Edit", id="contacts.edit"),
        Binding("delete", "delete", "Delete", show=False, id="contacts.delete"),
        Binding("K", "from_card", "New from card image", show=False, id="contacts.from_card"),
        Binding("i", "card_replace", "Replace card image", show=False, id="contacts.card_replace"),
        Binding("I", "card_delete", "Delete card image", show=False, id="contacts.card_delete"),
        Binding("F", "new_folder", "New personal folder", show=False, id="contacts.new_folder"),
        Binding("R", "edit_folder", "Edit personal folder", show=False, id="contacts.edit_folder"),
        Binding("x", "export", "Export list", show=False, id="contacts.export"),
    ]

    LIST = "#contacts"

    def __init__(self, service: DirectoryService) -> None:
        super().__init__(service)
        self.browse = ContactBrowse()
        self.selected: Contact | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="contacts-body"):
            yield FolderTree(self.service, id="folders")
            with Vertical(id="middle"):
                yield SearchBox(placeholder="Search name, kana, company, number…  (/)", id="search")
                yield ContactFilters(id="filters")
                yield Static(id="filter-summary")
                yield Static(id="caption")
                yield VirtualList(CONTACT_COLUMNS, empty_text="No contacts here.", id="contacts")
            yield ContactDetail(self.service, id="detail")
        yield StatusBar(self.service, id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#contacts", VirtualList).focus()

    # -- what the list shows -----------------------------------------------------------------
    def _show(self, refresh_api: bool = False) -> None:
        contacts = self.query_one("#contacts", VirtualList)
        if self.browse.searching:
            self.run_search(self.browse)
        else:
            contacts.source = self.service.contacts.of_folder(self.browse.scope.directory, self.browse.scope.folder_num)
            if refresh_api and self.browse.scope.directory and self.service.offers("X1"):
                self.refresh_scope(self.browse)

    @on(VirtualList.Loaded, "#contacts")
    def _count_known(self, event: VirtualList.Loaded) -> None:
        self.show_count()

    def empty_text(self, syncing: bool) -> str:
        if not self.service.offers("X1"):
            return "This service does not offer external contacts."
        return super().empty_text(syncing)

    @work(group="contacts-refresh", exclusive=True, exit_on_error=False)
    async def refresh_scope(self, browse: ContactBrowse) -> None:
        try:
            await self.service.contacts.list_remote(orderBy="fullname", **browse.scope_query())
        except CorpdirError as exc:
            self.notify(f"Could not refresh {browse.scope.name}: {exc}", severity="warning", timeout=4)
            return
        if browse == self.browse:
            self.query_one("#contacts", VirtualList).reload()

    @work(group="contacts-search", exclusive=True, exit_on_error=False)
    async def run_search(self, browse: ContactBrowse) -> None:
        """The façade's answers, each shown as it comes (the next keystroke cancels this)."""
        contacts = self.query_one("#contacts", VirtualList)
        answers = self.service.search.contacts(browse.text, dict(browse.filters), directory=browse.scope.directory,
                                               folder_num=browse.scope.folder_num)
        async for answer in answers:
            if browse != self.browse:
                return
            contacts.source = RankedRows(answer.ids, self.service.contacts.by_id, lambda c: c.contactId, answer.known,
                                         answer.more)
            if answer.unfiltered:
                self.notify("This service cannot filter contacts (no X1); showing the search of the cache", timeout=4)
            if answer.error is not None:
                self.notify(f"Search on the service failed, showing the cache: {answer.error}", severity="warning",
                            timeout=4)

    # -- events ------------------------------------------------------------------------------
    @on(FolderTree.ScopeSelected)
    def _scope_chosen(self, event: FolderTree.ScopeSelected) -> None:
        self.browse = replace(self.browse, scope=event.scope)
        self._show(refresh_api=True)
        self.query_one("#contacts", VirtualList).focus()

    @on(FolderTree.LoadFailed)
    def _folders_failed(self, event: FolderTree.LoadFailed) -> None:
        self.notify(f"Folders could not be refreshed: {event.error}", severity="warning", timeout=4)

    @on(Input.Changed, "#filters Input")
    @on(Select.Changed, "#filters Select")
    @on(Checkbox.Changed, "#filters Checkbox")
    def _filters_changed(self) -> None:
        filters, errors = self.query_one(ContactFilters).values()
        if errors:
            return  # a half-typed date: the error shows beside the fields, nothing is sent
        if filters != self.browse.filters:
            self.browse = replace(self.browse, filters=filters)
            self.show_filter_summary()
            self._show()

    @on(Input.Submitted, "#filters Input")
    def _filters_submitted(self) -> None:
        self.query_one("#contacts", VirtualList).focus()

    @on(VirtualList.Highlighted, "#contacts")
    def _contact_highlighted(self, event: VirtualList.Highlighted) -> None:
        if self.selected is None or event.row.contactId != self.selected.contactId or event.row != self.selected:
            self.selected = contact = event.row
            detail = self.query_one(ContactDetail)
            self.show_details_soon(lambda: setattr(detail, "contact", contact))

    @on(VirtualList.Selected, "#contacts")
    def _contact_opened(self, event: VirtualList.Selected) -> None:
        self.open_details(self.query_one(ContactDetail), lambda: ContactDetail(self.service, event.row))

    # -- actions -----------------------------------------------------------------------------
    def action_toggle_filters(self) -> None:
        filters = self.query_one(ContactFilters)
        filters.toggle_class("-shown")
        if filters.has_class("-shown"):
            filters.query_one(Input).focus()
        else:
            self.query_one("#contacts", VirtualList).focus()

    def action_export(self) -> None:
        from corpdir.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.service, "contacts", self.query_one("#contacts", VirtualList).source))
