"""Changing what a scrolling widget holds without re-laying out the screen.

Textual's ``virtual_size`` is a reactive with ``layout=True``: setting it re-lays out the
whole screen, 20-60 ms here with a detail pane of fields, on every keystroke of a search
or every move through a list. A widget of fixed size whose content length changes only
needs its own scrollbars updated, which re-lays out only when a scrollbar appears or
goes (Textual's ``_scroll_update``).
"""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView


def set_scroll_range(view: ScrollView, size: Size) -> None:
    """Give ``view`` a new virtual size, repainting it rather than re-laying out its screen."""
    if size != view.virtual_size:
        view.set_reactive(ScrollView.virtual_size, size)
        view._scroll_update(size)
