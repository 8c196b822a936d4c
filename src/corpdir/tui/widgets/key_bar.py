"""The bottom line: the keys of what has focus, and the command palette's on the right.

Textual's Footer is a grid of one widget per key that re-composes whenever focus moves:
pressing `/` to search re-laid out the screen (30-100 ms on a busy machine) right when
the first character was typed, and every frame rendered a dozen more widgets. This bar
is one widget that draws one line: a change of bindings only repaints it.

Keys that do not fit are left out whole, from the end (never cut mid-word); the palette
key stays. A click on a key presses it, as with the Footer.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.strip import Strip
from textual.widget import Widget


class _Key(NamedTuple):
    key: str  # what a click presses
    display: str
    description: str
    enabled: bool


class KeyBar(Widget):
    """One line of key hints, from the screen's active bindings."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-bar--key", "key-bar--description", "key-bar--disabled"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
        .key-bar--key { color: $footer-key-foreground; background: $footer-key-background; text-style: bold; }
        .key-bar--description { color: $footer-description-foreground; background: $footer-description-background; }
        .key-bar--disabled { text-style: dim; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spans: list[tuple[int, int, _Key]] = []  # x ranges of the keys last drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: object) -> None:
        self.refresh()

    def _keys(self) -> tuple[list[_Key], _Key | None]:
        """The keys to show, one per action (the first key bound to it), and the palette's."""
        active = self.screen.active_bindings
        seen: set[str] = set()
        keys: list[_Key] = []
        for _node, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                keys.append(self._key(binding, binding.description, enabled))
        palette = None
        if self.app.ENABLE_COMMAND_PALETTE and (entry := active.get(self.app.COMMAND_PALETTE_BINDING)):
            palette = self._key(entry[1], "palette", entry[2])
        return keys, palette

    def _key(self, binding: Binding, description: str, enabled: bool) -> _Key:
        return _Key(binding.key, self.app.get_key_display(binding), description, enabled)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y != 0 or width <= 0:
            return Strip.blank(width, base)
        key_style = base + self.get_component_rich_style("key-bar--key", partial=True)
        text_style = base + self.get_component_rich_style("key-bar--description", partial=True)
        dim = self.get_component_rich_style("key-bar--disabled", partial=True)
        keys, palette = self._keys()
        tail = self._cells(palette, key_style, text_style, dim) if palette else []
        room = width - Segment.get_line_length(tail)
        segments: list[Segment] = []
        spans: list[tuple[int, int, _Key]] = []
        x = 0
        for key in keys:
            cells = self._cells(key, key_style, text_style, dim)
            size = Segment.get_line_length(cells)
            if x + size > room:
                break
            spans.append((x, x + size, key))
            segments += cells
            x += size
        if palette:
            segments.append(Segment(" " * max(0, room - x), base))
            spans.append((room, width, palette))
            segments += tail
        self._spans = spans
        return Strip(segments).adjust_cell_length(width, base)

    @staticmethod
    def _cells(key: _Key, key_style: Style, text_style: Style, dim: Style) -> list[Segment]:
        if not key.enabled:
            key_style, text_style = key_style + dim, text_style + dim
        return [Segment(f" {key.display} ", key_style), Segment(f"{key.description} ", text_style)]

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                if key.enabled:
                    self.app.simulate_key(key.key)
                else:
                    self.app.bell()
                return
