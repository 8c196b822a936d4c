"""External contacts: the address books (shared and personal folders), the contacts of
the chosen one, a filter bar with every X1 filter, and the chosen contact's details with
its business card; the writes of contacts, their card images and personal folders (none
on a read-only terminal) through :class:`ContactWrites` and :class:`FolderWrites`.

Browsing reads windows of rows from the cache, then refreshes the folder from X1.
Searching is the façade's (:meth:`DirectoryService.search_contacts`): the cache's folded
index answers as you type, then X1 (freeWords and the filters, within the chosen folder)
when typing pauses. A filter that does not parse (a date) is shown as an error beside the
field and nothing is sent.
"""

from __future__ import annotations

from dataclasses import replace

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input

from corpdir.service.errors import CorpdirError
from corpdir.spec.contact import Contact
from corpdir.tui.context import AppContext
from corpdir.tui.labels import first_phone
from corpdir.tui.record_writes.contacts import ContactWrites
from corpdir.tui.record_writes.folders import FolderWrites
from corpdir.tui.screens.contacts_browse import ContactBrowse
from corpdir.tui.screens.list_screen import SearchedListScreen
from corpdir.tui.widgets.contact_detail import ContactDetail
from corpdir.tui.widgets.contact_filters import ContactFilters
from corpdir.tui.widgets.folder_tree import FolderTree
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.list_columns import Column, number_column
from corpdir.tui.widgets.row_sources import RankedRows
from corpdir.tui.widgets.searchable_list import SearchableList, empty_text, fit_caption
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar

def contact_columns(region: str) -> list[Column]:
    return [
        Column("Name", lambda c: c.fullname, min_width=8, ratio=3),
        Column("Company", lambda c: c.companyName, min_width=8, ratio=3),
        number_column("Phone", first_phone, region, width=15),
        Column("Division", lambda c: c.divisionName, min_width=6, ratio=2),
    ]


