"""Themes: Textual's own plus corpdir's, chosen in the app, remembered between runs; a
broken user theme is reported and skipped."""

import os
from pathlib import Path

from corpdir.config import UiConfig
from corpdir.state import State
from corpdir.tui.app import CorpdirApp
from tui_helpers import Notifications, wait_for


async def test_our_themes_are_offered_and_the_choice_is_remembered(service, tmp_path):
    state_file = tmp_path / "state.json"
    app = CorpdirApp(service, state=State(state_file), sync_on_start=False)
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.theme == "corpdir-dark"  # the default
        assert {"corpdir-dark", "corpdir-high-contrast", "nord"} <= set(app.available_themes)
        app.theme = "corpdir-high-contrast"
        await pilot.pause()
    again = CorpdirApp(service, state=State(state_file), sync_on_start=False)
    async with again.run_test(size=(100, 30)):
        assert again.theme == "corpdir-high-contrast"  # remembered between runs


async def test_a_broken_user_theme_is_reported_and_skipped(service):
    folder = Path(os.environ["CORPDIR_CONFIG"]).parent / "themes"
    folder.mkdir(parents=True)
    (folder / "broken.toml").write_text('name = "broken"\nprimary = \n', encoding="utf-8")
    (folder / "mine.toml").write_text('name = "mine"\nprimary = "#FF8800"\ndark = true\n', encoding="utf-8")
    app = CorpdirApp(service, state=State(), sync_on_start=False)
    notes = Notifications()
    async with app.run_test(size=(100, 30), message_hook=notes) as pilot:
        assert "mine" in app.available_themes and "broken" not in app.available_themes
        assert await wait_for(pilot, lambda: notes.said("broken.toml"))
        assert app.theme == "corpdir-dark"


async def test_a_theme_nobody_has_is_named_in_a_notification(service):
    """`corpdir --theme corpdir-highcontrast` (a typo) started in the default theme, silently."""
    app = CorpdirApp(service, state=State(), sync_on_start=False, ui=UiConfig(theme="corpdir-highcontrast"))
    notes = Notifications()
    async with app.run_test(size=(100, 30), message_hook=notes) as pilot:
        assert app.theme == "corpdir-dark"
        assert await wait_for(pilot, lambda: notes.said("No theme named 'corpdir-highcontrast'"))
