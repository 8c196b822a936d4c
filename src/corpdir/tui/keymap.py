"""User keymaps: the config file's ``[keymap]`` table, applied with Textual's ``set_keymap``.

Every binding of the app has an id (``directory.search``, ``app.lookup``: README lists
them); an entry ``binding_id = "keys"`` gives that binding other keys (several separated
by commas). A bad entry (an id no binding has, keys that are not text or not key names)
is left out and named in a notification: a typo in the config never stops the desk.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Mapping

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.keys import Keys, key_to_character

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
_NAMED = frozenset(k.value for k in Keys if not k.value.startswith("<"))


def is_key_name(key: str) -> bool:
    """True for what Textual can bind: a character or a key's name (``f3``, ``pageup``,
    ``question_mark``), after any modifiers (``ctrl+shift+f``)."""
    *mods, base = key.split("+")
    if not base or any(m not in MODIFIERS for m in mods):
        return False
    return len(base) == 1 or base in _NAMED or key_to_character(base) is not None


def checked(table: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The entries of a ``[keymap]`` table that can be applied, and one sentence per entry
    that cannot (its keys are not text, or not key names)."""
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in table.items():
        if not isinstance(keys, str) or not keys.strip():
            problems.append(f"[keymap] {binding_id} = {keys!r}: the keys must be text such as \"ctrl+f\" "
                            "(several: \"ctrl+f,f6\"); not applied.")
            continue
        names = [k.strip() for k in keys.split(",")]
        unknown = [k for k in names if not is_key_name(k)]
        if unknown:
            problems.append(f"[keymap] {binding_id} = {keys!r}: {', '.join(map(repr, unknown))} is not a key name "
                            "(e.g. \"ctrl+f\", \"f6\", \"question_mark\"); not applied.")
            continue
        keymap[binding_id] = ",".join(names)
    return keymap, problems


def tui_bindings() -> list[list[Binding]]:
    """The bindings of every class of the TUI (the app, each screen and widget), a list
    per class; their modules are imported first, as screens are otherwise loaded only
    when opened."""
    import corpdir.tui

    for module in pkgutil.walk_packages(corpdir.tui.__path__, "corpdir.tui."):
        importlib.import_module(module.name)
    found: list[list[Binding]] = []
    pending: list[type] = [DOMNode]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("corpdir."):
            found.append([b for b in cls.__dict__.get("BINDINGS", ()) if isinstance(b, Binding)])
    return found


def binding_ids() -> set[str]:
    """The id of every binding of the TUI."""
    return {b.id for bindings in tui_bindings() for b in bindings if b.id}


def _keys(keys: str) -> set[str]:
    """Keys as Textual holds them (``*`` is ``asterisk``)."""
    return set(BindingsMap([Binding(keys, "noop")]).key_to_bindings)


def later_problems(keymap: Mapping[str, str]) -> list[str]:
    """A sentence per keymap entry whose id no binding has (a typo, a binding renamed), and
    per binding that loses a key to an entry beside it (Textual gives the key to the
    entry). Needs every screen's bindings, so it runs after the first screen is up."""
    every = tui_bindings()
    known = {b.id for bindings in every for b in bindings if b.id}
    problems = [f"[keymap] {binding_id}: no key binding has this id (README lists them); not applied."
                for binding_id in keymap if binding_id not in known]
    for bindings in every:
        for entry in (b for b in bindings if b.id in keymap):
            taken = _keys(keymap[entry.id])
            for other in (b for b in bindings if b.id not in keymap):
                if lost := taken & _keys(other.key):
                    problems.append(f"[keymap] {entry.id} takes {', '.join(sorted(lost))} from "
                                    f"{other.id or other.action}, which no longer has it.")
    return problems
