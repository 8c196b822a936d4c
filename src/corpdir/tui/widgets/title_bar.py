"""The top line: the app's name and what it is connected to (DEMO, a service's address).

Textual's Header is four widgets that set their title after they are mounted, which
re-laid out the whole screen between the first frame and the first rows (~35 ms at
start), and added four widgets to every frame after. This bar is one widget whose text is
there from the first frame; a change of title repaints it. A click on the icon opens the
command palette, as with the Header.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widget import Widget

from corpdir.text import printable

ICON = " ⭘ "


class TitleBar(Widget):
    """The app's (or the screen's) title and sub-title, centred; the palette icon on the left."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    def on_mount(self) -> None:
        for owner in (self.app, self.screen):
            self.watch(owner, "title", self.refresh, init=False)
            self.watch(owner, "sub_title", self.refresh, init=False)

    def render(self) -> Text:
        screen = self.screen
        title = screen.title if screen.title is not None else self.app.title
        sub = screen.sub_title if screen.sub_title is not None else self.app.sub_title
        title, sub = printable(title), printable(sub)  # a service's label comes from configuration
        middle = Text.assemble(title, (" — ", "dim"), (sub, "dim")) if sub else Text(title)
        width = self.size.width
        line = Text(ICON)
        line.append(" " * max((width - middle.cell_len) // 2 - len(ICON), 1))
        line.append_text(middle)
        line.truncate(width, overflow="ellipsis")
        line.no_wrap = True
        return line

    def on_click(self, event: events.Click) -> None:
        if event.x < len(ICON) and self.app.ENABLE_COMMAND_PALETTE:
            event.stop()
            self.app.action_command_palette()
