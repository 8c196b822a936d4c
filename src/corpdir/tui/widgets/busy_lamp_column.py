"""A busy-lamp column for a people list, and what keeps it live: the rows on screen are
the extensions watched (with the favourites), checked a few times a second, and the list
repaints when one of their lamps changes. Without ``[calls.presence]`` a list gets no
column at all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from corpdir.tui.widgets.busy_lamp import LOOK, WIDTH
from corpdir.tui.widgets.list_columns import Column

if TYPE_CHECKING:
    from corpdir.tui.busy_lamps import BusyLamps
    from corpdir.tui.widgets.virtual_list import VirtualList

Extension = Callable[[Any], "str | None"]
FOLLOW_EVERY = 0.25  # seconds between looks at the rows on screen (a scroll's lamps within that)


def with_lamps(columns: list[Column], lamps: BusyLamps, extension_of: Extension) -> list[Column]:
    """``columns`` with a lamp column second (after the name), when lamps are configured."""
    if not lamps.enabled:
        return columns

    def lamp(row: Any) -> str:
        state = lamps.lamp(extension_of(row))
        return f"{LOOK[state][0]} {state.value}"

    return [*columns[:1], Column("Lamp", lamp, width=WIDTH), *columns[1:]]


class LampFollower:
    def __init__(self, view: VirtualList, lamps: BusyLamps, extension_of: Extension) -> None:
        self.view = view
        self.lamps = lamps
        self.extension_of = extension_of
        self.on_screen: tuple[str, ...] = ()

    def start(self) -> None:
        if self.lamps.enabled:
            self.view.set_interval(FOLLOW_EVERY, self._follow)
            self.lamps.listeners.append(self._changed)

    def _rows_on_screen(self) -> tuple[str, ...]:
        top = self.view.scroll_offset.y
        rows = (self.view.row(i) for i in range(top, min(top + self.view.size.height, self.view.row_count)))
        return tuple(e for row in rows if row is not None and (e := self.extension_of(row)))

    def _follow(self) -> None:
        if self.view.screen is not self.view.app.screen:
            return  # another screen (the desk view, the picker) says what is shown
        self.on_screen = self._rows_on_screen()
        if self.on_screen != self.lamps.shown:
            self.lamps.show(self.on_screen)

    def _changed(self, extensions: frozenset[str]) -> None:
        if extensions & set(self.on_screen):
            self.view.refresh()
