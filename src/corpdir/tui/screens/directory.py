"""The directory: division tree, the people of the chosen division (or a search), and
the chosen person's details.

Browsing reads windows of rows from the cache (any size of company), then refreshes the
division from the API. Searching answers from the cache as you type, then asks U1
(freeWords + filters) and shows the service's answer when it comes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Sequence

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Select, Static

from corpdir.client.errors import CorpdirError
from corpdir.spec.division import Division
from corpdir.spec.enums import UserType
from corpdir.spec.user import User
from corpdir.tui.screens.list_screen import SearchListScreen, typing_paused
from corpdir.tui.text import joined, literal
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.search_box import SearchBox
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.title_bar import TitleBar
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import (
    PAGE,
    Column,
    ListSource,
    RankedRows,
    VirtualList,
)

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

ORDERS = ("fullname", "sortScore", "employeeNum")
ORDER_NAMES = {"fullname": "name", "sortScore": "sort score", "employeeNum": "employee no."}



USER_COLUMNS = [
    Column("Name", lambda u: u.fullname, min_width=10, ratio=3),
    Column("Ext.", lambda u: u.extensionNum, width=6),
    Column("Phone", lambda u: u.companyMobileNum or u.phoneNum or u.mobileNum, width=14),
    Column("Division / position", lambda u: joined([joined([d.divisionName for d in u.divisions or []]), u.position], " · "), min_width=8, ratio=2),
]


@dataclass(frozen=True)
class Browse:
    """What the list shows: a division's people (cache windows) or a search."""

    division: Division | None = None
    include_sub: bool = False
    order_by: str = "fullname"
    descending: bool = False
    text: str = ""
    filters: tuple[tuple[str, Any], ...] = ()

    @property
    def searching(self) -> bool:
        return bool(self.text.strip() or self.filters)

    def caption(self, count: int) -> str:
        where = self.division.divisionName if self.division else "Everyone"
        scope = " and sub-divisions" if self.include_sub and self.division else ""
        what = f'search "{self.text.strip()}"' if self.text.strip() else where + scope
        if self.filters:
            what += " · filtered"
        arrow = "↓" if self.descending else "↑"
        return f"{what} · {count} {'person' if count == 1 else 'people'} · by {ORDER_NAMES[self.order_by]} {arrow}"


class DivisionUsers:
    """Rows of the list for a division: windows read from the cache by index."""

    def __init__(self, service: DirectoryService, browse: Browse) -> None:
        self.service, self.browse = service, browse

    def _division(self) -> int | None:
        return self.browse.division.divisionId if self.browse.division else None

    async def count(self) -> int:
        return await self.service.count_users(self._division(), self.browse.include_sub)

    async def fetch(self, offset: int, limit: int) -> Sequence[User]:
        return await self.service.users_window(self._division(), include_sub=self.browse.include_sub,
                                               order_by=self.browse.order_by, descending=self.browse.descending,
                                               offset=offset, limit=limit)


def merge_results(local: list[int], remote: list[User], *, filtered: bool) -> list[int]:
    """The ids of the cache's ranked hits (kana and width folding the service may lack),
    then of what only the service found. With filters, the service's answer decides who
    qualifies. (The list shows the service's copy of a person it returned.)"""
    fresh = {u.userId for u in remote}
    ranked = [i for i in local if i in fresh] if filtered else list(local)
    seen = set(ranked)
    return ranked + [u.userId for u in remote if u.userId not in seen]


class UserFilters(Horizontal):
    """The U1 filters: user type, employee no., phone, e-mail, login ID. Built the first
    time they are shown (``show``): most visits never open them, and five more inputs
    with a select cost the first paint their styling."""

    DEFAULT_CSS = """
    UserFilters { height: auto; display: none; }
    UserFilters.-shown { display: block; }
    UserFilters > Input, UserFilters > Select { width: 1fr; }
    """

    def toggle(self) -> bool:
        """Show or hide the filters; True when they are now shown."""
        if not self.children:
            self.mount_all(self._fields())
        self.toggle_class("-shown")
        return self.has_class("-shown")

    @staticmethod
    def _fields() -> list[Input | Select]:
        return [
            Select([(t.value.replace("_", " ").title(), t.value) for t in UserType], prompt="Any type", id="filter-userType"),
            Input(placeholder="Employee no.", id="filter-employeeNum"),
            Input(placeholder="Phone", id="filter-phoneNum"),
            Input(placeholder="E-mail", id="filter-email1"),
            Input(placeholder="Login ID", id="filter-loginIds"),
        ]

    def values(self) -> tuple[tuple[str, Any], ...]:
        out: list[tuple[str, Any]] = []
        if not self.children:
            return ()
        user_type = self.query_one("#filter-userType", Select)
        if not user_type.is_blank():  # note: Select.BLANK is False in Textual 8, not "nothing chosen"
            out.append(("userType", user_type.value))
        for field in ("employeeNum", "phoneNum", "email1", "loginIds"):
            value = self.query_one(f"#filter-{field}", Input).value.strip()
            if value:
                out.append((field, [value] if field == "loginIds" else value))
        return tuple(out)


