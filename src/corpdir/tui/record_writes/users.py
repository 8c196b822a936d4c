"""A person's writes: new, edit and delete, their profile, their face photo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable

from textual.screen import Screen

from corpdir.service.errors import CorpdirError
from corpdir.tui.context import AppContext
from corpdir.tui.record_writes import RecordWrites

if TYPE_CHECKING:
    from corpdir.spec.division import Division
    from corpdir.spec.user import User


class UserWrites(RecordWrites):
    """``saved(user)``: a person was created or saved (the list and pane show them);
    ``deleted(user)``: they are gone; ``photo_changed(user)``: their photo was replaced or
    deleted."""

    def __init__(self, host: Screen, context: AppContext, *, saved: Callable[[User], None],
                 deleted: Callable[[User], None], photo_changed: Callable[[User], None]) -> None:
        super().__init__(host, context, "directory-write")
        self.saved, self.deleted, self.photo_changed = saved, deleted, photo_changed

    def _done(self, what: str) -> Callable[[User], None]:
        return lambda user: (self.notify(f"{what} {user.fullname}"), self.saved(user))

    def new(self, division: Division | None) -> None:
        """The form for a new person, in ``division`` (the one shown) if any."""
        from corpdir.tui.forms.specs import user_form
        from corpdir.tui.forms.writes import open_form

        spec = user_form(None, self.service.variant)
        if division is not None:
            spec.initial = {**spec.initial, "divisionIds": [division.divisionId]}
        open_form(self.host, spec, None, self.service.people.create, self._done("Created"))

    def edit(self, user: User) -> None:
        self.run(self._edit(user))

    async def _edit(self, user: User) -> None:
        from corpdir.tui.forms.specs import user_form
        from corpdir.tui.forms.writes import open_form

        try:  # edit what the service has now, so the diff is against the latest record
            user = await self.service.people.refresh_user(user.userId)
        except CorpdirError:
            pass
        open_form(self.host, user_form(user, self.service.variant), user,
                  lambda changes: self.service.people.edit(user, changes=changes), self._done("Saved"))

    def edit_profile(self, user: User) -> None:
        self.run(self._edit_profile(user))

    async def _edit_profile(self, user: User) -> None:
        from corpdir.spec.profile import Profile
        from corpdir.tui.forms.specs import profile_form
        from corpdir.tui.forms.writes import open_form

        try:
            profile = await self.service.people.profile(user.userId) or Profile()
        except CorpdirError as exc:
            self.notify(f"The profile could not be loaded: {exc}", severity="error", timeout=6)
            return
        open_form(self.host, profile_form(user.fullname or ""), profile,
                  lambda changes: self.service.people.edit_profile(user.userId, profile, changes=changes),
                  lambda saved: (self.notify(f"Saved the profile of {user.fullname}"), self.saved(user)))

    def delete(self, user: User) -> None:
        """Asked first; the photo goes with the person."""
        from corpdir.tui.forms.writes import confirm

        who = user.fullname or f"#{user.userId}"
        login = f" ({user.loginId})" if user.loginId else ""
        confirm(self.host, f"Delete {who}{login}? Their face photo is deleted too. This cannot be undone.",
                lambda: self.run(self._delete(user)))

    async def _delete(self, user: User) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self.host, self.service.people.delete(user), f"Deleted {user.fullname}"):
            self.deleted(user)

    def replace_photo(self, user: User) -> None:
        """An image file chosen, converted to JPEG and previewed, then sent."""
        from corpdir.tui.forms.writes import pick_image

        pick_image(self.host, f"Replace the photo of {user.fullname} with this one?",
                   lambda jpeg: self.run(self._photo(user, lambda: self.service.images.replace_photo(user.userId, jpeg), "replaced")))

    def delete_photo(self, user: User) -> None:
        from corpdir.tui.forms.writes import confirm

        confirm(self.host, f"Delete the photo of {user.fullname}?",
                lambda: self.run(self._photo(user, lambda: self.service.images.delete_photo(user.userId), "deleted")))

    async def _photo(self, user: User, write: Callable[[], Awaitable[object]], done: str) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self.host, write(), f"Photo of {user.fullname} {done}"):
            self.photo_changed(user)
