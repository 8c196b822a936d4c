"""`?` and the palette's "Help": the keys of the screen in front, read from its bindings
and the user's keymap (a kiosk's without the keys that write); Esc closes it. Snapshots
at 80x24 and 120x36."""

from __future__ import annotations

import pytest

from corpdir.tui.screens.help import HelpScreen
from corpdir.tui.widgets.virtual_list import VirtualList
from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401  (_still: autouse fixture)
from tui_helpers import listed, screen_text, settle, wait_for


def help_text(app) -> str:
    """Every line of the help, also those below the fold (it scrolls at 80x24)."""
    lines = []
    for part in app.screen.query("#help-screen-keys, #help-app-keys"):
        lines += ["".join(s.text for s in part.render_line(y)).strip() for y in range(part.size.height)]
    return "\n".join(" ".join(line.split()) for line in lines)


async def started(pilot, app) -> None:
    users = app.screen.query_one("#users", VirtualList)
    assert await wait_for(pilot, lambda: users.highlighted is not None)


async def test_question_mark_lists_the_keys_of_the_screen_in_front_and_esc_closes_it(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await started(pilot, app)
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "Keys: Directory" in screen_text(app)
        text = help_text(app)
        for said in ("F5 Call", "F8 Favourites & recent", "F9 Ringing call", "/ Search",
                     "s Sub-divs", "Tab Next part: search box, tree, list, detail", "Ctrl+P Command palette"):
            assert said in text, (said, text)
        assert "Call back" not in text  # the Calls screen's keys are not this screen's
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.press("f3")
        assert await wait_for(pilot, lambda: app.current_mode == "calls")
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "Keys: Calls" in screen_text(app)
        text = help_text(app)
        assert "b Call back" in text and "Sub-divs" not in text
        await pilot.press("question_mark")  # ? again closes it too
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CallsScreen")


@pytest.mark.parametrize(("key", "front", "title", "its_key"), [
    ("f8", "PeopleAtHandScreen", "Keys: People at hand", "b Call"),
    ("f6", "SlipsScreen", "Keys: Slips", "r Send again"),
    ("f7", "DeskView", "Keys: Desk view", "t Put through"),
])
async def test_question_mark_on_a_list_in_front_shows_its_keys(make_app, key, front, title, its_key):
    """F6, F7 and F8 are modal: `?` did nothing there. Its help lists only the app's keys
    that still work over it (F1 does not, Ctrl+Q does)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        await pilot.press(key)
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == front)
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert title in screen_text(app)
        text = help_text(app)
        assert its_key in text and "Ctrl+Q Quit" in text and "F1 Directory" not in text, text
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == front)


async def test_the_help_names_the_keys_of_the_users_keymap(make_app):
    app = make_app(keymap={"app.call": "ctrl+g", "directory.search": "f6,ctrl+f"})
    async with app.run_test(size=(120, 36)) as pilot:
        await started(pilot, app)
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = help_text(app)
        assert "Ctrl+G Call" in text and "F6 / Ctrl+F Search" in text
        assert "F5 Call" not in text and "/ Search" not in text


async def test_the_palette_offers_help_instead_of_textuals_keys_panel(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await started(pilot, app)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Keys" not in commands and commands["Help"].help == "The keys of this screen (?)"
        commands["Help"].callback()
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "Keys: Directory" in screen_text(app)


async def test_a_kiosk_is_not_told_of_keys_that_write(make_app):
    app = make_app(read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await started(pilot, app)
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = help_text(app)
        assert "/ Search" in text and "New user" not in text and "Edit profile" not in text and "Bulk" not in text


async def directory_help(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("question_mark")
    await settle(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["wide", "narrow"])
def test_help_snapshot(size, snap_compare, tmp_path):
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3"), run_before=directory_help, terminal_size=size)
