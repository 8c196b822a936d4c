"""External contacts: the address books (shared and personal folders), the contacts of
the chosen one, a filter bar with every X1 filter, and the chosen contact's details with
its business card.

Browsing reads windows of rows from the cache, then refreshes the folder from X1. Typing
a search answers from the cache's folded index at once, then asks X1 (freeWords and the
filters, within the chosen folder) and shows the service's answer when it comes. A filter
that does not parse (a date) is shown as an error beside the field and nothing is sent.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any, Sequence

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.validation import Function
from textual.widgets import Checkbox, Input, Select, Static

from corpdir.client.errors import CorpdirError
from corpdir.spec.contact import Contact
from corpdir.spec.enums import OcrResult, OcrStatus, OcrType
from corpdir.tui.labels import first_phone
from corpdir.tui.screens.list_screen import SearchListScreen, typing_paused
from corpdir.tui.text import literal
from corpdir.tui.widgets.contact_detail import ContactDetail
from corpdir.tui.widgets.folder_tree import FolderScope, FolderTree
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.search_box import SearchBox
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar
from corpdir.tui.widgets.virtual_list import Column, ListSource, VirtualList

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService



CONTACT_COLUMNS = [
    Column("Name", lambda c: c.fullname, min_width=8, ratio=3),
    Column("Company", lambda c: c.companyName, min_width=8, ratio=3),
    Column("Phone", first_phone, width=15),
    Column("Division", lambda c: c.divisionName, min_width=6, ratio=2),
]


SEARCH_LIMIT = 500  # contacts asked of X1 per search


def parse_day(text: str) -> date | None:
    """A date as typed in the filter bar: YYYY-MM-DD (also YYYY/MM/DD); None if it is not one."""
    try:
        return date.fromisoformat(text.strip().replace("/", "-"))
    except ValueError:
        return None


def day_bound(day: date, end: bool) -> datetime:
    """The first (or last) moment of ``day`` in local time, with its offset (X1 wants one)."""
    return datetime.combine(day, time.max if end else time.min).astimezone()


@dataclass(frozen=True)
class ContactBrowse:
    """What the list shows: a folder's contacts (cache windows) or a search/filter answer."""

    scope: FolderScope = FolderScope()
    text: str = ""
    filters: tuple[tuple[str, Any], ...] = ()

    @property
    def searching(self) -> bool:
        return bool(self.text.strip() or self.filters)

    def scope_query(self) -> dict[str, Any]:
        query: dict[str, Any] = {}
        if self.scope.directory:
            query["directory"] = self.scope.directory
        if self.scope.folder_num is not None:
            query["folderNums"] = [self.scope.folder_num]
        return query

    def in_scope(self, contact: Contact) -> bool:
        folder = contact.folderId
        if self.scope.directory and (folder is None or folder.directory != self.scope.directory):
            return False
        return self.scope.folder_num is None or (folder is not None and folder.folderNum == self.scope.folder_num)

    def caption(self, count: int) -> str:
        what = f'search "{self.text.strip()}" in {self.scope.name}' if self.text.strip() else self.scope.name
        if self.filters:
            what += " · filtered"
        if self.searching and count >= SEARCH_LIMIT:
            return f"{what} · the first {count} contacts (narrow the search)"
        return f"{what} · {count} {'contact' if count == 1 else 'contacts'}"


class FolderContacts:
    """Rows of the list for a folder: windows read from the cache by index."""

    def __init__(self, service: DirectoryService, scope: FolderScope) -> None:
        self.service, self.scope = service, scope

    async def count(self) -> int:
        return await self.service.count_contacts(self.scope.directory, self.scope.folder_num)

    async def fetch(self, offset: int, limit: int) -> Sequence[Contact]:
        return await self.service.contacts_window(self.scope.directory, self.scope.folder_num, offset=offset, limit=limit)


