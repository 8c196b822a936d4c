"""What the app asks of each of its four places (Directory, Contacts, Calls, Lookup): the
row the user chose (F5 calls it, ``*`` makes it a favourite), a refresh after a sync, the
count said again when a sync starts or ends, and the first rows painted before anything
else is asked of the service. Also what those screens share: the detail pane that follows
the highlight, copy keys, and the kiosk rule that write actions are not offered.

The screens compose their parts (:class:`corpdir.tui.widgets.searchable_list.SearchableList`,
the detail panes, the write helpers of :mod:`corpdir.tui.writes`) rather than inherit them;
:class:`SearchedListScreen` adds what the two screens with a search box and a filter bar
(Directory, Contacts) do alike with them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from textual import on
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from corpdir.service.first_records import as_model, is_plain
from corpdir.service.live_search import TYPING_PAUSE
from corpdir.service.people_at_hand import ref_of
from corpdir.tui.context import AppContext
from corpdir.tui.chosen import copy_value, email_of, number_of
from corpdir.tui.start_queue import open_queue, queue_emptied
from corpdir.tui.widgets.searchable_list import SearchableList
from corpdir.tui.wide_space import WideSpaceTyping

if TYPE_CHECKING:
    from corpdir.tui.widgets.contact_filters import ContactFilters
    from corpdir.tui.widgets.user_filters import UserFilters

DETAIL_PAUSE = 0.12  # seconds the highlight rests before the detail pane follows


def _text_field(widget: Widget | None) -> bool:
    """An Input or a TextArea (a form's note), by class name for the latter: importing
    Textual's TextArea for this test cost every start ~3 ms, and a TextArea exists only
    once a form has imported it."""
    return isinstance(widget, Input) or any(cls.__name__ == "TextArea" for cls in type(widget).__mro__)


class ListScreen(WideSpaceTyping):
    WRITES: ClassVar[frozenset[str]] = frozenset()  # actions that write: none on a read-only terminal

    class FirstRowsPainted(Message):
        """The screen's first rows are painted: the app checks its settings, then tells the
        screen (:meth:`ListScreen.settings_checked`), which posts ``FirstRowsShown`` when
        what follows may start."""

        def __init__(self, screen: ListScreen) -> None:
            super().__init__()
            self.screen = screen

    class FirstRowsShown(Message):
        """The screen's list has painted its first rows (or found it has none). Work that
        can wait, refreshes from the service and the start-up sync, starts after this, so
        it never slows the first paint: the app runs the screen's
        :meth:`~ListScreen.after_first_rows`, starts the desk phone and the sync."""

        def __init__(self, screen: ListScreen) -> None:
            super().__init__()
            self.screen = screen

    def __init__(self, context: AppContext) -> None:
        super().__init__()
        self.context = context
        self.service = context.service
        self._selected: Any = None
        self._detail_timer: Timer | None = None
        self._rows_shown = False
        self._syncs_seen = context.sync.done

    @property
    def selected(self) -> Any:
        """The row chosen: a record's model, never a plain record of the first frame
        (corpdir.service.first_records), which is made one here if a key asks for it
        before the settings' check made the list's rows models."""
        if is_plain(self._selected):
            self._selected = as_model(self._selected)
        return self._selected

    @selected.setter
    def selected(self, row: Any) -> None:
        self._selected = row

    def on_screen_resume(self) -> None:
        """Back on this screen after a sync ran while another screen was shown (the app
        refreshes only the screens in sight): the list reads the cache again."""
        if self.context.sync.done != self._syncs_seen:
            self.action_refresh()

    def action_refresh(self) -> None:
        """Ctrl+R, and after a sync: the list from the cache again, then from the service."""
        self._syncs_seen = self.context.sync.done
        self.show_rows(refresh_api=True)

    def show_rows(self, refresh_api: bool = False) -> None:
        """Rebuild the list (and, with ``refresh_api``, ask the service again)."""

    def show_count(self) -> None:
        """Say again how many rows the list holds: a sync started or ended."""

    def rows_shown(self) -> None:
        """Called by the screen when its list has rows to paint (or none): once that frame
        is drawn, :meth:`after_first_rows` runs and ``FirstRowsShown`` goes up to the app."""
        if not self._rows_shown:
            self._rows_shown = True
            self.call_after_refresh(self._first_rows_painted)

    def _first_rows_painted(self) -> None:
        """The app checks its settings when this message reaches it, a step later: the first
        frame is on the terminal by then (checked here, it waited behind the check's ~0.1 s
        of imports: Textual writes the whole first screen on the refresh after this one)."""
        self.post_message(self.FirstRowsPainted(self))

    def settings_checked(self) -> None:
        """The app has checked its settings (before anything else: an SSH session of a
        burst then waits for the others' first screens); until then the screen held plain
        records and the service the first screen's settings."""
        self.records_checked()
        queue = open_queue()
        if queue is None:
            self._after_start()
        else:  # an SSH session of a burst: the others' first screens come first (corpdir.tui.start_queue)
            self.run_worker(self._after_start_queue(queue), group="start-queue", exit_on_error=False)

    async def _after_start_queue(self, queue: int) -> None:
        await queue_emptied(queue)
        self._after_start()

    def _after_start(self) -> None:
        self.post_message(self.FirstRowsShown(self))

    def records_checked(self) -> None:
        """The service's settings are checked: what the screen holds of the first screen's
        plain records (corpdir.cache.plain) becomes the records' models."""

    def after_first_rows(self) -> None:
        """What the screen asks of the service once its first rows are painted (and the
        settings are checked)."""

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
        if action == "focus_search" and _text_field(self.focused):
            return False
        if action == "bulk" and not (self.service.offers("U11") or self.service.offers("L1")):
            return False  # the variant has no bulk operation (A and B)
        return not (action in self.WRITES and self.context.read_only)

    def open_details(self, pane: Widget, row: Any, full_screen: Callable[[], Widget]) -> None:
        """Enter on a row: focus the detail pane, or on a narrow terminal (no pane) show
        the details full screen; either way the row counts as viewed."""
        row = as_model(row)
        self.viewed(row)
        if pane.display:
            pane.focus()
        else:
            from corpdir.tui.screens.detail_screen import DetailScreen

            self.app.push_screen(DetailScreen(full_screen(), row, self))

    def viewed(self, row: Any) -> None:
        """A person or contact the user opened, copied from or called joins "recently
        viewed" (F8); a row the cursor merely passes over does not (docs/desk.md)."""
        if (ref := ref_of(row)) is not None:
            self.context.desk_phone.people.viewed(ref)

    def action_copy_number(self) -> None:
        self.copy(number_of(self.selected), "number")

    def action_copy_email(self) -> None:
        """A person's or contact's first e-mail address (the screens that list them bind it)."""
        self.copy(email_of(self.selected), "e-mail")

    def copy(self, value: str | None, what: str) -> None:
        copy_value(self, value or "", what)
        if value:
            self.viewed(self.selected)


class SearchedListScreen(ListScreen):
    """A list with a search box and a filter bar: ``listed`` is the screen's list, ``browse``
    what it shows (a frozen dataclass with ``text`` and ``filters``), ``filters`` the bar."""

    listed: SearchableList
    browse: Any
    filters: UserFilters | ContactFilters

    @on(SearchableList.SearchChanged)
    def _search_typed(self, event: SearchableList.SearchChanged) -> None:
        self.browse = replace(self.browse, text=event.text)
        self.show_rows()

    def action_focus_search(self) -> None:
        self.listed.focus_search()

    def action_clear_search(self) -> None:
        """Esc: the search and every filter cleared at once (the list follows as they
        change), back to the list."""
        self.listed.clear(self.filters if self.browse.filters else None)

    def action_jump_row(self) -> None:
        self.listed.jump_to_row()
