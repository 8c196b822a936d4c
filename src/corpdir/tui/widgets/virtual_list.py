"""A list of any length that builds only the rows on screen (Textual's line API).

A DataTable of 100k rows takes ~30 s to first paint here; this list sets its virtual
height to the row count and renders visible rows in ``render_line``, fetching them from
its :class:`RowSource` a page at a time in a worker (the cache, for the directory). The
owner sets ``source`` (attributes down); the list posts ``Highlighted`` / ``Selected``
(messages up). Every cell is service text, so it is built with :func:`corpdir.tui.text.cell`.

The widget (paging, painting, the cursor) is this module; what it is given lives beside
it: the sources of rows (:mod:`.row_sources`) and the columns (:mod:`.list_columns`).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events, work
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from corpdir.service.first_records import as_model, is_plain
from corpdir.tui.text import cell
from corpdir.tui.textual_compat import set_scroll_range
from corpdir.tui.widgets.list_columns import Column, column_title
from corpdir.tui.widgets.row_sources import ListSource, RankedRows, RowSource

PAGE = 100
PAGES_KEPT = 30


class _Paint:
    """What every line of one paint shares: width, column widths and styles."""

    __slots__ = ("base", "cursor", "header", "loading", "odd", "width", "widths")

    def __init__(self, view: VirtualList) -> None:
        self.width = view.line_width
        self.widths = view._widths(self.width)
        self.base = base = view.rich_style
        self.header = base + view.get_component_rich_style("virtual-list--header")
        self.odd = base + view.get_component_rich_style("virtual-list--odd")
        self.cursor = view.get_component_rich_style("virtual-list--cursor")
        self.loading = base + view.get_component_rich_style("virtual-list--loading")


class VirtualList(ScrollView, can_focus=True):
    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
    ]
    COMPONENT_CLASSES = {"virtual-list--header", "virtual-list--cursor", "virtual-list--odd", "virtual-list--loading"}
    DEFAULT_CSS = """
    VirtualList { height: 1fr; overflow-x: hidden; }
    VirtualList > .virtual-list--header { text-style: bold; background: $panel; }
    VirtualList > .virtual-list--cursor { background: $surface-lighten-2; }
    VirtualList:focus > .virtual-list--cursor { background: $accent 60%; text-style: bold; }
    VirtualList > .virtual-list--odd { background: $surface-lighten-1 20%; }
    VirtualList > .virtual-list--loading { color: $text-muted; }
    """

    cursor: reactive[int] = reactive(0, always_update=True)

    class Highlighted(Message):
        def __init__(self, virtual_list: VirtualList, index: int, row: Any) -> None:
            super().__init__()
            self.virtual_list, self.index, self.row = virtual_list, index, row

        @property
        def control(self) -> VirtualList:
            return self.virtual_list

    class Selected(Highlighted):
        pass

    class Loaded(Message):
        """The row count is known (after a new source)."""

        def __init__(self, virtual_list: VirtualList, count: int) -> None:
            super().__init__()
            self.virtual_list, self.count = virtual_list, count

        @property
        def control(self) -> VirtualList:
            return self.virtual_list

    def __init__(self, columns: Sequence[Column], *, empty_text: str = "Nothing to show", name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns = list(columns)
        self.empty_text = empty_text
        self.row_count = 0
        self._source: RowSource[Any] | None = None
        self._pages: OrderedDict[int, Sequence[Any]] = OrderedDict()
        self._pending: set[int] = set()
        self._generation = 0
        self._growing = False
        self._paint: _Paint | None = None
        self._painted = False

    # -- the source (attributes down) ------------------------------------------------------
    @property
    def source(self) -> RowSource[Any] | None:
        return self._source

    @source.setter
    def source(self, source: RowSource[Any] | None) -> None:
        self._source = source
        self._generation += 1
        self._growing = False
        self._pages.clear()
        self._pending.clear()
        if isinstance(source, ListSource):  # rows already in memory: paint them now, no worker hops
            self._pages.update({i // PAGE: source.rows[i:i + PAGE] for i in range(0, len(source.rows), PAGE)})
            self._counted(len(source.rows))
        elif isinstance(source, RankedRows):  # the count is known: only the page on screen is read
            first = source.at_hand(0, PAGE)
            if first is not None:  # read with the search: painted without a worker hop
                self._pages[0] = first
            self._counted(len(source.ids))
        elif (first := getattr(source, "first", None)) is not None and not self._painted:
            # the first paint: the rows read now rather than frames of an empty list first
            count, self._pages[0] = first(PAGE)
            self._counted(count)
        else:
            self._load_count(self._generation)

    @property
    def has_more(self) -> bool:
        """Whether the source has more rows to take (paged in as the user scrolls)."""
        return isinstance(self._source, RankedRows) and self._source.more is not None

    def _grow_at(self, index: int) -> None:
        """The last row is painted: take the source's next rows, once at a time."""
        if index >= self.row_count - 1 and not self._growing and self.has_more:
            self._growing = True
            self._grow(self._generation)

    @work(group="virtual-list-grow", exclusive=True)
    async def _grow(self, generation: int) -> None:
        source = self._source
        try:
            await source.grow()
        finally:
            self._growing = False
        if generation != self._generation:
            return
        last = max(self.row_count - 1, 0) // PAGE
        for page in [p for p in self._pages if p >= last]:  # the last page was partial: read it again
            del self._pages[page]
        self._counted(await source.count())

    def records_checked(self) -> None:
        """Rows read as plain records for the first frame (corpdir.service.first_records)
        become their models, and the highlighted one is told again: the screen's pane shows
        a record, never a plain one."""
        if any(is_plain(row) for rows in self._pages.values() for row in rows):
            for page, rows in self._pages.items():
                self._pages[page] = [as_model(row) for row in rows]
            self._announce()

    def reload(self, keep_cursor: bool = True) -> None:
        """Fetch the rows again from the same source (after a refresh of the cache)."""
        cursor = self.cursor
        self.source = self._source
        if keep_cursor:
            self.cursor = cursor

    @work(group="virtual-list-count", exclusive=True)
    async def _load_count(self, generation: int) -> None:
        count = await self._source.count() if self._source is not None else 0
        if generation != self._generation:
            return
        self._counted(count)

    def _counted(self, count: int) -> None:
        self.row_count = count
        set_scroll_range(self, Size(self.line_width, count + 1))  # repaints: no screen re-layout per search
        self.cursor = min(self.cursor, max(count - 1, 0))
        self.refresh()
        self.post_message(self.Loaded(self, count))
        if count:
            self._want(self.cursor)

    def _want(self, index: int) -> None:
        page = index // PAGE
        if page in self._pages or page in self._pending or self._source is None:
            return
        self._pending.add(page)
        self._load_page(page, self._generation)

    @work(group="virtual-list-page")
    async def _load_page(self, page: int, generation: int) -> None:
        rows = await self._source.fetch(page * PAGE, PAGE) if self._source is not None else []
        if generation != self._generation:
            return
        self._pending.discard(page)
        self._pages[page] = rows
        while len(self._pages) > PAGES_KEPT:
            self._pages.popitem(last=False)
        self.refresh()
        if page == self.cursor // PAGE:
            self._announce()

    def row(self, index: int) -> Any | None:
        rows = self._pages.get(index // PAGE)
        if rows is None or index % PAGE >= len(rows):
            return None
        return rows[index % PAGE]

    @property
    def highlighted(self) -> Any | None:
        return self.row(self.cursor) if self.row_count else None

    # -- rendering ------------------------------------------------------------------------
    def _widths(self, total: int) -> list[int]:
        """Fixed columns as given; the others share the rest by ``ratio``. A column that
        would fall under its ``min_width`` gets it, taken from the others' share above
        theirs (the name keeps its minimum; the division column gives way)."""
        fixed = sum(c.width for c in self.columns if c.width) + len(self.columns) - 1
        ratios = sum(c.ratio for c in self.columns if not c.width) or 1
        room = max(total - fixed, 0)
        widths = [c.width or room * c.ratio // ratios for c in self.columns]
        for i, column in enumerate(self.columns):
            need = 0 if column.width else column.min_width - widths[i]
            for j in sorted(range(len(widths)), key=lambda k: -widths[k]):  # the widest gives first
                other = self.columns[j]
                if need <= 0:
                    break
                if j != i and not other.width:
                    give = min(need, max(widths[j] - other.min_width, 0))
                    widths[j] -= give
                    need -= give
            if not column.width:
                widths[i] = max(widths[i], column.min_width)
        return widths

    @property
    def line_width(self) -> int:
        """Columns a row may use: the widget's width less the vertical scrollbar (rows never
        scroll sideways; the columns share what there is)."""
        return self.scrollable_content_region.width

    def render_lines(self, crop: Region) -> list[Strip]:
        """Lines of one paint. Styles and column widths are worked out once for the paint,
        not per line: reading a widget's style walks its ancestors (a third of a paint)."""
        self._paint = _Paint(self)
        self._painted = True
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def _line(self, paint: _Paint, values: Sequence[object], style: Style) -> Strip:
        text = " ".join(cell(value, width) for value, width in zip(values, paint.widths))
        return Strip([Segment(text, style)]).crop_extend(0, paint.width, style)

    def render_line(self, y: int) -> Strip:
        paint = self._paint or _Paint(self)
        width, base = paint.width, paint.base
        if y == 0:
            return self._line(paint, [column_title(c.title, w) for c, w in zip(self.columns, paint.widths)], paint.header)
        index = self.scroll_offset.y + y - 1
        if self.row_count == 0 and y == 1:
            return Strip([Segment(self.empty_text[:width], paint.loading)]).crop_extend(0, width, paint.loading)
        if index >= self.row_count:
            return Strip.blank(width, base)
        row = self.row(index)
        self._grow_at(index)
        style = paint.odd if index % 2 else base
        if index == self.cursor:
            style += paint.cursor
        if row is None:
            self._want(index)
            return Strip([Segment("…", paint.loading)]).crop_extend(0, width, style)
        return self._line(paint, [c.cell_value(row, w) for c, w in zip(self.columns, paint.widths)], style)

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(self.line_width, self.row_count + 1)

    # -- cursor and keys ---------------------------------------------------------------------
    def watch_cursor(self, old: int, new: int) -> None:
        if not self.row_count:
            return
        visible = max(self.size.height - 1, 1)
        top = self.scroll_offset.y
        if new < top:
            self.scroll_to(y=new, animate=False)
        elif new >= top + visible:
            self.scroll_to(y=new - visible + 1, animate=False)
        self.refresh()
        self._announce()

    def _announce(self) -> None:
        row = self.highlighted
        if row is not None:
            self.post_message(self.Highlighted(self, self.cursor, row))

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, self.row_count - 1)) if self.row_count else 0

    def action_cursor(self, delta: int) -> None:
        self.cursor += delta

    def action_page(self, direction: int) -> None:
        self.cursor += direction * max(self.size.height - 2, 1)

    def action_jump(self, where: int) -> None:
        self.cursor = self.row_count - 1 if where < 0 else where

    def action_select(self) -> None:
        row = self.highlighted
        if row is not None:
            self.post_message(self.Selected(self, self.cursor, row))

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            index = self.scroll_offset.y + event.y - 1
            if index < self.row_count:
                self.cursor = index
                if event.chain >= 2:
                    self.action_select()
