"""Where the keys go is in sight: Tab to a screen's detail pane marks the pane (the
arrow keys scroll it then), as the list's cursor and the search box are marked."""

import pytest

from tui_helpers import wait_for


@pytest.mark.parametrize("screen_key", ["f1", "f2", "f3", "f4"])
async def test_the_detail_pane_is_marked_while_it_has_the_focus(make_app, screen_key):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press(screen_key)
        detail = app.screen.query_one("#detail")
        assert await wait_for(pilot, lambda: app.focused is not None)
        unfocused = detail.styles.border_left
        for _ in range(6):
            if app.focused is detail:
                break
            await pilot.press("tab")
        assert app.focused is detail
        assert await wait_for(pilot, lambda: detail.styles.border_left != unfocused)
        await pilot.press("tab")
        assert await wait_for(pilot, lambda: app.focused is not detail and detail.styles.border_left == unfocused)
