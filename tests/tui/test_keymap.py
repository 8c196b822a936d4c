"""User keymaps: the config file's [keymap] table gives bindings other keys; a bad entry
is a notification naming it, and the app runs on with the keys it had."""

from __future__ import annotations

import os
import re
from pathlib import Path

from corpdir.config import load_settings
from corpdir.tui.keymap import binding_ids
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import Notifications, wait_for

README = Path(__file__).resolve().parents[2] / "README.md"


def keymap_notes(notes: Notifications) -> list[str]:
    return [m for m in notes.messages if m.startswith("[keymap]")]


async def started(pilot, app) -> None:
    users = app.screen.query_one("#users", VirtualList)
    assert await wait_for(pilot, lambda: users.highlighted is not None)


async def test_keys_from_the_config_file_replace_the_bindings_keys(make_app):
    config = Path(os.environ["CORPDIR_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    # dotted names written bare (a nested TOML table) or quoted mean the same
    config.write_text('[keymap]\napp.lookup = "ctrl+l"\n"directory.search" = "f6, ctrl+g"\n', encoding="utf-8")
    app = make_app(keymap=load_settings().keymap)
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        await started(pilot, app)
        palette = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "Go to Lookup (CTRL+L)" in palette  # the command palette names the user's keys
        assert "f6,ctrl+g" in palette.values()
        await pilot.press("ctrl+g")
        assert await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "search")
        await pilot.press("escape", "f4")  # Lookup's old key does nothing now
        await pilot.pause()
        assert app.current_mode == "directory"
        await pilot.press("ctrl+l")
        assert await wait_for(pilot, lambda: app.current_mode == "lookup")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert keymap_notes(notes) == []  # nothing to complain about


async def test_a_bad_entry_is_named_in_a_notification_and_the_rest_applies(make_app):
    app = make_app(keymap={"directory.serch": "ctrl+f", "app.calls": 3, "app.contacts": "ctrl+fx",
                                "app.lookup": "ctrl+l"})
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        await started(pilot, app)
        assert await wait_for(pilot, lambda: len(keymap_notes(notes)) == 3), notes.messages
        said = keymap_notes(notes)
        assert any(m.startswith("[keymap] directory.serch: no key binding has this id") for m in said)
        assert any(m.startswith("[keymap] app.calls = 3: the keys must be text") for m in said)
        assert any(m.startswith("[keymap] app.contacts = 'ctrl+fx': 'ctrl+fx' is not a key name") for m in said)
        await pilot.press("f2")  # a bad entry leaves the binding its own key
        assert await wait_for(pilot, lambda: app.current_mode == "contacts")
        await pilot.press("ctrl+l")  # and the good entry applies
        assert await wait_for(pilot, lambda: app.current_mode == "lookup")


async def test_a_key_taken_from_another_binding_is_said(make_app):
    app = make_app(keymap={"app.lookup": "f2"})
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        await started(pilot, app)
        await pilot.press("f2")
        assert await wait_for(pilot, lambda: app.current_mode == "lookup")
        assert await wait_for(pilot, lambda: "[keymap] app.lookup takes f2 from app.contacts, which no longer has it." in notes.messages), \
            notes.messages


def test_readme_lists_every_binding_id():
    listed = set(re.findall(r"`([a-z_]+\.[a-z_]+)`", README.read_text(encoding="utf-8")))
    missing = sorted(binding_ids() - listed)
    assert not missing, f"README's keymap section lacks {missing}"
