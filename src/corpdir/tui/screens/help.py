"""`?` (or the palette's "Help"): the keys of the screen in front, read from its bindings,
those of where the cursor is, and the app's, with the user's ``[keymap]`` applied; in a
kiosk, without the keys that write. Esc, q or ? closes it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from corpdir.tui.readonly import action_writes
from corpdir.tui.screens.help_keys import KeyRow, class_bindings, key_rows, textual_keys

if TYPE_CHECKING:
    from textual.dom import DOMNode


def screen_title(screen: Screen) -> str:
    """The screen's name from its class: 'Directory', 'Detail', 'People at hand'."""
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", type(screen).__name__.removesuffix("Screen"))
    return words[:1] + words[1:].lower()


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,q,question_mark", "app.pop_screen", "Close", id="help.close")]

    def __init__(self, front: Screen) -> None:
        super().__init__()
        self.front = front

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text.assemble((f"Keys: {screen_title(self.front)}", "bold"), ("  ·  ↑ ↓ scroll  ·  Esc closes", "dim")), id="help-title")
            sections = self.sections()
            with VerticalScroll(id="help-body"), Horizontal(id="help-columns"):
                # this screen's keys on the left, the app's on the right: one screen of keys at 120x36
                yield Static(self._table(sections[:-1]), id="help-screen-keys")
                yield Static(self._table(sections[-1:]), id="help-app-keys")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def sections(self) -> list[tuple[str, list[KeyRow]]]:
        """This screen's keys, those of the part with the cursor, then the app's."""
        app: Any = self.app
        keymap = getattr(app, "user_keymap", {})
        here: list[KeyRow] = []
        node: DOMNode | None = self.front.focused
        while node is not None and node is not self.front:
            here += key_rows(self._usable(node, class_bindings(type(node))), keymap)
            node = node.parent
        everywhere = self._usable(app, class_bindings(type(app)))
        if isinstance(self.front, ModalScreen):  # a modal keeps the app's keys out, but its priority ones and this help
            everywhere = [b for b in everywhere if b.priority or b.id == "app.help"]
        everywhere += textual_keys()
        palette = [Binding(app.COMMAND_PALETTE_BINDING, "command_palette", "Command palette: every screen and action")]
        sections = [("On this screen", key_rows(self._usable(self.front, class_bindings(type(self.front))), keymap)),
                    ("Where the cursor is", here), ("Everywhere", key_rows([*everywhere, *palette], keymap))]
        return [(title, rows) for title, rows in sections[:-1] if rows] + sections[-1:]

    def _usable(self, namespace: object, bindings: list[Binding]) -> list[Binding]:
        """The bindings that run here: in a kiosk, not those that write."""
        if not getattr(self.app, "read_only", False):
            return bindings
        return [b for b in bindings if not action_writes(namespace, b.action.split("(")[0].removeprefix("app."))]

    @staticmethod
    def _table(sections: list[tuple[str, list[KeyRow]]]) -> Group:
        """Each section's title over its keys and what they do."""
        parts: list[RenderableType] = []
        for title, rows in sections:
            table = Table.grid(padding=(0, 2))
            table.add_column(style="bold", no_wrap=True)
            table.add_column()
            for row in rows:
                table.add_row(Text(row.shown), Text(row.what))
            parts += [Text(title, style="bold underline"), table, Text("")]
        return Group(*parts[:-1])
