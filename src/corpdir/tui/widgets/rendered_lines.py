"""Rich renderables shown through Textual's line API, for panes whose content changes
with every highlighted row.

A pane built of auto-height Statics (fields, collaborations, profile) re-lays out the
whole screen each time one is updated, and again when their sizes settle: 60-70 ms per
highlighted person here, enough to delay the next keystroke's search results. This widget
renders its renderables once per width into strips and paints the visible ones; a new
person repaints this widget only (see :func:`corpdir.tui.textual_compat.set_scroll_range`).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from corpdir.tui.textual_compat import set_scroll_range


class RenderedLines(ScrollView, can_focus=False):
    DEFAULT_CSS = """
    RenderedLines { height: 1fr; overflow-x: hidden; }
    """

    def __init__(self, *renderables: RenderableType, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._renderables: list[RenderableType] = list(renderables)
        self._strips: list[Strip] = []
        self._rendered_width = -1

    def update(self, *renderables: RenderableType) -> None:
        """Show ``renderables`` (one below the other) from the top."""
        self._renderables = list(renderables)
        self._rendered_width = -1
        self.scroll_to(y=0, animate=False)
        self._render_strips()
        self.refresh()

    def _render_strips(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._rendered_width:
            return
        console = self.app.console
        options = console.options.update(width=width, min_width=width, max_width=width, height=None, highlight=False)
        lines = console.render_lines(Group(*self._renderables), options, pad=False) if self._renderables else []
        self._strips = [Strip(line).crop_extend(0, width, None) for line in lines]
        self._rendered_width = width
        set_scroll_range(self, Size(width, len(self._strips)))

    def on_resize(self, event: events.Resize) -> None:
        """Rendered again for a new width only: a pane made shorter (the call pop-up's band
        taking rows above it) keeps its lines (re-rendering them was 17 % of what showing and
        hiding a pop-up cost in layout, in a profile over a 100k cache)."""
        self._render_strips()

    def render_line(self, y: int) -> Strip:
        self._render_strips()
        width = self.scrollable_content_region.width
        index = self.scroll_offset.y + y
        base = self.rich_style
        if index >= len(self._strips):
            return Strip.blank(width, base)
        return self._strips[index].apply_style(base) if base else self._strips[index]

