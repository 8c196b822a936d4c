"""The keys of a place, as the help screen (`?`) and README's key table list them: read
from the bindings themselves (with the user's ``[keymap]``), so neither can drift from
what the keys do.

Apart from the help screen because README's table is made from the classes' bindings
without an app (tests/tui/test_readme_keys.py compares the two).
"""

from __future__ import annotations

from typing import Iterable, Mapping, NamedTuple, Sequence

from textual.binding import Binding
from textual.screen import Screen

# Key names as a keyboard labels them (Textual's names otherwise: 'slash', 'pagedown').
KEY_NAMES = {
    "slash": "/", "asterisk": "*", "question_mark": "?", "escape": "Esc", "enter": "Enter", "space": "Space",
    "delete": "Delete", "backspace": "Backspace", "pageup": "PgUp", "pagedown": "PgDn", "up": "↑", "down": "↓",
    "home": "Home", "end": "End", "tab": "Tab",
}
# Textual's own bindings a desk needs to know, in the words of this app: Tab is how the
# tree, the list and the detail pane are reached.
TEXTUAL_WORDS = {"app.focus_next": "Next part: search box, tree, list, detail",
                 "app.focus_previous": "Previous part"}


class KeyRow(NamedTuple):
    keys: tuple[str, ...]  # as a keyboard labels them: ('Ctrl+S',), ('Esc', 'q')
    what: str  # the binding's description

    @property
    def shown(self) -> str:
        return " / ".join(self.keys)


def key_label(key: str) -> str:
    """One key as a keyboard labels it ('ctrl+s' -> 'Ctrl+S', 'slash' -> '/', 'f5' -> 'F5');
    a letter keeps its case ('E' is Shift+e)."""
    *mods, base = key.split("+")
    if base in KEY_NAMES:
        base = KEY_NAMES[base]
    elif len(base) > 1:
        base = base.upper() if base[0] == "f" and base[1:].isdigit() else base.title()
    elif mods:
        base = base.upper()  # 'Ctrl+X', as the key is labelled
    return "+".join([*(m.title() for m in mods), base])


def keys_of(binding: Binding, keymap: Mapping[str, str]) -> list[str]:
    """The keys that run ``binding``: the user's from ``keymap`` when it names the binding's id."""
    keys = keymap.get(binding.id or "", binding.key)
    return [key_label(k.strip()) for k in keys.split(",")]


def key_rows(bindings: Iterable[Binding], keymap: Mapping[str, str]) -> list[KeyRow]:
    """A row per binding that says what it does, in the order declared; keys that do the
    same thing under one description are one row ('↑ / k')."""
    rows: dict[str, list[str]] = {}
    for binding in bindings:
        what = TEXTUAL_WORDS.get(binding.action, binding.description)
        if what and not binding.system:
            rows.setdefault(what, []).extend(keys_of(binding, keymap))
    return [KeyRow(tuple(dict.fromkeys(keys)), what) for what, keys in rows.items()]


def textual_keys() -> list[Binding]:
    """Textual's bindings every screen has that a desk uses (Tab, Shift+Tab)."""
    return [b for b in Screen.BINDINGS if isinstance(b, Binding) and b.action in TEXTUAL_WORDS]


def class_bindings(cls: type) -> list[Binding]:
    """The bindings ``cls`` and its corpdir ancestors declare (nearest first)."""
    found: list[Binding] = []
    for klass in cls.__mro__:
        if klass.__module__.startswith("corpdir."):
            found += [b for b in klass.__dict__.get("BINDINGS", ()) if isinstance(b, Binding)]
    return found


def readme_places() -> list[tuple[str, list[Binding]]]:
    """README's places, each with its bindings: everywhere, the lists, each screen, the
    full-screen detail, the F8 list, the ringing call (F9) and forms."""
    from corpdir.tui.app import CorpdirApp
    from corpdir.tui.forms.model_form import ModelForm
    from corpdir.tui.screens.calls import CallsScreen
    from corpdir.tui.screens.contacts import ContactsScreen
    from corpdir.tui.screens.detail_screen import DetailScreen
    from corpdir.tui.screens.directory import DirectoryScreen
    from corpdir.tui.screens.lookup import LookupScreen
    from corpdir.tui.screens.people_at_hand import PeopleAtHandScreen
    from corpdir.tui.widgets.ring_card import RingCard
    from corpdir.tui.widgets.virtual_list import VirtualList

    return [("anywhere", [*class_bindings(CorpdirApp), *textual_keys()]), ("lists", class_bindings(VirtualList)),
            ("directory", class_bindings(DirectoryScreen)), ("contacts", class_bindings(ContactsScreen)),
            ("calls", class_bindings(CallsScreen)), ("lookup", class_bindings(LookupScreen)),
            ("details", class_bindings(DetailScreen)), ("F8 list", class_bindings(PeopleAtHandScreen)),
            ("ringing call (F9)", class_bindings(RingCard)), ("forms", class_bindings(ModelForm))]


def markdown_table(places: Sequence[tuple[str, list[Binding]]]) -> str:
    """README's key table: one line per key and description, the places it works in joined
    ('c | directory, contacts, calls, lookup | Copy no.')."""
    where: dict[KeyRow, list[str]] = {}
    for place, bindings in places:
        for row in key_rows(bindings, {}):
            where.setdefault(row, []).append(place)
    lines = ["| Key | Where | What |", "|---|---|---|"]
    lines += [f"| {' / '.join(f'`{k}`' for k in row.keys)} | {', '.join(places_)} | {row.what} |"
              for row, places_ in where.items()]
    return "\n".join(lines) + "\n"
