"""Favourites and recently viewed people and contacts (F8 anywhere): Enter opens one,
b calls them through the desk's dialer, * adds or removes a favourite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from corpdir.phone import for_display
from corpdir.tui.context import context_of
from corpdir.tui.text import cell

if TYPE_CHECKING:
    from corpdir.service.people_at_hand import PeopleAtHand, PersonRef
    from corpdir.tui.desk_phone import DeskPhone


class PeopleAtHandScreen(ModalScreen[None]):
    CSS_PATH = "people_at_hand.tcss"
    BINDINGS = [
        Binding("escape,q,f8", "app.pop_screen", "Close", id="people.close"),
        Binding("b", "call", "Call", id="people.call"),
        Binding("asterisk", "favourite", "Favourite", id="people.favourite"),
    ]

    def __init__(self, people: PeopleAtHand, phone: DeskPhone) -> None:
        super().__init__()
        self.people = people
        self.phone = phone
        self.refs: dict[str, PersonRef] = {}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Favourites and recently viewed · ⏎ open  b call  * favourite  Esc close", id="people-help")
            yield OptionList(id="people")

    def on_mount(self) -> None:
        self.fill()
        self.query_one(OptionList).focus()

    def fill(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        self.refs.clear()
        favourites = self.people.favourites()
        recent = [r for r in self.people.recent() if not any(f.key == r.key for f in favourites)]
        region = context_of(self).service.settings.region
        for heading, refs in (("★ Favourites", favourites), ("Recently viewed", recent)):
            options.add_option(Option(Text(heading, style="bold"), disabled=True))
            if not refs:
                options.add_option(Option(Text("  (none yet)", style="dim"), disabled=True))
            for ref in refs:
                oid = f"{ref.kind}-{ref.id}-{len(self.refs)}"
                self.refs[oid] = ref
                label = Text(f"  {cell(ref.name, 24)} {cell(for_display(ref.number, region), 16)} {'contact' if ref.kind == 'contact' else ''}")
                options.add_option(Option(label, id=oid))
        if highlighted is not None and highlighted < options.option_count:
            options.highlighted = highlighted
        else:
            options.action_first()

    def _selected(self) -> PersonRef | None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return None
        return self.refs.get(options.get_option_at_index(options.highlighted).id or "")

    @on(OptionList.OptionSelected)
    def _open(self, event: OptionList.OptionSelected) -> None:
        ref = self.refs.get(event.option.id or "")
        if ref is not None:
            self.phone.open_ref(ref)

    def action_call(self) -> None:
        ref = self._selected()
        if ref is not None:
            self.phone.dial(ref.number)

    def action_favourite(self) -> None:
        ref = self._selected()
        if ref is not None:
            self.people.toggle_favourite(ref)
            self.fill()
