"""What the directory, contacts, calls and lookup screens share: a list with a detail
pane, copy keys, and the kiosk rule that write actions are not offered.

:class:`SearchListScreen` adds the search box of the directory and contacts screens: the
screen keeps what the list shows in ``browse`` (a frozen dataclass with a ``text``
field) and rebuilds the list in ``_show()`` whenever it changes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from rich.cells import cell_len
from textual import on, work
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static, TextArea

from corpdir.service.live_search import TYPING_PAUSE
from corpdir.tui.labels import first_phone
from corpdir.tui.text import Wrapped, clip, literal
from corpdir.tui.widgets.search_box import SearchBox
from corpdir.tui.widgets.virtual_list import VirtualList

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService


DETAIL_PAUSE = 0.12  # seconds the highlight rests before the detail pane follows


def fit_caption(caption: str, width: int) -> str:
    """The caption in ``width`` cells: what the list shows is shortened ("品質保証… · 12
    people · by name ↑"), never the count or the order after it."""
    if width <= 0 or cell_len(caption) <= width:
        return caption
    what, separator, rest = caption.partition(" · ")
    tail = separator + rest
    room = width - cell_len(tail)
    if room < 2:
        return clip(caption, width)
    return clip(what, room) + tail


class ListScreen(Screen):
    WRITES: ClassVar[frozenset[str]] = frozenset()  # actions that write: none on a read-only terminal
    LIST: ClassVar[str] = ""  # the selector of the screen's main list

    class FirstRowsShown(Message):
        """The screen's list has painted its first rows (or found it has none). Work that
        can wait, refreshes from the service and the start-up sync, starts after this, so
        it never slows the first paint."""

    def __init__(self, service: DirectoryService) -> None:
        super().__init__()
        self.service = service
        self.selected: Any = None
        self._detail_timer: Timer | None = None
        self._rows_shown = False
        self._syncs_seen = self._syncs_done()

    def _syncs_done(self) -> int:
        try:
            return getattr(self.app, "syncs_done", 0)
        except RuntimeError:  # Textual's NoActiveAppError: built outside an app
            return 0

    def on_screen_resume(self) -> None:
        """Back on this screen after a sync ran while another screen was shown (the app
        refreshes only the screens in sight): the list reads the cache again."""
        done = self._syncs_done()
        if done != self._syncs_seen:
            self._syncs_seen = done
            self.action_refresh()

    def rows_shown(self) -> None:
        """Called by the screen when its list has rows to paint (or none): once that frame
        is drawn, :meth:`after_first_rows` runs and ``FirstRowsShown`` goes up to the app."""
        if not self._rows_shown:
            self._rows_shown = True
            self.call_after_refresh(self._first_rows_painted)

    def _first_rows_painted(self) -> None:
        self.after_first_rows()
        self.post_message(self.FirstRowsShown())

    def after_first_rows(self) -> None:
        """What the screen asks of the service once its first rows are painted."""

    def show_details_soon(self, show: Callable[[], None]) -> None:
        """Fill the detail pane once the highlight rests (DETAIL_PAUSE): while the user holds
        an arrow key, the list repaints without re-laying out the pane each time. While they
        type a search, the pane waits for a pause in typing (TYPING_PAUSE): re-laying out a
        pane of fields between two keystrokes would delay the next answer's rows."""
        if self._detail_timer is not None:
            self._detail_timer.stop()

        def follow() -> None:
            self._detail_timer = None
            show()

        typing = isinstance(self.focused, Input)
        self._detail_timer = self.set_timer(TYPING_PAUSE if typing else DETAIL_PAUSE, follow)

    @property
    def details_pending(self) -> bool:
        """Whether the detail pane has yet to follow the highlight."""
        return self._detail_timer is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Writes are not offered on a read-only terminal (the kiosk), nor bulk where the
        variant has none. '/' is a priority binding (so keys typed right after it reach the
        box); in a text field it is text, except in the numbers box, where it has no place."""
        if action == "focus_search" and isinstance(self.focused, (Input, TextArea)):
            return False
        if action == "bulk" and not (self.service.offers("U11") or self.service.offers("L1")):
            return False  # the variant has no bulk operation (A and B)
        return not (action in self.WRITES and getattr(self.app, "read_only", False))

    def open_details(self, pane: Widget, full_screen: Callable[[], Widget]) -> None:
        """Enter on a row: focus the detail pane, or on a narrow terminal (no pane) show
        the details full screen."""
        if pane.display:
            pane.focus()
        else:
            from corpdir.tui.screens.detail_screen import DetailScreen

            self.app.push_screen(DetailScreen(full_screen()))

    def _show(self, refresh_api: bool = False) -> None:
        """Rebuild the list (and, with ``refresh_api``, ask the service again)."""

    def forget_row(self, rid: int) -> None:
        """A record the user deleted leaves the list at once (also a search's answer, which
        holds its rows) and is no longer the selection."""
        rows = self.query_one(self.LIST, VirtualList)
        discard = getattr(rows.source, "discard", None)
        if discard is not None:
            discard(rid)
        self.selected = None
        rows.reload()

    def action_jump_row(self) -> None:
        """J: to the names of a kana row (あ か さ ...) or a letter, in a list by name."""
        rows = self.query_one(self.LIST, VirtualList)
        row_offset = getattr(rows.source, "row_offset", None)
        if row_offset is None:
            self.notify("Jumping to a row works in a list by name (search results are ranked)", timeout=3)
            return
        from corpdir.tui.screens.jump_row import JumpToRow

        def chosen(row: str | None) -> None:
            if row is not None:
                self.jump_to(rows, row_offset, row)

        self.app.push_screen(JumpToRow(), chosen)

    @work(group="jump-row", exclusive=True, exit_on_error=False)
    async def jump_to(self, rows: VirtualList, row_offset: Any, row: str) -> None:
        offset = await row_offset(row)
        if offset >= rows.row_count:
            self.notify(f"No names read from {row} on", timeout=3)
            return
        rows.cursor = offset
        rows.scroll_to(y=offset, animate=False)
        rows.focus()

    def action_refresh(self) -> None:
        self._syncs_seen = self._syncs_done()
        self._show(refresh_api=True)

    def copy(self, value: str | None, what: str) -> None:
        if not value:
            self.notify(f"No {what} to copy", severity="warning", timeout=2)
            return
        self.app.copy_to_clipboard(value)  # OSC 52: reaches the user's clipboard over SSH too
        self.notify(f"Copied {what}: {value}", timeout=2)

    def action_copy_number(self) -> None:
        self.copy(first_phone(self.selected) if self.selected else None, "number")

    def action_copy_email(self) -> None:
        self.copy(getattr(self.selected, "email1", None) if self.selected else None, "e-mail")


class SearchListScreen(ListScreen):
    browse: Any

    def show_count(self) -> None:
        """The caption (what the list shows, how many) and what an empty list says: "syncing"
        while a sync may still bring the rows, "No one matches …" for a search that found
        no one. Called when the list knows its count and when a sync starts or ends."""
        rows = self.query_one(self.LIST, VirtualList)
        syncing = bool(getattr(self.app, "syncing", False))
        line = self.query_one("#caption", Static)
        caption = self.caption(rows.row_count, rows.has_more, syncing, line.content_region.width)
        line.update(literal(caption, "dim"), layout=False)  # no re-layout
        empty = self.empty_text(syncing)
        if empty != rows.empty_text:
            rows.empty_text = empty
            rows.refresh()

    def caption(self, count: int, more: bool, syncing: bool, width: int) -> str:
        """The caption fitted to ``width`` cells."""
        return fit_caption(self.browse.caption(count, more=more, syncing=syncing), width)

    def on_resize(self) -> None:
        self.call_after_refresh(self.show_count)  # the caption fitted to the new width

    def empty_text(self, syncing: bool) -> str:
        if not self.browse.searching:
            if syncing:
                return "Syncing… the list fills when it is done."
            if self.service.online is False:
                return "Offline, and nothing cached here."
        return self.browse.empty_text()

    @on(Input.Changed, "#search")
    def _search_typed(self, event: Input.Changed) -> None:
        self.browse = replace(self.browse, text=event.value)
        self._show()

    @on(VirtualList.Loaded)
    def _rows_found(self, event: VirtualList.Loaded) -> None:
        """The list has the typed text's rows: the search box may paint with them."""
        if event.virtual_list is self.query_one(self.LIST):
            self.query_one("#search", SearchBox).release()

    @on(Input.Submitted, "#search")
    def _search_submitted(self) -> None:
        self.query_one(self.LIST).focus()

    def action_focus_search(self) -> None:
        self.set_focus(self.query_one("#search", Input))  # at once: the keys after '/' come next

    def action_clear_search(self) -> None:
        """Esc: the search and every filter cleared at once, back to the list."""
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""
        if self.browse.filters:
            self.query_one("#filters").clear()
            self.browse = replace(self.browse, filters=())
            self.show_filter_summary()
            self._show()
        self.query_one(self.LIST).focus()

    def show_filter_summary(self) -> None:
        """The filters in force stay in sight (also with the filter bar hidden), with the key
        that clears them; the line is there only while a filter is."""
        summary = self.query_one("#filter-summary", Static)
        text = self.query_one("#filters").summary() if self.browse.filters else ""
        summary.update(Wrapped(f"Filtered by {text}  (Esc clears all)" if text else ""))  # wraps between words
        summary.display = bool(text)
