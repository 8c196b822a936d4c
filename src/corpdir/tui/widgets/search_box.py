"""The search box of the directory and contacts screens.

Textual's Input sets its ``virtual_size`` (the width of its text) on every keystroke, and
that reactive re-lays out the whole screen: 7-15 ms per key here, before the search even
starts. The box has a fixed size (CSS), so its text width only scrolls the box itself:
here the reactive repaints instead.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class SearchBox(Input):
    """An Input of fixed size whose text width repaints rather than re-lays out."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
