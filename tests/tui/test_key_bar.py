"""The key bar: it follows the focus, never cuts a key in half, and a click presses the key."""

from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import wait_for


def bar_text(app) -> str:
    bar = app.screen.query_one(KeyBar)
    return "".join(segment.text for segment in bar.render_line(0))


async def test_the_bar_shows_the_focused_widgets_keys_and_keeps_the_palette_at_80_columns(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count > 0)
        listing = bar_text(app)
        assert len(listing) == 80
        assert "f Filters" in listing and listing.rstrip().endswith("^p palette")
        assert "Quit" not in listing and "^q Q" not in listing  # no room: left out whole

        await pilot.press("slash")  # the search box: list keys go, the screens' stay
        assert await wait_for(pilot, lambda: "f Filters" not in bar_text(app))
        searching = bar_text(app)
        assert "f2 Contacts" in searching and searching.rstrip().endswith("^p palette")

        # what is drawn is whole keys, then blank, then the palette's: none cut at the edge
        bar = app.screen.query_one(KeyBar)
        keys, _palette = bar._keys()
        drawn = [key for _s, _e, key in bar._spans][:-1]
        assert drawn == keys[:len(drawn)]
        whole = "".join(f" {k.display} {k.description} " for k in drawn)
        assert searching == whole + " " * (80 - len(whole) - len(" ^p palette ")) + " ^p palette "


async def test_a_click_on_a_key_presses_it(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count > 0)
        bar = app.screen.query_one(KeyBar)
        bar_text(app)
        start = next(s for s, _e, key in bar._spans if key.description == "Contacts")
        await pilot.click(KeyBar, offset=(start + 1, 0))
        assert await wait_for(pilot, lambda: type(app.screen).__name__ == "ContactsScreen")
