"""The Directory: the division tree, the people of the chosen division (or a search), and
the chosen person's details; the writes of people and divisions (none on a read-only
terminal) through :class:`UserWrites` and :class:`DivisionWrites`.

Browsing reads windows of rows from the cache (any size of company), then refreshes the
division from the API. Searching is the façade's (:meth:`DirectoryService.search_people`):
the cache answers as you type, then U1 (freeWords + filters) when typing pauses.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Select

from corpdir.division_path import cells
from corpdir.service.errors import CorpdirError
from corpdir.service.first_records import as_model
from corpdir.text import printable
from corpdir.tui.context import AppContext
from corpdir.tui.record_writes.divisions import DivisionWrites
from corpdir.tui.record_writes.users import UserWrites
from corpdir.tui.screens.directory_browse import ORDERS, Browse
from corpdir.tui.screens.list_screen import SearchedListScreen
from corpdir.tui.widgets.busy_lamp_column import LampFollower, with_lamps
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.list_columns import Column, number_column
from corpdir.tui.widgets.row_sources import RankedRows
from corpdir.tui.widgets.searchable_list import SearchableList, empty_text, fit_caption
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.user_filters import UserFilters

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService
    from corpdir.service.live_search import SearchAnswer
    from corpdir.spec.division import Division
    from corpdir.spec.user import User

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
        number_column("Phone", lambda u: u.companyMobileNum or u.phoneNum or u.mobileNum, service.settings.region, width=14),
        Column("Division / position", fit=division_and_position, min_width=12, ratio=3),
    ]


class DirectoryScreen(SearchedListScreen):
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

    USER_MANAGEMENT = frozenset({"new_user", "edit", "delete", "photo_replace", "photo_delete"})
    WRITES = frozenset({"new_user", "edit", "edit_profile", "delete", "photo_replace", "photo_delete", "new_division",
                        "edit_division", "delete_division", "bulk"})

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.browse = Browse()
        self.manages_users: bool | None = None  # unknown until the cache tells (learn_key_rights)
        self.division_tree = DivisionTree(self.service, id="tree")
        self.filters = UserFilters(id="filters")
        lamps = context.desk_phone.lamps  # a lamp column only with [calls.presence] (busy_lamp_column)
        self.listed = self.people = SearchableList(with_lamps(user_columns(self.service), lamps, lambda u: u.extensionNum),
                                     filters=self.filters, list_id="users", id="middle",
                                     placeholder="Search name, kana, number, e-mail…  (/)", empty_text="No one here yet.")
        self.detail = UserDetail(self.service, id="detail")
        self.user_writes = UserWrites(self, context, saved=self._user_saved, deleted=self._user_deleted,
                                      photo_changed=self._photo_changed)
        self.division_writes = DivisionWrites(self, context, changed=self._divisions_changed,
                                              deleted=self._division_deleted)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="directory-body"):
            yield self.division_tree
            yield self.people
            yield self.detail
        yield StatusBar(self.context, id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_rows()
        self.people.focus_list()
        LampFollower(self.people.rows, self.context.desk_phone.lamps, lambda u: u.extensionNum).start()

    # -- what the list shows -----------------------------------------------------------------
    def show_rows(self, refresh_api: bool = False) -> None:
        if self.browse.searching:
            self.run_search(self.browse)
        else:
            division = self.browse.division.divisionId if self.browse.division else None
            self.people.source = self.service.people.of_division(division, include_sub=self.browse.include_sub,
                                                              order_by=self.browse.order_by,
                                                              descending=self.browse.descending)
            if refresh_api and self.browse.division is not None:
                self.refresh_division(self.browse)

    @on(SearchableList.Counted)
    def _count_known(self, event: SearchableList.Counted) -> None:
        self.show_count()
        if not event.count:
            self.rows_shown()

    def show_count(self) -> None:
        """The caption (what the list shows, how many) and what an empty list says. Called
        when the list knows its count, when the screen's width changes and when a sync
        starts or ends."""
        syncing = self.context.sync.syncing
        self.people.show_count(lambda count, more, width: self.caption(count, more, syncing, width),
                               empty_text(self.browse, syncing=syncing, offline=self.service.online is False))

    def caption(self, count: int, more: bool, syncing: bool, width: int) -> str:
        """The caption with the division named by its path, shortened from the left to the
        room the count and order leave ('…品質保証部 › 1課 · 12 people · by name ↑')."""
        browse = self.browse
        if browse.division is None or browse.text.strip():
            return fit_caption(browse.caption(count, more=more, syncing=syncing), width)
        rest = cells(browse.caption(count, more=more, syncing=syncing, where=""))
        where = self.service.divisions.path(browse.division, max(width - rest, 8))
        return fit_caption(browse.caption(count, more=more, syncing=syncing, where=where), width)

    def action_refresh(self) -> None:
        """The list again (after a sync, Ctrl+R), and the tree's member counts with it (a
        first sync brings the people the counts were read without)."""
        super().action_refresh()
        self.division_tree.refresh_counts()
        self.learn_key_rights()  # a first sync brings the people that tell

    def records_checked(self) -> None:
        self.people.records_checked()
        self.division_tree.records_checked()
        if self.browse.division is not None:  # chosen in the tree before the check
            self.browse = replace(self.browse, division=as_model(self.browse.division))

    def after_first_rows(self) -> None:
        self.division_tree.refresh_from_service()
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
            self.people.reload()

    @work(group="directory-search", exclusive=True, exit_on_error=False)
    async def run_search(self, browse: Browse) -> None:
        """The façade's answers, each shown as it comes (the next keystroke cancels this)."""
        answers = self.service.search.people(
            browse.text, dict(browse.filters), division_id=browse.division.divisionId if browse.division else None,
            include_sub=browse.include_sub, order_by=browse.order_by, descending=browse.descending)
        async for answer in answers:
            if browse != self.browse:
                return
            self.people.source = self._ranked(answer)
            if answer.error is not None:
                self.notify(f"Search on the service failed, showing the cache: {answer.error}", severity="warning",
                            timeout=4)

    def _ranked(self, answer: SearchAnswer[User]) -> RankedRows[User]:
        return RankedRows(answer.ids, self.service.people.by_id, lambda u: u.userId, answer.known, answer.more)

    # -- events ------------------------------------------------------------------------------
    @on(DivisionTree.DivisionSelected)
    def _division_chosen(self, event: DivisionTree.DivisionSelected) -> None:
        self.browse = replace(self.browse, division=event.division)
        self.show_rows(refresh_api=True)

    @on(DivisionTree.LoadFailed)
    def _tree_failed(self, event: DivisionTree.LoadFailed) -> None:
        self.notify(f"Divisions could not be loaded: {event.error}", severity="warning", timeout=4)

    @on(SearchableList.FiltersChanged)
    def _filters_changed(self) -> None:
        self.browse = replace(self.browse, filters=self.filters.values())
        self.people.show_filters(self.filters, bool(self.browse.filters))
        self.show_rows()

    @on(SearchableList.Highlighted)
    def _user_highlighted(self, event: SearchableList.Highlighted) -> None:
        self.rows_shown()
        if self._selected is None or event.row.userId != self._selected.userId:
            self.selected = user = event.row  # a plain row of the first frame is made a model when used
            self.show_details_soon(lambda: setattr(self.detail, "user", as_model(user)))

    @on(SearchableList.Opened)
    def _user_opened(self, event: SearchableList.Opened) -> None:
        user = as_model(event.row)
        self.open_details(self.detail, user, lambda: UserDetail(self.service, user=user))

    # -- actions -----------------------------------------------------------------------------
    def action_toggle_filters(self) -> None:
        """Show or hide the filter bar; login ID only for a key that may filter by it (as
        last learnt, and learnt again: a sync since may have brought what the key sees)."""
        if self.filters.toggle(login_ids=bool(self.manages_users)):
            self.call_after_refresh(lambda: self.filters.query_one(Select).focus())
        self.learn_key_rights()

    @work(group="directory-rights", exclusive=True, exit_on_error=False)
    async def learn_key_rights(self) -> None:
        """Whether the key manages users (:meth:`DirectoryService.manages_users`): the
        filter bar offers login ID only then, and adding, editing or deleting a person or
        their photo is not offered to a key known not to (the service refuses them, 403:
        the demo's reception desk typed a whole form only to be told so on saving)."""
        self.manages_users = await self.service.people.manages_users()
        self.filters.offer_login_ids(bool(self.manages_users))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Person writes (U2, U4, U5, U7, U8) need user management; E and Delete on the
        tree are the division's (a right the cache cannot tell: the service says); the tree
        is the screen's focus at once, before it has handled its Focus (Tab, then E)."""
        if (action in self.USER_MANAGEMENT and self.manages_users is False
                and not (action in ("edit", "delete") and self.focused is self.division_tree)):
            return False
        return super().check_action(action, parameters)

    def action_toggle_subdivisions(self) -> None:
        self.browse = replace(self.browse, include_sub=not self.browse.include_sub)
        self.notify("Including sub-divisions" if self.browse.include_sub else "This division only", timeout=2)
        self.show_rows(refresh_api=True)

    def action_cycle_order(self) -> None:
        following = ORDERS[(ORDERS.index(self.browse.order_by) + 1) % len(ORDERS)]
        self.browse = replace(self.browse, order_by=following)
        self.show_rows()

    def action_reverse_order(self) -> None:
        self.browse = replace(self.browse, descending=not self.browse.descending)
        self.show_rows()

    def action_show_photo(self) -> None:
        if self.selected is not None:
            from corpdir.tui.screens.photo_screen import PhotoScreen

            self.app.push_screen(PhotoScreen(self.service, self.selected))

    def action_export(self) -> None:
        from corpdir.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.service, "users", self.people.source))

    def action_bulk(self) -> None:
        from corpdir.tui.screens.bulk import BulkScreen

        self.app.push_screen(BulkScreen(self.context))

    # -- writes: people ----------------------------------------------------------------------
    def action_new_user(self) -> None:
        self.user_writes.new(self.browse.division)

    def action_edit(self) -> None:
        """E: the division under the cursor when the tree has focus, else the person."""
        if self.division_tree.has_focus:
            self.action_edit_division()
        elif self.selected is None:
            self.notify("Choose a person first", severity="warning", timeout=2)
        else:
            self.user_writes.edit(self.selected)

    def action_edit_profile(self) -> None:
        if self.selected is not None:
            self.user_writes.edit_profile(self.selected)

    def action_delete(self) -> None:
        if self.division_tree.has_focus:
            self.action_delete_division()
        elif self.selected is not None:
            self.user_writes.delete(self.selected)

    def action_photo_replace(self) -> None:
        if self.selected is not None:
            self.user_writes.replace_photo(self.selected)

    def action_photo_delete(self) -> None:
        if self.selected is not None:
            self.user_writes.delete_photo(self.selected)

    def _user_saved(self, user: User) -> None:
        self.selected = user
        self.detail.user = user
        self.people.reload()
        self.division_tree.refresh_counts()  # a new person counts in their divisions

    def _user_deleted(self, user: User) -> None:
        self.people.forget(user.userId)
        self.selected = None
        self.detail.user = None
        self.division_tree.refresh_counts()

    def _photo_changed(self, user: User) -> None:
        """The pane shows the photo as it is now (if it still shows that person)."""
        if self.detail.user is not None and self.detail.user.userId == user.userId:
            self.detail.user = self.detail.user

    # -- writes: divisions -------------------------------------------------------------------
    def _tree_division(self) -> Division | None:
        node = self.division_tree.cursor_node
        return as_model(node.data) if node is not None and node.data is not None else None

    def _chosen_division(self) -> Division | None:
        """The division under the tree's cursor, else the one shown; None (and a word to
        the user) when there is neither."""
        division = self._tree_division() or self.browse.division
        if division is None:
            self.notify("Choose a division in the tree first", severity="warning", timeout=2)
        return division

    def action_new_division(self) -> None:
        self.division_writes.new(self._tree_division())

    def action_edit_division(self) -> None:
        if (division := self._chosen_division()) is not None:
            self.division_writes.edit(division)

    def action_delete_division(self) -> None:
        if (division := self._chosen_division()) is not None:
            self.division_writes.delete(division)

    def _divisions_changed(self, moved: Division | None) -> None:
        """The tree read again, keeping the user's place; a moved division's new parent
        opens, so the cursor can follow it there."""
        parent = moved.parentDivisionId if moved is not None else None
        self.division_tree.reload_keeping_place(open_also=[parent] if parent else [])

    def _division_deleted(self, division: Division) -> None:
        if self.browse.division is not None and self.browse.division.divisionId == division.divisionId:
            self.browse = replace(self.browse, division=None)
            self.show_rows()
        self._divisions_changed(None)