def merge_contacts(local: list[Contact], remote: list[Contact], *, filtered: bool) -> list[Contact]:
    """The cache's ranked hits, each replaced by the service's fresher copy, then what only
    the service found. With filters, the service's answer decides who qualifies."""
    fresh = {c.contactId: c for c in remote}
    if filtered:
        ranked = [fresh[c.contactId] for c in local if c.contactId in fresh]
    else:
        ranked = [fresh.get(c.contactId, c) for c in local]
    seen = {c.contactId for c in ranked}
    return ranked + [c for c in remote if c.contactId not in seen]


TEXT_FILTERS = (("fullname", "Name"), ("fullnameKana", "Kana"), ("companyName", "Company"), ("divisionName", "Division"),
                ("phoneNum", "Phone"), ("email", "E-mail"))
DATE_FILTERS = (("updatedFrom", "Updated from"), ("updatedTo", "Updated to"))
CHOICE_FILTERS = (("ocrStatus", "OCR status", OcrStatus), ("ocrType", "OCR type", OcrType),
                  ("ocrResult", "OCR result", OcrResult))


class ContactFilters(Grid):
    """The X1 filters, four to a row: text fields, the updated range, the OCR state, identified."""

    DEFAULT_CSS = """
    ContactFilters { grid-size: 4; grid-gutter: 0 1; grid-rows: 1; height: auto; display: none; padding: 0 1; }
    ContactFilters.-shown { display: block; }
    ContactFilters > Input { background: $boost; }
    ContactFilters > Input.-invalid { background: $error 30%; }
    ContactFilters > #filter-errors { column-span: 4; color: $error; height: auto; }
    """

    def compose(self) -> ComposeResult:
        for field, label in TEXT_FILTERS:
            yield Input(placeholder=label, id=f"filter-{field}", compact=True)
        for field, label in DATE_FILTERS:
            yield Input(placeholder=f"{label} (Y-M-D)", id=f"filter-{field}", compact=True,
                        validators=[Function(lambda v: not v.strip() or parse_day(v) is not None, "not a date")])
        for field, prompt, enum in CHOICE_FILTERS:
            yield Select([(v.value.replace("_", " ").title(), v.value) for v in enum], prompt=prompt, id=f"filter-{field}",
                         compact=True)
        yield Checkbox("Identified", id="filter-identified", compact=True)
        yield Static(id="filter-errors")

    def on_mount(self) -> None:
        self.query_one("#filter-errors", Static).display = False

    def values(self) -> tuple[tuple[tuple[str, Any], ...], list[str]]:
        """The filters as X1 parameters, and what is wrong with them (then nothing is sent)."""
        out: list[tuple[str, Any]] = []
        errors: list[str] = []
        for field, _ in TEXT_FILTERS:
            value = self.query_one(f"#filter-{field}", Input).value.strip()
            if value:
                out.append((field, value))
        days: dict[str, date] = {}
        for field, label in DATE_FILTERS:
            value = self.query_one(f"#filter-{field}", Input).value.strip()
            if not value:
                continue
            day = parse_day(value)
            if day is None:
                errors.append(f"{label}: {value!r} is not a date (YYYY-MM-DD)")
                continue
            days[field] = day
            out.append((field, day_bound(day, end=field == "updatedTo")))
        if len(days) == 2 and days["updatedFrom"] > days["updatedTo"]:
            errors.append("Updated from is after updated to")
        for field, _, _ in CHOICE_FILTERS:
            select = self.query_one(f"#filter-{field}", Select)
            if not select.is_blank():
                out.append((field, select.value))
        if self.query_one("#filter-identified", Checkbox).value:
            out.append(("identified", True))
        shown = self.query_one("#filter-errors", Static)
        shown.update(literal("  ".join(errors)))
        shown.display = bool(errors)
        return tuple(out), errors


