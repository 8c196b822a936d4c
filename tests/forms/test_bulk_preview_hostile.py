"""The bulk preview shows a CSV file's name, header and cells as typed: Rich markup in them
takes no effect, and no control, bidi or invisible character reaches the screen."""

from textual.widgets import Input

from corpdir.tui.screens.bulk import BulkScreen
from hostile_text import HOSTILE, assert_inert
from tui_helpers import screen_text, wait_for


async def test_the_preview_renders_file_name_and_cells_as_text(admin, app_for, tmp_path):
    path = tmp_path / "[reverse]rooms[link=mailto:x@evil.example].csv"
    cells = [HOSTILE["link"], HOSTILE["markup"], HOSTILE["osc52"], HOSTILE["bidi"], HOSTILE["c1"], HOSTILE["zero_width"]]
    path.write_text("loginId,destinationId,destinationName\n"
                    + "".join(f"{HOSTILE['markup']},{i},\"{cell}\"\n" for i, cell in enumerate(cells, 1)), encoding="utf-8")
    app = app_for(admin)
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        await pilot.press("b")
        assert await wait_for(pilot, lambda: isinstance(app.screen, BulkScreen))
        field = app.screen.query_one("#bulk-path", Input)
        field.value = str(path)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: "first rows" in screen_text(app))
        text = screen_text(app)
        assert "[reverse]rooms[link=mailto:x@evil.example].csv: first rows" in text  # the name as typed, not reversed
        assert "[red]x[/red][reverse]rev[/reverse]" in text  # the loginId cells
        assert "[link=file:///etc/passwd]x[/link]" in text and "abc<U+202E>dcba.exe" in text
        assert_inert(app.export_screenshot())