class DirectoryScreen(SearchListScreen):
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
    WRITES = frozenset({"new_user", "edit", "edit_profile", "delete", "photo_replace", "photo_delete", "new_division",
                        "edit_division", "delete_division", "bulk"})

    LIST = "#users"

    def __init__(self, service: DirectoryService) -> None:
        super().__init__(service)
        self.browse = Browse()
        self.selected: User | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="directory-body"):
            yield DivisionTree(self.service, id="tree")
            with Vertical(id="middle"):
                yield SearchBox(placeholder="Search name, kana, number, e-mail…  (/)", id="search")
                yield UserFilters(id="filters")
                yield Static(id="caption")
                yield VirtualList(USER_COLUMNS, empty_text="No one here yet.", id="users")
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
            users.source = DivisionUsers(self.service, self.browse)
            if refresh_api and self.browse.division is not None:
                self.refresh_division(self.browse)

    @on(VirtualList.Loaded, "#users")
    def _count_known(self, event: VirtualList.Loaded) -> None:
        self.query_one("#caption", Static).update(literal(self.browse.caption(event.count), "dim"), layout=False)  # one line: no re-layout
        if not event.count:
            self.rows_shown()

    def after_first_rows(self) -> None:
        self.query_one(DivisionTree).refresh_from_service()

    @work(group="directory-refresh", exclusive=True, exit_on_error=False)
    async def refresh_division(self, browse: Browse) -> None:
        try:
            await self.service.refresh_users(browse.division.divisionId, browse.include_sub)
        except CorpdirError as exc:
            self.notify(f"Could not refresh {browse.division.divisionName}: {exc}", severity="warning", timeout=4)
            return
        if browse == self.browse:
            self.query_one("#users", VirtualList).reload()

    @work(group="directory-search", exclusive=True, exit_on_error=False)
    async def run_search(self, browse: Browse) -> None:
        users = self.query_one("#users", VirtualList)
        text = browse.text.strip()
        local: list[int] = []
        if text:
            local, first = await self.service.search_users(text, limit=200, first=PAGE)
            if not browse.filters:
                users.source = self._ranked(local, first)
        if text:
            await typing_paused()
        filters = dict(browse.filters)
        if browse.division is not None:
            filters["divisionIds"] = [browse.division.divisionId]
            if browse.include_sub and self.service.variant == "C":
                filters["includeSubDepartment"] = True
        try:
            remote = await self.service.search_users_remote(
                text.split(), orderBy=browse.order_by, orderDirection="desc" if browse.descending else "asc", **filters)
        except CorpdirError as exc:
            if not text:
                users.source = ListSource([])
            self.notify(f"Search on the service failed, showing the cache: {exc}", severity="warning", timeout=4)
            return
        if browse == self.browse:
            users.source = self._ranked(merge_results(local, remote, filtered=bool(browse.filters)), remote)

    def _ranked(self, ids: list[int], known: Sequence[User] = ()) -> RankedRows[User]:
        return RankedRows(ids, self.service.users_by_id, lambda u: u.userId, known)

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
        filters = self.query_one(UserFilters)
        if filters.toggle():
            self.call_after_refresh(lambda: filters.query_one(Select).focus())

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

    # -- writes ------------------------------------------------------------------------------
    def _tree_division(self) -> Division | None:
        tree = self.query_one(DivisionTree)
        node = tree.cursor_node
        return node.data if node is not None and isinstance(node.data, Division) else None

    def _after_user_write(self, user: User | None = None) -> None:
        if user is not None:
            self.selected = user
            self.query_one(UserDetail).user = user
        self.query_one("#users", VirtualList).reload()

    def action_new_user(self) -> None:
        from corpdir.tui.forms.specs import user_form
        from corpdir.tui.forms.writes import open_form

        spec = user_form(None, self.service.variant)
        division = self.browse.division
        if division is not None:
            spec.initial = {**spec.initial, "divisionIds": [division.divisionId]}
        open_form(self, spec, None, self.service.create_user,
                  lambda user: (self.notify(f"Created {user.fullname}", timeout=3), self._after_user_write(user)))

    def action_edit(self) -> None:
        if self.query_one(DivisionTree).has_focus:
            self.action_edit_division()
        elif self.selected is None:
            self.notify("Choose a person first", severity="warning", timeout=2)
        else:
            self.open_user_form(self.selected)

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def open_user_form(self, user: User) -> None:
        from corpdir.tui.forms.specs import user_form
        from corpdir.tui.forms.writes import open_form

        try:  # edit what the service has now, so the diff is against the latest record
            user = await self.service.refresh_user(user.userId)
        except CorpdirError:
            pass
        open_form(self, user_form(user, self.service.variant), user,
                  lambda changes: self.service.edit_user(user, changes=changes),
                  lambda saved: (self.notify(f"Saved {saved.fullname}", timeout=3), self._after_user_write(saved)))

    def action_edit_profile(self) -> None:
        if self.selected is not None:
            self.open_profile_form(self.selected)

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def open_profile_form(self, user: User) -> None:
        from corpdir.spec.profile import Profile
        from corpdir.tui.forms.specs import profile_form
        from corpdir.tui.forms.writes import open_form

        try:
            profile = await self.service.profile(user.userId) or Profile()
        except CorpdirError as exc:
            self.notify(f"The profile could not be loaded: {exc}", severity="error", timeout=6)
            return
        open_form(self, profile_form(user.fullname or ""), profile,
                  lambda changes: self.service.edit_profile(user.userId, profile, changes=changes),
                  lambda saved: (self.notify(f"Saved the profile of {user.fullname}", timeout=3),
                                 self._after_user_write(user)))

    def action_delete(self) -> None:
        if self.query_one(DivisionTree).has_focus:
            self.action_delete_division()
            return
        user = self.selected
        if user is None:
            return
        from corpdir.tui.forms.writes import confirm

        who = user.fullname or f"#{user.userId}"
        login = f" ({user.loginId})" if user.loginId else ""
        confirm(self, f"Delete {who}{login}? Their face photo is deleted too. This cannot be undone.",
                lambda: self.delete_user(user))

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def delete_user(self, user: User) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, self.service.delete_user(user), f"Deleted {user.fullname}"):
            self.selected = None
            self.query_one("#users", VirtualList).reload()

    def action_photo_replace(self) -> None:
        user = self.selected
        if user is None:
            return
        from corpdir.tui.forms.writes import pick_image

        pick_image(self, f"Replace the photo of {user.fullname} with this one?", lambda jpeg: self.upload_photo(user, jpeg))

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def upload_photo(self, user: User, jpeg: bytes) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, self.service.replace_photo(user.userId, jpeg), f"Photo of {user.fullname} replaced"):
            self._repaint_photo(user)

    def action_photo_delete(self) -> None:
        user = self.selected
        if user is None:
            return
        from corpdir.tui.forms.writes import confirm

        confirm(self, f"Delete the photo of {user.fullname}?", lambda: self.delete_photo(user))

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def delete_photo(self, user: User) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, self.service.delete_photo(user.userId), f"Photo of {user.fullname} deleted"):
            self._repaint_photo(user)

    def _repaint_photo(self, user: User) -> None:
        """The pane shows the photo as it is now (if it still shows that person)."""
        detail = self.query_one(UserDetail)
        if detail.user is not None and detail.user.userId == user.userId:
            detail.user = detail.user

    def _reload_tree(self) -> None:
        tree = self.query_one(DivisionTree)
        tree._loaded.clear()
        tree.load_children(tree.root)

    def action_new_division(self) -> None:
        from corpdir.tui.forms.specs import division_form
        from corpdir.tui.forms.writes import open_form

        parent = self._tree_division()
        open_form(self, division_form(None, parent.divisionId if parent else None), None, self.service.create_division,
                  lambda d: (self.notify(f"Created division {d.divisionName}", timeout=3), self._reload_tree()))

    def action_edit_division(self) -> None:
        division = self._tree_division() or self.browse.division
        if division is None:
            self.notify("Choose a division in the tree first", severity="warning", timeout=2)
            return
        from corpdir.tui.forms.specs import division_form
        from corpdir.tui.forms.writes import open_form

        open_form(self, division_form(division), division,
                  lambda changes: self.service.edit_division(division, changes=changes),
                  lambda d: (self.notify(f"Saved division {d.divisionName}", timeout=3), self._reload_tree()))

    def action_delete_division(self) -> None:
        division = self._tree_division() or self.browse.division
        if division is None:
            self.notify("Choose a division in the tree first", severity="warning", timeout=2)
            return
        self.ask_delete_division(division)

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def ask_delete_division(self, division: Division) -> None:
        from corpdir.tui.forms.writes import confirm

        below = len(await self.service.division_subtree(division.divisionId)) - 1
        name = division.divisionName or f"#{division.divisionId}"
        if below > 0:
            question = (f"Delete division {name} and the {below} {'division' if below == 1 else 'divisions'} below it "
                        f"({below + 1} in all)? This cannot be undone.")
        else:
            question = f"Delete division {name}? No divisions are below it. This cannot be undone."
        confirm(self, question, lambda: self.delete_division(division))

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def delete_division(self, division: Division) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, self.service.delete_division(division), f"Deleted division {division.divisionName}"):
            if self.browse.division is not None and self.browse.division.divisionId == division.divisionId:
                self.browse = replace(self.browse, division=None)
                self._show()
            self._reload_tree()

    def action_bulk(self) -> None:
        from corpdir.tui.screens.bulk import BulkScreen

        self.app.push_screen(BulkScreen(self.service))

    def action_export(self) -> None:
        from corpdir.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.service, "users", self.query_one("#users", VirtualList).source))
