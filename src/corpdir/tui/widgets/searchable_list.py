"""The middle of the Directory and Contacts screens: the search box, the filter bar, the
line that says which filters are in force, the caption and the list of records.

Messages up, attributes down: the widget tells its screen what the user did (typed a
search, changed a filter, moved to a row, opened one, the list counted its rows) and the
screen, which knows what the list is for, sets the rows (``source``), the caption and
what an empty list says. The widget never asks the service anything.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Protocol, Sequence

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, Static

from corpdir.service.windows import CacheWindow
from corpdir.tui.text import Wrapped, clip, literal
from corpdir.tui.widgets import tcss_beside
from corpdir.tui.widgets.list_columns import Column
from corpdir.tui.widgets.row_sources import RankedRows, RowSource
from corpdir.tui.widgets.search_box import SearchBox
from corpdir.tui.widgets.virtual_list import VirtualList

SYNCING = "Syncing… the list fills when it is done."
OFFLINE = "Offline, and nothing cached here."


class ListQuery(Protocol):
    """What a list shows (the Directory's ``Browse``, the Contacts' ``ContactBrowse``)."""

    @property
    def searching(self) -> bool: ...

    def empty_text(self) -> str: ...


class FilterBar(Protocol):
    """A filter bar (``UserFilters``, ``ContactFilters``): what it filters by, in words."""

    def summary(self) -> str: ...

    def clear(self) -> None: ...


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


def empty_text(query: ListQuery, *, syncing: bool, offline: bool) -> str:
    """What an empty list says: "syncing" while a sync may still bring the rows, "offline"
    when nothing was cached, else what the query says ("No one matches …")."""
    if not query.searching:
        if syncing:
            return SYNCING
        if offline:
            return OFFLINE
    return query.empty_text()


class SearchableList(Vertical):
    """A search box over a list of records, with a filter bar the screen gives it."""

    DEFAULT_CSS = tcss_beside(__file__)

    class SearchChanged(Message):
        """The user typed in the search box."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class FiltersChanged(Message):
        """A field of the filter bar changed (the screen reads its filter bar's values)."""

    class Counted(Message):
        """The list knows how many rows it holds (after a new source, or a reload): the
        screen answers with :meth:`SearchableList.show_count`."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    class Highlighted(Message):
        """The cursor is on a row (it moved, or the list shows its first rows)."""

        def __init__(self, row: Any) -> None:
            super().__init__()
            self.row = row

    class Opened(Highlighted):
        """Enter (or a double click) on a row; a Highlighted too, so ``@on(Highlighted)``
        handlers see it as well."""

    def __init__(self, columns: Sequence[Column], *, filters: Widget, placeholder: str, list_id: str,
                 empty_text: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.filters = filters
        self.search = SearchBox(placeholder=placeholder, id="search")
        self.summary = Static(id="filter-summary")
        self.caption = Static(id="caption")
        self.rows = VirtualList(columns, empty_text=empty_text, id=list_id)
        self._caption_text: Callable[[int, bool, int], str] | None = None

    def compose(self) -> ComposeResult:
        yield self.search
        yield self.filters
        yield self.summary
        yield self.caption
        yield self.rows

    # -- attributes down -----------------------------------------------------------------------
    @property
    def source(self) -> RowSource[Any] | None:
        return self.rows.source

    @source.setter
    def source(self, source: RowSource[Any] | None) -> None:
        self.rows.source = source

    def records_checked(self) -> None:
        """The first screen's plain rows made models (corpdir.service.first_records)."""
        self.rows.records_checked()

    def reload(self) -> None:
        """The rows read again from the same source (the cache changed), the cursor kept."""
        self.rows.reload()

    def show_count(self, caption: Callable[[int, bool, int], str], empty: str) -> None:
        """The caption, ``caption(count, more, width)``, in one line without a re-layout,
        and what the list says when it is empty. The search box, which holds the frame of
        a keystroke until its rows are in, may paint now: rows and caption come with it."""
        rows = self.rows
        self._caption_text = caption
        self._fit_caption()
        if empty != rows.empty_text:
            rows.empty_text = empty
            rows.refresh()
        self.search.release()

    def _fit_caption(self) -> None:
        if self._caption_text is not None:
            rows = self.rows
            text = self._caption_text(rows.row_count, rows.has_more, self.caption.content_region.width)
            self.caption.update(literal(text, "dim"), layout=False)

    def on_resize(self) -> None:
        """The caption fitted again to the list's new width: the screen's (a resize) or the
        room the division tree leaves it (it widens for a long name)."""
        self.call_after_refresh(self._fit_caption)

    def show_filters(self, filters: FilterBar, filtered: bool) -> None:
        """The filters in force stay in sight (also with the filter bar hidden), with the key
        that clears them; the line is there only while a filter is."""
        text = filters.summary() if filtered else ""
        self.summary.update(Wrapped(f"Filtered by {text}  (Esc clears all)" if text else ""))  # wraps between words
        self.summary.display = bool(text)

    def focus_search(self) -> None:
        self.screen.set_focus(self.search)  # at once: the keys after '/' come next

    def focus_list(self) -> None:
        self.rows.focus()

    def clear(self, filters: FilterBar | None) -> None:
        """Esc: the search emptied, and ``filters`` cleared, back to the list."""
        if self.search.value:
            self.search.value = ""
        if filters is not None:
            filters.clear()
        self.rows.focus()

    def forget(self, rid: int) -> None:
        """A record the user deleted leaves the list at once (also a search's answer, which
        holds its rows)."""
        if isinstance(self.rows.source, RankedRows):
            self.rows.source.discard(rid)
        self.rows.reload()

    def jump_to_row(self) -> None:
        """J: to the names of a kana row (あ か さ ...) or a letter, in a list by name (a
        search is ranked: it has no rows by name)."""
        source = self.rows.source
        row_offset = source.row_offset if isinstance(source, CacheWindow) else None
        if row_offset is None:
            self.notify("Jumping to a row works in a list by name (search results are ranked)", timeout=3)
            return
        from corpdir.tui.screens.jump_row import JumpToRow

        def chosen(row: str | None) -> None:
            if row is not None:
                self._jump(row_offset, row)

        self.app.push_screen(JumpToRow(), chosen)

    @work(group="jump-row", exclusive=True, exit_on_error=False)
    async def _jump(self, row_offset: Callable[[str], Awaitable[int]], row: str) -> None:
        rows = self.rows
        offset = await row_offset(row)
        if offset >= rows.row_count:
            self.notify(f"No names read from {row} on", timeout=3)
            return
        rows.cursor = offset
        rows.scroll_to(y=offset, animate=False)
        rows.focus()

    # -- messages up ---------------------------------------------------------------------------
    @on(Input.Changed, "#search")
    def _search_typed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.SearchChanged(event.value))

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.rows.focus()

    @on(Input.Changed, "#filters Input")
    @on(Select.Changed, "#filters Select")
    @on(Checkbox.Changed, "#filters Checkbox")
    def _filter_changed(self, event: Message) -> None:
        event.stop()
        self.post_message(self.FiltersChanged())

    @on(VirtualList.Loaded)
    def _rows_counted(self, event: VirtualList.Loaded) -> None:
        event.stop()
        self.post_message(self.Counted(event.count))

    @on(VirtualList.Highlighted)
    def _row_highlighted(self, event: VirtualList.Highlighted) -> None:
        event.stop()
        message = self.Opened(event.row) if isinstance(event, VirtualList.Selected) else self.Highlighted(event.row)
        self.post_message(message)
