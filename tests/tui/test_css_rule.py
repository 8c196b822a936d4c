"""One CSS rule: a screen's styles are in the .tcss beside its module (CSS_PATH) and apply
to that screen only; a widget's are in the .tcss beside its module too, written inline
only for the widgets reusable on their own, which docs/screens.md lists."""

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from textual.screen import Screen
from textual.widget import Widget

import corpdir.tui
from tui_helpers import wait_for

INLINE = {"VirtualList", "RenderedLines", "FittedTree", "KeyBar", "TitleBar", "PhotoView"}
DOCS = Path(__file__).parents[2] / "docs" / "screens.md"


def tui_classes() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(corpdir.tui.__path__, "corpdir.tui."):
        module = importlib.import_module(info.name)
        found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if c.__module__ == module.__name__ and issubclass(c, Widget)]
    return found


def test_each_screen_reads_its_styles_from_the_tcss_beside_it():
    screens = [c for c in tui_classes() if issubclass(c, Screen)]
    assert len(screens) > 10
    for screen in screens:
        assert "DEFAULT_CSS" not in vars(screen) and "CSS" not in vars(screen), screen
        if "CSS_PATH" in vars(screen):
            module = Path(inspect.getfile(screen))
            assert screen.CSS_PATH == module.with_suffix(".tcss").name and module.with_suffix(".tcss").exists(), screen
            for selector in top_level_selectors(module.with_suffix(".tcss").read_text(encoding="utf-8")):
                assert selector.split()[0].split(":")[0] == screen.__name__, (screen, selector)


def top_level_selectors(css: str) -> list[str]:
    """The selectors of a stylesheet's outermost rules (Textual loads a screen's CSS file
    for the whole app: each must name its screen first)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    selectors, depth, start = [], 0, 0
    for i, char in enumerate(css):
        if char == "{":
            if depth == 0:
                selectors += [s.strip() for s in css[start:i].split(",")]
            depth += 1
        elif char == "}":
            depth -= 1
            start = i + 1
    return selectors


def test_a_widget_styles_itself_from_the_tcss_beside_it_unless_reusable_on_its_own():
    styled = [c for c in tui_classes() if not issubclass(c, Screen) and "DEFAULT_CSS" in vars(c)]
    inline = set()
    for widget in styled:
        beside = Path(inspect.getfile(widget)).with_suffix(".tcss")
        if not (beside.exists() and widget.DEFAULT_CSS == beside.read_text(encoding="utf-8")):
            inline.add(widget.__name__)
    assert inline == INLINE
    docs = DOCS.read_text(encoding="utf-8")
    assert all(f"`{name}`" in docs for name in INLINE)


async def test_a_screens_styles_stay_on_that_screen(make_app):
    """The Directory's detail pane keeps its width after the Calls and Lookup screens, whose
    panes are narrower, were shown."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, lambda: app.screen.query("#detail") and app.screen.query_one("#detail").size.width)
        width = app.screen.query_one("#detail").outer_size.width
        for key in ("f3", "f4", "f1"):
            await pilot.press(key)
            await pilot.pause()
        assert await wait_for(pilot, lambda: type(app.screen).__name__ == "DirectoryScreen")
        await pilot.pause()
        assert app.screen.query_one("#detail").outer_size.width == width
