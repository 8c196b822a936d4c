"""The bulk dialog speaks of destinations and spots, never of U11 or L1: its choice of
rows (the dropdown open), the file's check and a refusal by the service, at 80x24 and
120x36."""

import re

import pytest
from textual.widgets import Input, Select, Static

from corpdir.tui.screens.bulk import BulkScreen
from tui_helpers import screen_text, settle, wait_for

CODES = re.compile(r"\b(U11|L1)\b")


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_the_bulk_dialog_names_rows_not_operations(reception, app_for, tmp_path, size):
    path = tmp_path / "dest.csv"
    path.write_text("loginId,destinationId,destinationName\nreception,5001,受付前\n", encoding="utf-8")
    app = app_for(reception)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("b")
        assert await wait_for(pilot, lambda: isinstance(app.screen, BulkScreen))
        bulk = app.screen
        kind = bulk.query_one("#bulk-kind", Select)
        kind.focus()
        await pilot.press("enter")  # the dropdown open: both kinds of rows in sight
        await settle(pilot, lambda: kind.expanded)
        text = screen_text(app)
        assert "Destinations of people" in text and "Spots of location tags" in text
        assert not CODES.search(text), text
        await pilot.press("escape")
        bulk.query_one("#bulk-path", Input).focus()
        await pilot.press(*str(path), "enter")
        assert await wait_for(pilot, lambda: bulk.parsed is not None)
        await pilot.press("ctrl+s")  # the reception desk may not: the service says 403
        result = bulk.query_one("#bulk-result", Static)
        assert await wait_for(pilot, lambda: "edit destinations in bulk" in str(result.render()), tries=300)
        assert not CODES.search(screen_text(app)), screen_text(app)
