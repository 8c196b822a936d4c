"""A person's details full screen: what a narrow terminal (80x24) shows on Enter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header

from corpdir.spec.user import User
from corpdir.tui.widgets.user_detail import UserDetail

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService


class UserScreen(Screen):
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back", id="user.back")]
    DEFAULT_CSS = "UserScreen UserDetail { padding: 0 1; }"

    def __init__(self, service: DirectoryService, user: User) -> None:
        super().__init__()
        self.service, self.user = service, user

    def compose(self) -> ComposeResult:
        yield Header()
        yield UserDetail(self.service)
        yield Footer()

    def on_mount(self) -> None:
        detail = self.query_one(UserDetail)
        detail.user = self.user
        detail.focus()
