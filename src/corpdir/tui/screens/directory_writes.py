"""The Directory's writes: new, edit and delete people, their profiles and photos, and
divisions, each through a form or a question, then the list, pane and tree follow.
The screen (:class:`corpdir.tui.screens.directory.DirectoryScreen`) adds what it shows."""

from __future__ import annotations

from dataclasses import replace

from textual import work

from corpdir.service.errors import CorpdirError
from corpdir.spec.division import Division
from corpdir.spec.user import User
from corpdir.tui.screens.list_screen import SearchListScreen
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList


class DirectoryWrites(SearchListScreen):
    """The write actions of the Directory (none offered on a read-only terminal)."""

    WRITES = frozenset({"new_user", "edit", "edit_profile", "delete", "photo_replace", "photo_delete", "new_division",
                        "edit_division", "delete_division", "bulk"})
    selected: User | None

    def _tree_division(self) -> Division | None:
        tree = self.query_one(DivisionTree)
        node = tree.cursor_node
        return node.data if node is not None and isinstance(node.data, Division) else None

    def _after_user_write(self, user: User | None = None) -> None:
        if user is not None:
            self.selected = user
            self.query_one(UserDetail).user = user
        self.query_one("#users", VirtualList).reload()
        self.query_one(DivisionTree).refresh_counts()  # a new person counts in their divisions

    def action_new_user(self) -> None:
        from corpdir.tui.forms.specs import user_form
        from corpdir.tui.forms.writes import open_form

        spec = user_form(None, self.service.variant)
        division = self.browse.division
        if division is not None:
            spec.initial = {**spec.initial, "divisionIds": [division.divisionId]}
        open_form(self, spec, None, self.service.people.create,
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
            user = await self.service.people.refresh_user(user.userId)
        except CorpdirError:
            pass
        open_form(self, user_form(user, self.service.variant), user,
                  lambda changes: self.service.people.edit(user, changes=changes),
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
            profile = await self.service.people.profile(user.userId) or Profile()
        except CorpdirError as exc:
            self.notify(f"The profile could not be loaded: {exc}", severity="error", timeout=6)
            return
        open_form(self, profile_form(user.fullname or ""), profile,
                  lambda changes: self.service.people.edit_profile(user.userId, profile, changes=changes),
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

        if await run_write(self, self.service.people.delete(user), f"Deleted {user.fullname}"):
            self.forget_row(user.userId)
            self.query_one(UserDetail).user = None
            self.query_one(DivisionTree).refresh_counts()

    def action_photo_replace(self) -> None:
        user = self.selected
        if user is None:
            return
        from corpdir.tui.forms.writes import pick_image

        pick_image(self, f"Replace the photo of {user.fullname} with this one?", lambda jpeg: self.upload_photo(user, jpeg))

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def upload_photo(self, user: User, jpeg: bytes) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, self.service.images.replace_photo(user.userId, jpeg), f"Photo of {user.fullname} replaced"):
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

        if await run_write(self, self.service.images.delete_photo(user.userId), f"Photo of {user.fullname} deleted"):
            self._repaint_photo(user)

    def _repaint_photo(self, user: User) -> None:
        """The pane shows the photo as it is now (if it still shows that person)."""
        detail = self.query_one(UserDetail)
        if detail.user is not None and detail.user.userId == user.userId:
            detail.user = detail.user

    def _reload_tree(self, moved: Division | None = None) -> None:
        """The tree read again, keeping the user's place; a moved division's new parent
        opens, so the cursor can follow it there."""
        parent = moved.parentDivisionId if moved is not None else None
        self.query_one(DivisionTree).reload_keeping_place(open_also=[parent] if parent else [])

    def action_new_division(self) -> None:
        from corpdir.tui.forms.specs import division_form
        from corpdir.tui.forms.writes import open_form

        parent = self._tree_division()
        open_form(self, division_form(None, parent.divisionId if parent else None), None, self.service.divisions.create,
                  lambda d: (self.say_division("Created division", d), self._reload_tree()))

    def _chosen_division(self) -> Division | None:
        """The division under the tree's cursor, else the one shown; None (and a word to
        the user) when there is neither."""
        division = self._tree_division() or self.browse.division
        if division is None:
            self.notify("Choose a division in the tree first", severity="warning", timeout=2)
        return division

    @work(group="directory-say", exit_on_error=False)
    async def say_division(self, what: str, division: Division) -> None:
        """'Created division 本社 › 営業本部 › 新設課': a division is named by its path."""
        await self.service.divisions.paths([division.divisionId])
        self.notify(f"{what} {self.service.divisions.path(division)}", timeout=3)

    def action_edit_division(self) -> None:
        division = self._chosen_division()
        if division is not None:
            self.open_division_form(division)

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def open_division_form(self, division: Division) -> None:
        from corpdir.tui.forms.specs import division_form
        from corpdir.tui.forms.writes import open_form

        await self.service.divisions.paths([division.divisionId])  # the form's title names it by its path
        open_form(self, division_form(division, path=self.service.divisions.path(division)), division,
                  lambda changes: self.service.divisions.edit(division, changes=changes),
                  lambda d: (self.say_division("Saved division", d), self._reload_tree(moved=d)))

    def action_delete_division(self) -> None:
        division = self._chosen_division()
        if division is not None:
            self.ask_delete_division(division)

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def ask_delete_division(self, division: Division) -> None:
        from corpdir.tui.forms.writes import confirm

        below = len(await self.service.divisions.subtree(division.divisionId)) - 1
        await self.service.divisions.paths([division.divisionId])
        name = self.service.divisions.path(division)
        if below > 0:
            question = (f"Delete division {name} and the {below} {'division' if below == 1 else 'divisions'} below it "
                        f"({below + 1} in all)? This cannot be undone.")
        else:
            question = f"Delete division {name}? No divisions are below it. This cannot be undone."
        confirm(self, question, lambda: self.delete_division(division))

    @work(group="directory-write", exclusive=True, exit_on_error=False)
    async def delete_division(self, division: Division) -> None:
        from corpdir.tui.forms.writes import run_write

        name = self.service.divisions.path(division)  # read before it leaves the cache
        if await run_write(self, self.service.divisions.delete(division), f"Deleted division {name}"):
            if self.browse.division is not None and self.browse.division.divisionId == division.divisionId:
                self.browse = replace(self.browse, division=None)
                self._show()
            self._reload_tree()

    def action_bulk(self) -> None:
        from corpdir.tui.screens.bulk import BulkScreen

        self.app.push_screen(BulkScreen(self.service))
