"""`corpdir` in a real terminal: the first screen arrives whole. Textual draws the first
frame while it holds repaints for the app's start and drops it; what reached the terminal
first were then only the widgets changed since (the rows, the tree), the search box above
them blank until a repaint 50-100 ms later (corpdir.tui.textual_compat.WholeFirstFrame).
(The detail pane's title is not asked for: it is written once the pane knows its width,
which under load may be a frame after the rows.)"""

from __future__ import annotations

import pytest

from ssh_helpers import corpdir_in_a_terminal, demo_home_env, prepare_demo_home


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("first-frame")
    prepare_demo_home(home)
    return home


@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["120x36", "80x24"])
def test_the_first_rows_reach_the_terminal_with_the_whole_screen(demo_home, size):
    cols, rows = size
    # the moment the list's caption (its third line) first shows, read 64 bytes at a time
    text = corpdir_in_a_terminal(demo_home_env(demo_home), lambda screen: "by name" in screen.lines()[2], cols, rows,
                                 step=64)
    assert "by name" in text, text
    assert "Search name" in text, text  # the search box, above the rows
