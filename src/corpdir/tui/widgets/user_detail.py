"""The detail pane of a user: photo, every field the caller may see, divisions,
collaborations and the profile.

The screen sets ``user`` (from the cache, at once); the pane then loads the photo
(THUMBNAIL), the profile and a fresh copy of the record in a worker, so what shows first
is instant and what shows next is current.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive

from corpdir.calls.presence.lamps import Lamp
from corpdir.service.errors import CorpdirError
from corpdir.tui.labels import USER_FIELDS, shown_fields
from corpdir.tui.start_queue import burst_over
from corpdir.tui.text import Wrapped, joined, literal
from corpdir.tui.widgets import tcss_beside
from corpdir.tui.widgets.busy_lamp import lamp_text
from corpdir.tui.widgets.photo import PhotoView
from corpdir.tui.widgets.record_fields import fields_table
from corpdir.tui.widgets.rendered_lines import RenderedLines

if TYPE_CHECKING:
    from corpdir.spec.user import User
    from corpdir.service.directory import DirectoryService
    from corpdir.spec.profile import Profile  # not at the start: profiles are read after the first rows
    from corpdir.tui.busy_lamps import BusyLamps


# the record's fields with its divisions (by path, one a line) after the name's readings
DETAIL_FIELDS = {**{k: v for k, v in USER_FIELDS.items() if k in ("fullnameKana", "fullnameAlphabet")},
                 "divisions": "Divisions", **USER_FIELDS}


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
        parts += [Wrapped(f"{link.externalLinkTitle or ''} {link.externalLinkUrl or ''}".strip()) for link in profile.externalLinks]
        parts.append(Text(""))
    if profile.customColumns:
        grid = Table.grid(padding=(0, 1))
        for column in profile.customColumns:
            grid.add_row(literal(column.customColumnTitle or "", "bold"), Wrapped(column.customColumnValue or ""))
        parts += [grid]
    return Group(*parts) if parts else Text("No profile.", style="dim")


class UserDetail(Vertical, can_focus=True):
    """Heading (photo, name, position) over the record's lines. Both text parts are
    :class:`RenderedLines`: moving to another person repaints them without re-laying out
    the screen (which cost 60-70 ms a person with a stack of auto-height Statics). Their
    scrollbars never come and go (always there, or never), which would re-lay out too."""

    # The pane's own layout, so it looks the same in the directory and full screen (80x24).
    DEFAULT_CSS = tcss_beside(__file__)
    BINDINGS = [
        Binding("up", "scroll_body(-1)", "Scroll up", show=False),
        Binding("down", "scroll_body(1)", "Scroll down", show=False),
        Binding("pageup", "scroll_body(-10)", "Page up", show=False),
        Binding("pagedown", "scroll_body(10)", "Page down", show=False),
    ]
    user: reactive[User | None] = reactive(None, always_update=True)

    def __init__(self, service: DirectoryService, *, user: User | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.service = service
        self._first_user = user
        self._profile: RenderableType = ""
        self._lamp: Lamp | None = None  # the busy lamp painted beside the name

    def on_mount(self) -> None:
        if (lamps := self._lamps()) is not None:
            lamps.listeners.append(self._lamps_changed)
        if self._first_user is not None:  # opened for one person (full screen on a narrow terminal)
            self.user = self._first_user

    def on_unmount(self) -> None:
        if (lamps := self._lamps()) is not None and self._lamps_changed in lamps.listeners:
            lamps.listeners.remove(self._lamps_changed)

    def _lamps(self) -> BusyLamps | None:
        """The desk's busy lamps, when ``[calls.presence]`` configures them."""
        desk = getattr(self.app, "desk_phone", None)
        return desk.lamps if desk is not None and desk.lamps.enabled else None

    def _lamps_changed(self, extensions: frozenset[str]) -> None:
        """Live: the title again when the lamp of the person shown is not the one painted."""
        lamps = self._lamps()
        if self.user is not None and self.user.extensionNum and lamps is not None and self.query("#user-title") \
                and lamps.lamp(self.user.extensionNum) is not self._lamp:
            self._paint_title(self.user)

    def compose(self) -> ComposeResult:
        with Horizontal(id="user-heading"):
            yield PhotoView(cells=(16, 8), id="user-photo")
            yield RenderedLines(Text("Select a person", style="dim"), id="user-title")
        yield RenderedLines(id="user-body")

    def action_scroll_body(self, lines: int) -> None:
        body = self.query_one("#user-body", RenderedLines)
        body.scroll_to(y=body.scroll_offset.y + lines, animate=False)

    def watch_user(self, user: User | None) -> None:
        if user is None:
            self.query_one("#user-title", RenderedLines).update(Text("Select a person", style="dim"))
            self.query_one("#user-body", RenderedLines).update()
            return
        self._profile = ""
        if (lamps := self._lamps()) is not None:
            lamps.pin(user.extensionNum)
        self._paint(user)
        self.load_more(user.userId)

    def _paint(self, user: User) -> None:
        """Name, position and first division (by its path) over the fields; every division
        by its path in the fields ('本社 › 技術本部 › 品質保証部 › 1課')."""
        if not self.query("#user-title"):
            return  # the pane is being taken down (the app quits) while its worker finishes
        paths = [self.service.divisions.path(d) for d in user.divisions or []]
        self._paint_title(user, paths)
        labels = shown_fields(DETAIL_FIELDS, user, self.service)
        parts: list[RenderableType] = [Text(""), fields_table(user, labels, {"divisions": paths}, region=self.service.settings.region)]
        collaborations = [f"{c.clientName or ''}: {c.chatAccountId or ''}" for c in user.collaborations or []]
        if collaborations:
            parts += [Text(""), _section("Collaborations"), *[Wrapped(c) for c in collaborations]]
        parts += [Text(""), _section("Profile")]
        if self._profile:
            parts.append(self._profile)
        self.query_one("#user-body", RenderedLines).update(*parts)

    def _paint_title(self, user: User, paths: list[str] | None = None) -> None:
        """Name (with the busy lamp beside it, when lamps are configured), position and first
        division, where the desk last said they are."""
        paths = [self.service.divisions.path(d) for d in user.divisions or []] if paths is None else paths
        first = paths[0] + (f" +{len(paths) - 1}" if len(paths) > 1 else "") if paths else ""
        where = self._whereabouts(user)
        name = literal(user.fullname or "(no name)", "bold")
        lamps = self._lamps()
        self._lamp = lamps.lamp(user.extensionNum) if lamps is not None and user.extensionNum else None
        if self._lamp is not None:
            name = Text.assemble(name, "  ", lamp_text(self._lamp))
        self.query_one("#user-title", RenderedLines).update(
            name, literal(joined([user.position, first], " · "), "dim"),
            *([literal(f"◆ {where}", "bold")] if where else []))

    def _whereabouts(self, user: User) -> str:
        """What the desk last set for them ("外出 15:00戻り"): the service has no read of it."""
        desk = getattr(self.app, "desk_phone", None)
        found = desk.whereabouts.of(user.loginId) if desk is not None and user.loginId else None
        return found.shown if found is not None else ""

    def repaint(self) -> None:
        """Again from what is known now (the desk set their whereabouts)."""
        if self.user is not None:
            self._paint(self.user)

    @work(group="user-detail", exclusive=True)
    async def load_more(self, user_id: int) -> None:
        await burst_over()  # the photo and profile are asked for once other sessions' first screens are up
        photo = self.query_one("#user-photo", PhotoView)
        try:
            await photo.show(await self.service.images.photo(user_id, "THUMBNAIL"))
        except CorpdirError:
            await photo.show(None, "photo unavailable")
        try:
            self._profile = profile_renderable(await self.service.people.profile(user_id))
        except CorpdirError as exc:
            self._profile = literal(f"Profile unavailable: {exc}", "dim")
        if self.user is not None:  # opened from elsewhere than a list: its divisions' paths read now
            await self.service.divisions.paths([d.divisionId for d in self.user.divisions or []])
        shown = self.user
        if shown is None or shown.userId != user_id:
            return
        self._paint(shown)
        try:
            fresh = await self.service.people.refresh_user(user_id)
        except CorpdirError:
            return  # offline or gone: the cached record stays on screen
        if self.user is not None and self.user.userId == user_id and fresh != self.user:
            self._paint(fresh)
