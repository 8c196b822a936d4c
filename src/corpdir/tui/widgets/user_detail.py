"""The detail pane of a user: photo, every field the caller may see, divisions,
collaborations and the profile.

The screen sets ``user`` (from the cache, at once); the pane then loads the photo
(THUMBNAIL), the profile and a fresh copy of the record in a worker, so what shows first
is instant and what shows next is current.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from corpdir.client.errors import CorpdirError
from corpdir.spec.profile import Profile
from corpdir.spec.user import User
from corpdir.tui.labels import USER_FIELDS
from corpdir.tui.text import joined, literal
from corpdir.tui.widgets.photo import PhotoView
from corpdir.tui.widgets.record_fields import fields_table

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService


def _section(title: str) -> Text:
    return Text(title, style="bold underline")


def profile_renderable(profile: Profile | None) -> Group | Text:
    if profile is None:
        return Text("No profile.", style="dim")
    parts: list = []
    if profile.oneWord:
        parts += [literal(profile.oneWord, "italic"), Text("")]
    if profile.jobDescription:
        parts += [_section("Job"), literal(profile.jobDescription), Text("")]
    for title, values in (("Skills", profile.skills), ("Tools", profile.toolTechnologies), ("Qualifications", profile.qualifications)):
        if values:
            parts += [_section(title), literal(joined(values, " · ")), Text("")]
    for title, entries, date_key, text_key in (
        ("History", profile.briefHistories, "briefHistoryDate", "briefHistoryText"),
        ("Achievements", profile.achievementHistories, "achievementHistoryDate", "achievementHistoryText"),
    ):
        if entries:
            grid = Table.grid(padding=(0, 1))
            for entry in entries:
                grid.add_row(literal(getattr(entry, date_key) or "", "dim"), literal(getattr(entry, text_key) or ""))
            parts += [_section(title), grid, Text("")]
    if profile.externalLinks:
        parts.append(_section("Links"))
        parts += [literal(f"{link.externalLinkTitle or ''} {link.externalLinkUrl or ''}".strip()) for link in profile.externalLinks]
        parts.append(Text(""))
    if profile.customColumns:
        grid = Table.grid(padding=(0, 1))
        for column in profile.customColumns:
            grid.add_row(literal(column.customColumnTitle or "", "bold"), literal(column.customColumnValue or ""))
        parts += [grid]
    return Group(*parts) if parts else Text("No profile.", style="dim")


class UserDetail(VerticalScroll, can_focus=True):
    # The pane's own layout, so it looks the same in the directory and full screen (80x24).
    DEFAULT_CSS = """
    UserDetail #user-heading { height: auto; }
    UserDetail #user-photo { margin-right: 1; }
    UserDetail #user-title { width: 1fr; height: auto; }
    UserDetail #user-name, UserDetail #user-subtitle { height: auto; }
    UserDetail #user-fields, UserDetail #user-collaborations, UserDetail #user-profile-title,
    UserDetail #user-profile { height: auto; margin-top: 1; }
    """
    user: reactive[User | None] = reactive(None, always_update=True)

    def __init__(self, service: DirectoryService, *, user: User | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.service = service
        self._first_user = user

    def on_mount(self) -> None:
        if self._first_user is not None:  # opened for one person (full screen on a narrow terminal)
            self.user = self._first_user

    def compose(self) -> ComposeResult:
        with Horizontal(id="user-heading"):
            yield PhotoView(cells=(16, 8), id="user-photo")
            with Vertical(id="user-title"):
                yield Static(id="user-name")
                yield Static(id="user-subtitle")
        yield Static(id="user-fields")
        yield Static(id="user-collaborations")
        yield Static(_section("Profile"), id="user-profile-title")
        yield Static(id="user-profile")

    def watch_user(self, user: User | None) -> None:
        if user is None:
            self.query_one("#user-name", Static).update(Text("Select a person", style="dim"))
            for part in ("#user-subtitle", "#user-fields", "#user-collaborations", "#user-profile"):
                self.query_one(part, Static).update("")
            return
        self._paint(user)
        self.load_more(user.userId)

    def _paint(self, user: User) -> None:
        self.query_one("#user-name", Static).update(literal(user.fullname or "(no name)", "bold"))
        divisions = joined([d.divisionName for d in user.divisions or []])
        self.query_one("#user-subtitle", Static).update(literal(joined([user.position, divisions], " · "), "dim"))
        self.query_one("#user-fields", Static).update(fields_table(user, USER_FIELDS))
        collaborations = [f"{c.clientName or ''}: {c.chatAccountId or ''}" for c in user.collaborations or []]
        self.query_one("#user-collaborations", Static).update(
            Group(_section("Collaborations"), *[literal(c) for c in collaborations]) if collaborations else "")

    @work(group="user-detail", exclusive=True)
    async def load_more(self, user_id: int) -> None:
        photo = self.query_one("#user-photo", PhotoView)
        profile_view = self.query_one("#user-profile", Static)
        try:
            await photo.show(await self.service.photo(user_id, "THUMBNAIL"))
        except CorpdirError:
            await photo.show(None, "photo unavailable")
        try:
            profile_view.update(profile_renderable(await self.service.profile(user_id)))
        except CorpdirError as exc:
            profile_view.update(literal(f"Profile unavailable: {exc}", "dim"))
        try:
            fresh = await self.service.refresh_user(user_id)
        except CorpdirError:
            return  # offline or gone: the cached record stays on screen
        if self.user is not None and self.user.userId == user_id and fresh != self.user:
            self._paint(fresh)
