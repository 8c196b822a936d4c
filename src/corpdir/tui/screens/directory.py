"""The directory: division tree, the people of the chosen division (or a search), and
the chosen person's details.

Browsing reads windows of rows from the cache (any size of company), then refreshes the
division from the API. Searching is the façade's (:meth:`Search.people <corpdir.service.search.Search.people>`):
the cache answers as you type, then U1 (freeWords + filters) when typing pauses.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Select, Static

from corpdir.division_path import cells
from corpdir.service.errors import CorpdirError
from corpdir.spec.user import User
from corpdir.text import printable
from corpdir.tui.screens.directory_browse import ORDERS, Browse
from corpdir.tui.screens.directory_writes import DirectoryWrites
from corpdir.tui.screens.list_screen import fit_caption
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.search_box import SearchBox
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.user_filters import UserFilters
from corpdir.tui.widgets.virtual_list import Column, RankedRows, VirtualList

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService
    from corpdir.service.live_search import SearchAnswer

POSITION_SEEN = 4  # cells of a position worth showing after the division's path


def user_columns(service: DirectoryService) -> list[Column]:
    """The list's columns. A division is named by its path ('… › 品質保証部 › 1課': the
    demo alone has eleven 1課), shortened from the left to its cell; the position follows
    when the whole path leaves room for it; '+1' says a person is in more divisions, where
    it costs nothing of the division's name or its parent's (the detail pane lists them all)."""

    def division_and_position(user: User, width: int) -> str:
        refs, position = user.divisions or [], printable(user.position)
        if not refs:
            return position
        more = f" +{len(refs) - 1}" if len(refs) > 1 else ""
        path = service.divisions.path(refs[0], width, marker=more)
        whole = path == printable(service.divisions.path(refs[0], marker=more))
        if position and whole and cells(f"{path} · ") + min(cells(position), POSITION_SEEN) <= width:
            return f"{path} · {position}"
        return path

    return [
        Column("Name", lambda u: u.fullname, min_width=16, ratio=2),
        Column("Ext.", lambda u: u.extensionNum, width=6),
        Column("Phone", lambda u: u.companyMobileNum or u.phoneNum or u.mobileNum, width=14),
        Column("Division / position", fit=division_and_position, min_width=12, ratio=3),
    ]


class DirectoryScreen(DirectoryWrites):
    CSS_PATH = "directory.tcss"
    BINDINGS = [
        Binding("slash", "focus_search", "Search", id="directory.search", priority=True),
        Binding("f", "toggle_filters", "Filters", id="directory.filters"),
        Binding("s", "toggle_subdivisions", "Sub-divs", id="directory.subdivisions"),
        Binding("o", "cycle_order", "Order", id="directory.order"),
        Binding("r", "reverse_order", "Reverse", show=False, id="directory.reverse"),
        Binding("c", "copy_number", "Copy no.", id="directory.copy_number"),
        Binding("e", "copy_email", "Copy e-mail", show=False, id="directory.copy_email"),
        Binding("p", "show_photo", "Photo", show=False, id="directory.photo"),
        Binding("J", "jump_row", "Jump", id="directory.jump_row"),
        Binding("ctrl+r", "refresh", "Refresh", show=False, id="directory.refresh"),
        Binding("escape", "clear_search", "Clear", show=False, id="directory.clear"),
        Binding("n", "new_user", "New user", show=False, id="directory.new_user"),
        Binding("E", "edit", "Edit", id="directory.edit"),
        Binding("P", "edit_profile", "Edit profile", show=False, id="directory.edit_profile"),
        Binding("delete", "delete", "Delete", show=False, id="directory.delete"),
        Binding("u", "photo_replace", "Replace photo", show=False, id="directory.photo_replace"),
        Binding("U", "photo_delete", "Delete photo", show=False, id="directory.photo_delete"),
        Binding("N", "new_division", "New division", show=False, id="directory.new_division"),
        Binding("D", "edit_division", "Edit division", show=False, id="directory.edit_division"),
        Binding("ctrl+x", "delete_division", "Delete division", show=False, id="directory.delete_division"),
        Binding("b", "bulk", "Bulk from CSV", show=False, id="directory.bulk"),
        Binding("x", "export", "Export list", show=False, id="directory.export"),
    ]

    LIST = "#users"

    def __init__(self, service: DirectoryService) -> None:
        super().__init__(service)
        self.browse = Browse()
        self.selected: User | None = None
        self.manages_users = False  # until the cache says otherwise (learn_key_rights)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="directory-body"):
            yield DivisionTree(self.service, id="tree")
            with Vertical(id="middle"):
                yield SearchBox(placeholder="Search name, kana, number, e-mail…  (/)", id="search")
                yield UserFilters(id="filters")
                yield Static(id="filter-summary")
                yield Static(id="caption")
                yield VirtualList(user_columns(self.service), empty_text="No one here yet.", id="users")
            yield UserDetail(self.service, id="detail")
        yield StatusBar(self.service, id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#users", VirtualList).focus()

    # -- what the list shows -----------------------------------------------------------------
    def _show(self, refresh_api: bool = False) -> None:
        users = self.query_one("#users", VirtualList)
        if self.browse.searching:
            self.run_search(self.browse)
        else:
            division = self.browse.division.divisionId if self.browse.division else None
            users.source = self.service.people.of_division(division, include_sub=self.browse.include_sub,
                                                        order_by=self.browse.order_by, descending=self.browse.descending)
            if refresh_api and self.browse.division is not None:
                self.refresh_division(self.browse)

    @on(VirtualList.Loaded, "#users")
    def _count_known(self, event: VirtualList.Loaded) -> None:
        self.show_count()
        if not event.count:
            self.rows_shown()

    def caption(self, count: int, more: bool, syncing: bool, width: int) -> str:
        """The caption with the division named by its path, shortened from the left to the
        room the count and order leave ('…品質保証部 › 1課 · 12 people · by name ↑')."""
        browse = self.browse
        if browse.division is None or browse.text.strip():
            return super().caption(count, more, syncing, width)
        rest = cells(browse.caption(count, more=more, syncing=syncing, where=""))
        where = self.service.divisions.path(browse.division, max(width - rest, 8))
        return fit_caption(browse.caption(count, more=more, syncing=syncing, where=where), width)

    def action_refresh(self) -> None:
        """The list again (after a sync, Ctrl+R), and the tree's member counts with it (a
        first sync brings the people the counts were read without)."""
        super().action_refresh()
        self.query_one(DivisionTree).refresh_counts()

    def after_first_rows(self) -> None:
        self.query_one(DivisionTree).refresh_from_service()
        self.learn_key_rights()

    @work(group="directory-refresh", exclusive=True, exit_on_error=False)
    async def refresh_division(self, browse: Browse) -> None:
        try:
            await self.service.people.refresh_division(browse.division.divisionId, browse.include_sub)
        except CorpdirError as exc:
            self.notify(f"Could not refresh {self.service.divisions.path(browse.division)}: {exc}", severity="warning",
                        timeout=4)
            return
        if browse == self.browse:
            self.query_one("#users", VirtualList).reload()

    @work(group="directory-search", exclusive=True, exit_on_error=False)
    async def run_search(self, browse: Browse) -> None:
        """The façade's answers, each shown as it comes (the next keystroke cancels this)."""
        users = self.query_one("#users", VirtualList)
        answers = self.service.search.people(
            browse.text, dict(browse.filters), division_id=browse.division.divisionId if browse.division else None,
            include_sub=browse.include_sub, order_by=browse.order_by, descending=browse.descending)
        async for answer in answers:
            if browse != self.browse:
                return
            users.source = self._ranked(answer)
            if answer.error is not None:
                self.notify(f"Search on the service failed, showing the cache: {answer.error}", severity="warning",
                            timeout=4)

    def _ranked(self, answer: SearchAnswer[User]) -> RankedRows[User]:
        return RankedRows(answer.ids, self.service.people.by_id, lambda u: u.userId, answer.known, answer.more)

    # -- events ------------------------------------------------------------------------------
    @on(DivisionTree.DivisionSelected)
    def _division_chosen(self, event: DivisionTree.DivisionSelected) -> None:
        self.browse = replace(self.browse, division=event.division)
        self._show(refresh_api=True)

    @on(DivisionTree.LoadFailed)
    def _tree_failed(self, event: DivisionTree.LoadFailed) -> None:
        self.notify(f"Divisions could not be loaded: {event.error}", severity="warning", timeout=4)

    @on(Input.Changed, "#filters Input")
    @on(Select.Changed, "#filters Select")
    def _filters_changed(self) -> None:
        self.browse = replace(self.browse, filters=self.query_one(UserFilters).values())
        self.show_filter_summary()
        self._show()

    @on(VirtualList.Highlighted, "#users")
    def _user_highlighted(self, event: VirtualList.Highlighted) -> None:
        self.rows_shown()
        if self.selected is None or event.row.userId != self.selected.userId:
            self.selected = user = event.row
            detail = self.query_one(UserDetail)
            self.show_details_soon(lambda: setattr(detail, "user", user))

    @on(VirtualList.Selected, "#users")
    def _user_opened(self, event: VirtualList.Selected) -> None:
        self.open_details(self.query_one(UserDetail), lambda: UserDetail(self.service, user=event.row))

    # -- actions -----------------------------------------------------------------------------
    def action_toggle_filters(self) -> None:
        """Show or hide the filter bar; login ID only for a key that may filter by it (as
        last learnt, and learnt again: a sync since may have brought what the key sees)."""
        filters = self.query_one(UserFilters)
        if filters.toggle(login_ids=self.manages_users):
            self.call_after_refresh(lambda: filters.query_one(Select).focus())
        self.learn_key_rights()

    @work(group="directory-rights", exclusive=True, exit_on_error=False)
    async def learn_key_rights(self) -> None:
        """Whether the key manages users (:meth:`People.manages_users <corpdir.service.people.People.manages_users>`): the
        filter bar offers login ID only then (the service refuses it to others, 403)."""
        self.manages_users = await self.service.people.manages_users()
        self.query_one(UserFilters).offer_login_ids(self.manages_users)

    def action_toggle_subdivisions(self) -> None:
        self.browse = replace(self.browse, include_sub=not self.browse.include_sub)
        self.notify("Including sub-divisions" if self.browse.include_sub else "This division only", timeout=2)
        self._show(refresh_api=True)

    def action_cycle_order(self) -> None:
        following = ORDERS[(ORDERS.index(self.browse.order_by) + 1) % len(ORDERS)]
        self.browse = replace(self.browse, order_by=following)
        self._show()

    def action_reverse_order(self) -> None:
        self.browse = replace(self.browse, descending=not self.browse.descending)
        self._show()

    def action_show_photo(self) -> None:
        if self.selected is not None:
            from corpdir.tui.screens.photo_screen import PhotoScreen

            self.app.push_screen(PhotoScreen(self.service, self.selected))

    def action_export(self) -> None:
        from corpdir.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.service, "users", self.query_one("#users", VirtualList).source))
