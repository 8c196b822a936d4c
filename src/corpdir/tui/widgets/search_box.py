"""The search box of the directory and contacts screens.

Textual's Input sets its ``virtual_size`` (the width of its text) on every keystroke, and
that reactive re-lays out the whole screen: 7-15 ms per key here, before the search even
starts. The box has a fixed size (CSS), so its text width only scrolls the box itself:
here the reactive repaints instead.

It also holds the screen's next frame while a search runs (at most HOLD): the typed
character and the rows it finds are then painted in one frame. Painted on its own, the
echo took a frame, and the rows had to wait a whole frame period (1/60 s) after it.

↓ goes down into the list, as Enter does: the list is under the box.
"""

from __future__ import annotations

from contextlib import ExitStack

from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.timer import Timer
from textual.widgets import Input


class SearchBox(Input):
    """An Input of fixed size whose text width repaints rather than re-lays out."""

    BINDINGS = [Binding("down", "submit", "To the list", show=False, id="search.to_list")]
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    HOLD = 0.05  # seconds the typed text may wait for its rows before it is painted alone

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._hold: ExitStack | None = None
        self._hold_timer: Timer | None = None

    def watch_value(self) -> None:
        if self._hold is None and self.is_mounted:
            self._hold = ExitStack()
            self._hold.enter_context(self.app.batch_update())
            self._hold_timer = self.set_timer(self.HOLD, self.release)

    def release(self) -> None:
        """Paint now: the list has what the text found (or HOLD has passed)."""
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if self._hold is not None:
            hold, self._hold = self._hold, None
            hold.close()

    def on_unmount(self) -> None:
        self.release()
