"""A record's details full screen: what a narrow terminal (80x24) shows on Enter in the
contacts, calls and lookup screens. The screen that opens it builds the detail widget
(already holding its record), so this screen only frames it: header, the widget, footer."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.title_bar import TitleBar


class DetailScreen(Screen):
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back", id="detail.back")]
    CSS_PATH = "detail_screen.tcss"

    def __init__(self, detail: Widget) -> None:
        super().__init__()
        self.detail = detail
        self.detail.add_class("detail")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield self.detail
        yield KeyBar()

    def on_mount(self) -> None:
        self.detail.focus()