class ContactsScreen(SearchListScreen):
    CSS_PATH = "contacts.tcss"
    BINDINGS = [
        Binding("slash", "focus_search", "Search", id="contacts.search", priority=True),
        Binding("f", "toggle_filters", "Filters", id="contacts.filters"),
        Binding("c", "copy_number", "Copy no.", id="contacts.copy_number"),
        Binding("e", "copy_email", "Copy e-mail", id="contacts.copy_email"),
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
                yield Static(id="caption")
                yield VirtualList(CONTACT_COLUMNS, empty_text="No contacts here.", id="contacts")
            yield ContactDetail(self.service, id="detail")
        yield StatusBar(self.service, id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        if not self.service.offers("X1"):
            self.query_one("#contacts", VirtualList).empty_text = "This service does not offer external contacts."
        self._show()
        self.query_one("#contacts", VirtualList).focus()

    # -- what the list shows -----------------------------------------------------------------
    def _show(self, refresh_api: bool = False) -> None:
        contacts = self.query_one("#contacts", VirtualList)
        if self.browse.searching:
            self.run_search(self.browse)
        else:
            contacts.source = FolderContacts(self.service, self.browse.scope)
            if refresh_api and self.browse.scope.directory and self.service.offers("X1"):
                self.refresh_scope(self.browse)

    @on(VirtualList.Loaded, "#contacts")
    def _count_known(self, event: VirtualList.Loaded) -> None:
        self.query_one("#caption", Static).update(literal(self.browse.caption(event.count), "dim"), layout=False)  # one line: no re-layout

    @work(group="contacts-refresh", exclusive=True, exit_on_error=False)
    async def refresh_scope(self, browse: ContactBrowse) -> None:
        try:
            await self.service.list_contacts_remote(orderBy="fullname", **browse.scope_query())
        except CorpdirError as exc:
            self.notify(f"Could not refresh {browse.scope.name}: {exc}", severity="warning", timeout=4)
            return
        if browse == self.browse:
            self.query_one("#contacts", VirtualList).reload()

    @work(group="contacts-search", exclusive=True, exit_on_error=False)
    async def run_search(self, browse: ContactBrowse) -> None:
        contacts = self.query_one("#contacts", VirtualList)
        text = browse.text.strip()
        local: list[Contact] = []
        if text:
            hits = await self.service.search(text, kinds=("contact",), limit=200)
            local = [h.record for h in hits if browse.in_scope(h.record)]
            if not browse.filters:
                contacts.source = ListSource(local)
        if not self.service.offers("X1"):
            if browse.filters:
                self.notify("This service cannot filter contacts (no X1); showing the search of the cache", timeout=4)
                contacts.source = ListSource(local)
            return
        if text:
            await typing_paused()
        query = {**dict(browse.filters), **browse.scope_query()}
        if text:
            query["freeWords"] = text.split()[:10]
        try:
            remote = await self.service.list_contacts_remote(limit=SEARCH_LIMIT, orderBy="fullname", **query)
        except CorpdirError as exc:
            if not text:
                contacts.source = ListSource([])
            self.notify(f"Search on the service failed, showing the cache: {exc}", severity="warning", timeout=4)
            return
        if browse == self.browse:
            contacts.source = ListSource(merge_contacts(local, remote, filtered=bool(browse.filters)))

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

    # -- writes ------------------------------------------------------------------------------
    def _folder(self) -> tuple[str, int] | None:
        scope = self.browse.scope
        return (scope.directory, scope.folder_num) if scope.directory and scope.folder_num is not None else None

    def _after_write(self, contact: Contact | None = None) -> None:
        if contact is not None:
            self.selected = contact
            self.query_one(ContactDetail).contact = contact
        self.query_one("#contacts", VirtualList).reload()
        self.query_one(FolderTree).load()

    def action_new_contact(self) -> None:
        from corpdir.tui.forms.specs import contact_form
        from corpdir.tui.forms.writes import open_form

        open_form(self, contact_form(None, self._folder()), None, self.service.create_contact,
                  lambda c: (self.notify(f"Created {c.fullname}", timeout=3), self._after_write(c)))

    def action_edit(self) -> None:
        contact = self.selected
        if contact is None:
            self.notify("Choose a contact first", severity="warning", timeout=2)
            return
        from corpdir.tui.forms.specs import contact_form
        from corpdir.tui.forms.writes import open_form

        open_form(self, contact_form(contact), contact, lambda changes: self.service.edit_contact(contact, changes=changes),
                  lambda c: (self.notify(f"Saved {c.fullname}", timeout=3), self._after_write(c)))

    def action_delete(self) -> None:
        contact = self.selected
        if contact is None:
            return
        from corpdir.tui.forms.writes import confirm

        company = f" ({contact.companyName})" if contact.companyName else ""
        confirm(self, f"Delete {contact.fullname}{company}? The business card image is deleted too. This cannot be undone.",
                lambda: self.delete_contact(contact))

    @work(group="contacts-write", exclusive=True, exit_on_error=False)
    async def delete_contact(self, contact: Contact) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, self.service.delete_contact(contact), f"Deleted {contact.fullname}"):
            self.selected = None
            self._after_write()

    def action_from_card(self) -> None:
        from corpdir.tui.forms.specs import business_card_form
        from corpdir.tui.forms.writes import open_form

        async def save(body: dict, extras: dict) -> int:
            import asyncio

            from corpdir.client.errors import Invalid
            from corpdir.service.images import NotAnImage, read_jpeg
            from corpdir.spec import ErrorDetail

            try:
                jpeg = await asyncio.to_thread(read_jpeg, extras["file"].strip())
            except NotAnImage as exc:
                raise Invalid("the card image was not sent", details=[ErrorDetail(field="file", code="PATTERN",
                              description=str(exc))], local=True, operation="X5") from None
            return await self.service.create_contact_from_card(jpeg, body)

        open_form(self, business_card_form(self._folder()), None, save,
                  lambda cid: (self.notify(f"Card sent: contact #{cid} created", timeout=4), self.action_refresh()))

    def action_card_replace(self) -> None:
        contact = self.selected
        if contact is None:
            return
        from corpdir.tui.forms.writes import pick_image

        pick_image(self, f"Replace the business card of {contact.fullname} with this one?", lambda jpeg: self.write_card(
            contact, lambda: self.service.replace_card_image(contact.contactId, jpeg), "Card image replaced"))

    def action_card_delete(self) -> None:
        contact = self.selected
        if contact is None:
            return
        from corpdir.tui.forms.writes import confirm

        confirm(self, f"Delete the business card image of {contact.fullname}?", lambda: self.write_card(
            contact, lambda: self.service.delete_card_image(contact.contactId), "Card image deleted"))

    @work(group="contacts-write", exclusive=True, exit_on_error=False)
    async def write_card(self, contact: Contact, call: Any, success: str) -> None:
        """X7/X8, then the pane shows the card as it is now (if it still shows that contact)."""
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, call(), success):
            detail = self.query_one(ContactDetail)
            if detail.contact is not None and detail.contact.contactId == contact.contactId:
                detail.contact = detail.contact

    def action_new_folder(self) -> None:
        from corpdir.tui.forms.specs import personal_folder_form
        from corpdir.tui.forms.writes import open_form

        open_form(self, personal_folder_form(None), None, self.service.create_personal_folder,
                  lambda f: (self.notify(f"Created folder {f.folderName}", timeout=3), self._after_write()))

    def action_edit_folder(self) -> None:
        self.open_folder_form(self.browse.scope)

    @work(group="contacts-write", exclusive=True, exit_on_error=False)
    async def open_folder_form(self, scope: FolderScope) -> None:
        from corpdir.tui.forms.specs import personal_folder_form
        from corpdir.tui.forms.writes import open_form

        folder = next((f for f in await self.service.personal_folders() if f.folderNum == scope.folder_num), None) \
            if scope.directory == "PERSONAL" else None
        if folder is None:
            self.notify("Choose one of your personal folders first", severity="warning", timeout=3)
            return
        open_form(self, personal_folder_form(folder), folder,
                  lambda changes: self.service.edit_personal_folder(folder, changes=changes),
                  lambda f: (self.notify(f"Saved folder {f.folderName}", timeout=3), self._after_write()))

    def action_export(self) -> None:
        from corpdir.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.service, "contacts", self.query_one("#contacts", VirtualList).source))
