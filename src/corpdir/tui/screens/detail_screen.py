"""A record's details full screen: what a narrow terminal (80x24) shows on Enter in the
directory, contacts, calls and lookup screens, and what a ring card or F8 opens. The
screen that opens it builds the detail widget (already holding its record), so this
screen only frames it: header, the widget, footer.

It keeps the record it shows as the chosen one (``selected``, as a list screen does), so
the desk's keys work here as on the list: F5 and ``b`` call, ``c`` and ``e`` copy the
number and the e-mail, ``*`` makes a favourite; ``O`` (a call's person), ``S`` (a call's
number saved as a contact) and ``p`` (a person's photo) run the list's own action.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from corpdir.tui.chosen import copy_value, email_of, number_of
from corpdir.tui.context import context_of
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.title_bar import TitleBar


class DetailScreen(Screen):
    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "Back", id="detail.back"),
        Binding("b", "call", "Call", id="detail.call"),
        Binding("c", "copy_number", "Copy no.", id="detail.copy_number"),
        Binding("e", "copy_email", "Copy e-mail", id="detail.copy_email"),
        # The list's keys that only look further (no write, so the record shown stays current):
        Binding("O", "forward('open_who')", "Open person", id="detail.open_who"),
        Binding("p", "forward('show_photo')", "Photo", show=False, id="detail.photo"),
        # A write that leaves the record shown as it is: an unknown caller's number saved as a
        # contact (O on such a call says "S saves it as a new contact").
        Binding("S", "forward('save_contact')", "Save as contact", show=False, id="detail.save_contact"),
    ]
    CSS_PATH = "detail_screen.tcss"

    def __init__(self, detail: Widget, chosen: Any, opener: Screen | None = None) -> None:
        """``chosen``: the record the widget shows (a User, a Contact, a call's or a
        looked-up row); ``opener``: the list it was opened from, its row ``chosen``."""
        super().__init__()
        self.detail = detail
        self.selected = chosen
        self.opener = opener
        self.detail.add_class("detail")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield self.detail
        yield KeyBar()

    def on_mount(self) -> None:
        self.detail.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A call's row has no e-mail: ``e`` is not offered there; a key of the list only
        where it was opened from a list that has it."""
        if action == "forward":
            name = str(parameters[0])
            return self.opener is not None and hasattr(self.opener, f"action_{name}") and \
                self.opener.check_action(name, ()) is not False
        return action != "copy_email" or hasattr(self.selected, "email1")

    async def action_forward(self, name: str) -> None:
        """The list's own action, on the same row (the list's chosen one is this record)."""
        await self.app.run_action(name, self.opener)

    def action_call(self) -> None:
        context_of(self).desk_phone.dial(number_of(self.selected))

    def action_copy_number(self) -> None:
        copy_value(self, number_of(self.selected), "number")

    def action_copy_email(self) -> None:
        copy_value(self, email_of(self.selected), "e-mail")