class ContactsScreen(SearchedListScreen):
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

    WRITES = frozenset({"new_contact", "edit", "delete", "from_card", "card_replace", "card_delete", "new_folder",
                        "edit_folder"})

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.browse = ContactBrowse()
        self.selected: Contact | None = None
        self.folders = FolderTree(self.service, id="folders")
        self.filters = ContactFilters(id="filters")
        self.listed = self.contacts = SearchableList(contact_columns(self.service.settings.region), filters=self.filters, list_id="contacts", id="middle",
                                       placeholder="Search name, kana, company, number…  (/)",
                                       empty_text="No contacts here.")
        self.detail = ContactDetail(self.service, id="detail")
        self.contact_writes = ContactWrites(self, context, saved=self._contact_saved, deleted=self._contact_deleted,
                                            card_changed=self._card_changed, card_sent=self.action_refresh)
        self.folder_writes = FolderWrites(self, context, changed=self._folders_changed)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="contacts-body"):
            yield self.folders
            yield self.contacts
            yield self.detail
        yield StatusBar(self.context, id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_rows()
        self.contacts.focus_list()

    # -- what the list shows -----------------------------------------------------------------
    def show_rows(self, refresh_api: bool = False) -> None:
        if self.browse.searching:
            self.run_search(self.browse)
        else:
            self.contacts.source = self.service.contacts.of_folder(self.browse.scope.directory, self.browse.scope.folder_num)
            if refresh_api and self.browse.scope.directory and self.service.offers("X1"):
                self.refresh_scope(self.browse)

    @on(SearchableList.Counted)
    def _count_known(self) -> None:
        self.show_count()

    def show_count(self) -> None:
        """The caption (what the list shows, how many) and what an empty list says; a
        service without X1 has no contacts to show at all."""
        syncing = self.context.sync.syncing
        empty = empty_text(self.browse, syncing=syncing, offline=self.service.online is False) \
            if self.service.offers("X1") else "This service does not offer external contacts."
        self.contacts.show_count(
            lambda count, more, width: fit_caption(self.browse.caption(count, more=more, syncing=syncing), width), empty)

    @work(group="contacts-refresh", exclusive=True, exit_on_error=False)
    async def refresh_scope(self, browse: ContactBrowse) -> None:
        try:
            await self.service.contacts.list_remote(orderBy="fullname", **browse.scope_query())
        except CorpdirError as exc:
            self.notify(f"Could not refresh {browse.scope.name}: {exc}", severity="warning", timeout=4)
            return
        if browse == self.browse:
            self.contacts.reload()

    @work(group="contacts-search", exclusive=True, exit_on_error=False)
    async def run_search(self, browse: ContactBrowse) -> None:
        """The façade's answers, each shown as it comes (the next keystroke cancels this)."""
        answers = self.service.search.contacts(browse.text, dict(browse.filters), directory=browse.scope.directory,
                                               folder_num=browse.scope.folder_num)
        async for answer in answers:
            if browse != self.browse:
                return
            self.contacts.source = RankedRows(answer.ids, self.service.contacts.by_id, lambda c: c.contactId,
                                              answer.known, answer.more)
            if answer.unfiltered:
                self.notify("This service cannot filter contacts (no X1); showing the search of the cache", timeout=4)
            if answer.error is not None:
                self.notify(f"Search on the service failed, showing the cache: {answer.error}", severity="warning",
                            timeout=4)

    # -- events ------------------------------------------------------------------------------
    @on(FolderTree.ScopeSelected)
    def _scope_chosen(self, event: FolderTree.ScopeSelected) -> None:
        self.browse = replace(self.browse, scope=event.scope)
        self.show_rows(refresh_api=True)
        self.contacts.focus_list()

    @on(FolderTree.LoadFailed)
    def _folders_failed(self, event: FolderTree.LoadFailed) -> None:
        self.notify(f"Folders could not be refreshed: {event.error}", severity="warning", timeout=4)

    @on(SearchableList.FiltersChanged)
    def _filters_changed(self) -> None:
        filters, errors = self.filters.values()
        if errors:
            return  # a half-typed date: the error shows beside the fields, nothing is sent
        if filters != self.browse.filters:
            self.browse = replace(self.browse, filters=filters)
            self.contacts.show_filters(self.filters, bool(filters))
            self.show_rows()

    @on(Input.Submitted, "#filters Input")
    def _filters_submitted(self) -> None:
        self.contacts.focus_list()

    @on(SearchableList.Highlighted)
    def _contact_highlighted(self, event: SearchableList.Highlighted) -> None:
        if self.selected is None or event.row.contactId != self.selected.contactId or event.row != self.selected:
            self.selected = contact = event.row
            self.show_details_soon(lambda: setattr(self.detail, "contact", contact))

    @on(SearchableList.Opened)
    def _contact_opened(self, event: SearchableList.Opened) -> None:
        self.open_details(self.detail, event.row, lambda: ContactDetail(self.service, event.row))

    # -- actions -----------------------------------------------------------------------------
    def action_toggle_filters(self) -> None:
        self.filters.toggle_class("-shown")
        if self.filters.has_class("-shown"):
            self.filters.query_one(Input).focus()
        else:
            self.contacts.focus_list()

    def action_export(self) -> None:
        from corpdir.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.service, "contacts", self.contacts.source))

    # -- writes ------------------------------------------------------------------------------
    def _folder(self) -> tuple[str, int] | None:
        """The folder shown, where a new contact goes."""
        scope = self.browse.scope
        return (scope.directory, scope.folder_num) if scope.directory and scope.folder_num is not None else None

    def action_new_contact(self) -> None:
        self.contact_writes.new(self._folder())

    def action_edit(self) -> None:
        if self.selected is None:
            self.notify("Choose a contact first", severity="warning", timeout=2)
        else:
            self.contact_writes.edit(self.selected)

    def action_delete(self) -> None:
        if self.selected is not None:
            self.contact_writes.delete(self.selected)

    def action_from_card(self) -> None:
        self.contact_writes.from_card(self._folder())

    def action_card_replace(self) -> None:
        if self.selected is not None:
            self.contact_writes.replace_card(self.selected)

    def action_card_delete(self) -> None:
        if self.selected is not None:
            self.contact_writes.delete_card(self.selected)

    def action_new_folder(self) -> None:
        self.folder_writes.new()

    def action_edit_folder(self) -> None:
        self.folder_writes.edit(self.browse.scope)

    def _contact_saved(self, contact: Contact) -> None:
        self.selected = contact
        self.detail.contact = contact
        self._folders_changed()

    def _folders_changed(self) -> None:
        """The list and the folder tree (with its counts) read again."""
        self.contacts.reload()
        self.folders.load()

    def _contact_deleted(self, contact: Contact) -> None:
        self.contacts.forget(contact.contactId)
        self.selected = None
        self.detail.contact = None
        self.folders.load()  # the folder's count follows

    def _card_changed(self, contact: Contact) -> None:
        """The pane shows the card as it is now (if it still shows that contact)."""
        if self.detail.contact is not None and self.detail.contact.contactId == contact.contactId:
            self.detail.contact = self.detail.contact
