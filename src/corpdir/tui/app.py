"""The corpdir TUI: the reception desk's window on the directory.

The app is given a ready :class:`DirectoryService` (built before it starts, as the
settings and the cache are), so tests build it from fixtures. Screens are modes, one per
place the user goes; each is reachable by key, from the footer and from the command
palette. Every failure of a worker becomes a readable notification, never a traceback.
"""

from __future__ import annotations

import gc
import importlib
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from textual import on, work
from textual.actions import parse
from textual.app import SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from corpdir.service.errors import ApiError, ConfigError, CorpdirError, ServerError, TransportError
from corpdir.state import State
from corpdir.text import printable
from corpdir.tui import keymap as keymaps
from corpdir.tui.chosen import number_of
from corpdir.tui.context import AppContext, SyncProgress
from corpdir.tui.desk_phone import DeskPhone
from corpdir.tui.readonly import action_writes, writes
from corpdir.tui.screens.detail_screen import DetailScreen
from corpdir.tui.screens.list_screen import ListScreen
from corpdir.tui.textual_compat import GatedApp, WholeFirstFrame, styled_with_app
from corpdir.tui.themes import DEFAULT_THEME, load_themes

if TYPE_CHECKING:
    from corpdir.config import CallsConfig, MessagesConfig, Settings, UiConfig, WhereaboutsConfig
    from corpdir.config.first import FirstUi
    from corpdir.paths import SettingsError
    from corpdir.service.directory import DirectoryService
    from corpdir.tui.widgets.ring_card import RingCard

_START_FROZEN = False  # see CorpdirApp._first_rows_shown

SCREENS_BY_KEY = (
    ("directory", "f1", "Directory", "Division tree, people and search"),
    ("contacts", "f2", "Contacts", "External contacts in shared and personal folders"),
    ("calls", "f3", "Calls", "Your incoming and outgoing calls"),
    ("lookup", "f4", "Lookup", "Who is this number?"),
)


def failure_title(error: CorpdirError) -> str:
    """What kind of failure it was, as the notification's title: a connection that failed
    is not a refusal ("The service said no" is kept for the service's own 4xx answers)."""
    if isinstance(error, TransportError):
        return "Could not reach the service"
    if isinstance(error, ServerError):
        return "The service failed"
    if isinstance(error, ApiError):
        return "The service said no"
    if isinstance(error, ConfigError):
        return "Check the settings"
    return "Not done"


class CorpdirApp(WholeFirstFrame, GatedApp):
    TITLE = "corpdir"
    # The first screen's stylesheet is read with the app's: read when that screen is first
    # shown, it had every rule of the app and its widgets parsed again before the first paint.
    CSS_PATH = ["app.tcss", "screens/directory.tcss"]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    # The directory is the mode the app starts in: its screen is built with the app's
    # Compose, not switched to from on_mount (a switch holds repaints 50 ms).
    DEFAULT_MODE = "directory"
    BINDINGS = [
        *[Binding(key, f"switch_mode('{mode}')", title, id=f"app.{mode}") for mode, key, title, _ in SCREENS_BY_KEY],
        Binding("ctrl+s", "sync", "Sync", id="app.sync"),
        Binding("f9", "focus_ring", "Ringing call", show=False, priority=True, id="app.ring"),  # forms too
        Binding("f5", "call_selected", "Call", show=False, id="app.call"),
        Binding("f8", "people_at_hand", "Favourites & recent", show=False, id="app.people"),
        Binding("f6", "message_slips", "Messages", show=False, id="app.slips"),
        Binding("w", "whereabouts", "Whereabouts", show=False, id="app.whereabouts"),
        Binding("f7", "desk_view", "Desk view", show=False, id="app.desk"),
        Binding("asterisk", "favourite", "Favourite", show=False, id="app.favourite"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        Binding("question_mark", "help", "Help: the keys of this screen", show=False, id="app.help"),
    ]

    def __init__(self, service: DirectoryService, ui: UiConfig | FirstUi | None = None, *, state: State | None = None,
                 sync_on_start: bool = True, owns_service: bool = False, read_only: bool = False,
                 calls: CallsConfig | None = None, keymap: dict[str, Any] | None = None,
                 messages: MessagesConfig | None = None, whereabouts: WhereaboutsConfig | None = None,
                 notes: Sequence[str] = (), check: Callable[[], tuple[Settings, list[str]]] | None = None) -> None:
        """``check``: the whole settings, read and checked once the first rows are painted,
        when the app was started on what the first screen needs of them
        (:mod:`corpdir.config.first`); ``ui`` and ``read_only`` are then those, and the
        service's settings, ``calls``, ``messages`` and ``whereabouts`` come from ``check``."""
        super().__init__()
        self._check = check
        self.settings_error: SettingsError | None = None  # check's: the app ends, `corpdir` says it
        self._start_notes = list(notes)  # the start's warnings (corpdir.commands.tui.warnings_kept), shown on mount
        self.read_only = self.gated = read_only  # kiosk: nothing that writes is offered or run (corpdir.tui.readonly)
        self.service = service
        self.owns_service = owns_service
        self.ui = ui
        self.state = state or State()
        self.sync_on_start = sync_on_start
        self._sync_checked = False  # the start-up sync is considered once, after the first rows
        self._desk_started = False  # so is the desk phone started
        self.sync = SyncProgress(pending=sync_on_start)  # pending until the start-up check has decided
        self.sub_title = "DEMO · embedded demo tenant" if service.is_demo else service.label()
        if read_only:
            self.sub_title += " · read-only"
        # Themes before the first screen mounts: setting one later restyles every widget.
        themes, self._theme_problems = load_themes()
        for theme in themes:
            self.register_theme(theme)
        wanted = (ui.theme if ui else None) or self.state.get("theme") or DEFAULT_THEME
        self.theme = wanted if wanted in self.available_themes else DEFAULT_THEME
        if self.theme != wanted:  # a typo ('corpdir-highcontrast') otherwise looked like the setting was ignored
            self._theme_problems.append(f"No theme named {wanted!r}: showing {DEFAULT_THEME} (Ctrl+P, Theme lists them)")
        # The user's [keymap] before the first screen's bindings are read (corpdir.tui.keymap).
        self.user_keymap, self._keymap_problems = keymaps.checked(keymap or {})
        if self.user_keymap:
            self.set_keymap(self.user_keymap)
        for mode, *_ in SCREENS_BY_KEY:
            self.add_mode(mode, partial(self._mode_screen, mode))
        self.desk_phone = DeskPhone(self, calls, messages, whereabouts)  # the pop-up, dialing, people at hand (corpdir.tui.desk_phone)
        self.context = AppContext(service, self.state, read_only, self.desk_phone, self.sync)

    def _mode_screen(self, mode: str) -> Screen:
        """Each mode's screen is ``corpdir.tui.screens.<mode>.<Mode>Screen``, imported when first opened."""
        module = importlib.import_module(f"corpdir.tui.screens.{mode}")
        screen: ListScreen = getattr(module, f"{mode.title()}Screen")(self.context)
        # The width class (-narrow / -wide) now, as Textual would set it on the first resize:
        # set then, it restyles every widget of the screen a second time before the first paint.
        applies = max((b for b in self.HORIZONTAL_BREAKPOINTS if self.size.width >= b[0]), default=None)
        for breakpoint in self.HORIZONTAL_BREAKPOINTS:
            screen.set_class(breakpoint == applies, breakpoint[1])
        styled_with_app(screen, self)
        return screen

    def on_mount(self) -> None:
        for note in self._start_notes:  # a file's path and a fix to read: longer than the others
            self.notify(note, title="Settings", severity="warning", timeout=20)
        for problem in [*self._theme_problems, *self._keymap_problems]:
            self.notify(problem, severity="warning", timeout=10)
        if aside := self.service.cache_set_aside():
            self.notify(f"The cache could not be read and was set aside ({aside}): a sync (Ctrl+S) fills a new one.",
                        severity="warning", timeout=15)
        if self.user_keymap:
            self._check_keymap_ids()

    def settings_checked(self) -> bool:
        """The whole settings, when the app started on the first screen's (``check``): the
        service and the desk phone take them, and their warnings are told. Asked once the
        first screen's first frame is out (ListScreen.FirstRowsPainted), and by
        anything that needs them sooner (a key typed ahead: the desk phone). False when one
        breaks a rule: the app ends with status 2, ``settings_error`` says why."""
        if self._check is None:
            return self.settings_error is None
        check, self._check = self._check, None
        try:
            settings, notes = check()
        except ValueError as exc:  # SettingsError, imported only when needed
            from corpdir.paths import SettingsError

            if not isinstance(exc, SettingsError):
                raise
            self.settings_error = exc
            self.call_after_refresh(self.exit, return_code=2)  # the first screen may still be mounting
            return False
        self.service.settings = settings.service
        self.desk_phone.configure(settings.calls, settings.messages, settings.whereabouts)
        for note in notes:
            self.notify(note, title="Settings", severity="warning", timeout=20)
        return True

    @on(ListScreen.FirstRowsPainted)
    def _first_rows_painted(self, event: ListScreen.FirstRowsPainted) -> None:
        if self.settings_checked():
            event.screen.settings_checked()

    @on(ListScreen.FirstRowsShown)
    def _first_rows_shown(self, event: ListScreen.FirstRowsShown) -> None:
        """The start-up sync and the desk phone (its pop-up stack, the calls by caller) wait
        for the first rows: painting them comes first (~20 ms of a forked SSH session's
        ~170 ms to its first screen went to the desk phone before).

        What exists by now (modules, classes, the screen's widgets) lives as long as the app:
        ``gc.freeze()`` leaves it out of every later full collection, which otherwise took
        80-130 ms here with a large cache open, in the middle of someone's typing. Once per
        process: the SSH server runs an app per session. `corpdir` starts with the collector
        off (corpdir.commands.tui): it goes on here, and the few cycles the start left
        (styles and types it built twice, well under a megabyte) are frozen with the rest
        rather than collected (a full collection, ~30 ms, would hold the first frame back)."""
        global _START_FROZEN
        if not _START_FROZEN:
            _START_FROZEN = True
            gc.freeze()
        gc.enable()
        event.screen.after_first_rows()
        if not self._desk_started:
            self._desk_started = True
            self.run_worker(self.desk_phone.start(), group="desk-phone", exit_on_error=False)
        if self.sync_on_start and not self._sync_checked:
            self._sync_checked = True
            self.run_worker(self.start_sync_if_stale(), group="sync-check", exit_on_error=False)

    def on_ring_card_chosen(self, message: RingCard.Chosen) -> None:
        """By its handler's name, not ``@on``: the pop-up's modules wait for the first call."""
        self.desk_phone.choose(message)

    @work(thread=True, group="keymap", exit_on_error=False)
    def _check_keymap_ids(self) -> None:
        """Keymap ids no binding has, and keys taken from other bindings, told once the first
        screen is up: knowing every binding means importing every screen, which the start
        does not wait for."""
        for problem in keymaps.later_problems(self.user_keymap):
            self.call_from_thread(self.notify, problem, severity="warning", timeout=10)

    def action_focus_ring(self) -> None:
        self.desk_phone.focus_first()

    def _selected(self) -> Any:
        """The row chosen on the list screen, or the record of the full-screen detail, on
        show (None on any other screen)."""
        return self.screen.selected if isinstance(self.screen, (ListScreen, DetailScreen)) else None

    def action_call_selected(self) -> None:
        """F5 on any screen: call the selected call's number, person's or contact's first
        number; on a list, the person or contact called counts as viewed (F8)."""
        selected = self._selected()
        self.desk_phone.dial(number_of(selected))
        if isinstance(self.screen, ListScreen) and number_of(selected):
            self.screen.viewed(selected)

    def action_help(self) -> None:
        """``?``: the keys of the screen in front (corpdir.tui.screens.help); ``?`` again closes it."""
        from corpdir.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
        else:
            self.push_screen(HelpScreen(self.screen))

    def on_key(self, event: Any) -> None:
        """The help key on a modal screen (F6, F7, F8, the pop-up's lists): Textual keeps the
        app's keys from a modal, so `?`, offered anywhere, did nothing there. A key typed into
        a field never gets here (the field takes it)."""
        from textual.screen import ModalScreen

        from corpdir.tui.screens.help import HelpScreen

        help_keys = [key.strip() for key in self.user_keymap.get("app.help", "question_mark").split(",")]
        if isinstance(self.screen, ModalScreen) and not isinstance(self.screen, HelpScreen) and event.key in help_keys:
            event.stop()
            # after this key is done with: pushed now, the help would get the same key and close
            self.call_later(self.push_screen, HelpScreen(self.screen))

    def action_people_at_hand(self) -> None:
        self.desk_phone.show_people()

    @writes  # resends mail; and a kiosk never shows the desk's messages
    def action_message_slips(self) -> None:
        """F6: the messages taken today and whether they reached their person."""
        self.desk_phone.show_slips()

    @writes
    def action_whereabouts(self) -> None:
        """``w`` on a person: where they are (外出 15:00戻り), kept by the desk and sent to the service."""
        self.desk_phone.set_whereabouts(self._selected())
    def action_desk_view(self) -> None:
        self.desk_phone.show_desk()

    def action_favourite(self) -> None:
        """``*`` on a list: the selected person or contact (a call's, on the Calls screen)
        becomes a favourite, or stops being one."""
        self.desk_phone.toggle_favourite(self._selected())

    async def on_unmount(self) -> None:
        await self.desk_phone.stop()
        if self.owns_service:  # closed on the loop its connections belong to
            await self.service.close()

    def watch_theme(self, theme: str) -> None:
        if self.is_mounted:
            self.state.set("theme", theme)

    def notify(self, message: str, *, title: str = "", severity: Any = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Notifications often quote service data or errors: always shown literally."""
        super().notify(printable(message, keep_newlines=True), title=printable(title), severity=severity,
                       timeout=timeout, markup=False)

    def copy_to_clipboard(self, text: str) -> None:
        """Copied values come from the service: control characters are replaced first, so a
        paste can never carry an escape sequence (or a newline, into a shell) anywhere."""
        super().copy_to_clipboard(printable(text))

    # -- kiosk (read-only) ----------------------------------------------------------------
    def refuses(self, namespace: DOMNode, action_name: str) -> bool:
        """In read-only mode every action that writes is hidden (footer, palette, keys) and
        refused, however it was invoked."""
        return action_writes(namespace, action_name)

    def refused(self, action_name: str) -> None:
        self.notify("Not available here: this terminal is read-only.", severity="warning", timeout=3)

    def action_suspend_process(self) -> None:
        if self.read_only:  # a kiosk never drops to the shell that started it
            return
        super().action_suspend_process()

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """A screenshot shows names and numbers: saved 0600, as exports are. Textual's writer
        opens the file with the default mode (0644), so the file is made private first."""
        if self.read_only:  # writes a file: no path outside the app in a kiosk
            return None
        if self._driver is not None and not self.is_web:  # in a browser it is a download, no file here
            import os
            from pathlib import Path

            from platformdirs import user_downloads_path
            from textual.app import generate_datetime_filename

            filename = filename or generate_datetime_filename(self.title, ".svg", time_format)
            target = (Path(path) if path else user_downloads_path()) / filename
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            os.fchmod(fd, 0o600)  # a file of that name there before is made private too
            os.close(fd)
        return super().deliver_screenshot(filename, path, time_format)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's "Keys" panel is generic and stays open on Esc: "Help" (`?`) replaces it.
        hidden = {"Keys", "Screenshot"} if self.read_only else {"Keys"}
        yield from (c for c in super().get_system_commands(screen) if c.title not in hidden)
        yield SystemCommand("Help", f"The keys of this screen ({self.user_keymap.get('app.help', '?')})", self.action_help)
        for mode, key, title, help_text in SCREENS_BY_KEY:
            key = self.user_keymap.get(f"app.{mode}", key)  # the keys the user gave it, if any
            yield SystemCommand(f"Go to {title} ({key.upper()})", help_text, partial(self.switch_mode, mode))
        yield SystemCommand("Sync now", "Bring the local cache up to date (Ctrl+S)", self.action_sync)
        yield SystemCommand("Full sync", "Re-read everything and drop what the service no longer has", partial(self.run_sync, True))
        for binding in screen.BINDINGS:
            if isinstance(binding, Binding) and binding.description and binding.action.startswith(tuple("abcdefghijklmnopqrstuvwxyz")):
                _, name, arguments = parse(binding.action)
                if (self.read_only and action_writes(screen, name)) or screen.check_action(name, arguments) is False:
                    continue  # what the screen does not offer now (a person's edit to a key without the right)
                keys = self.user_keymap.get(binding.id or "", binding.key)
                yield SystemCommand(binding.description, keys, partial(screen.run_action, binding.action))

    # -- sync ---------------------------------------------------------------------------------
    def _list_screens(self) -> list[ListScreen]:
        return [screen for screen in self.screen_stack if isinstance(screen, ListScreen)]

    def _sync_state_changed(self) -> None:
        """Lists that say how many rows they hold say it again (syncing, or the count)."""
        for screen in self._list_screens():
            screen.show_count()

    async def start_sync_if_stale(self) -> None:
        try:
            age = await self.service.sync.age("users")
        except BaseException:
            self.sync.pending = False
            self._sync_state_changed()
            raise
        if age is None or age > self.service.settings.stale_after:
            self.run_sync(False)
        else:
            self.sync.pending = False
            self._sync_state_changed()

    def action_sync(self) -> None:
        self.run_sync(False)

    @work(group="sync", exclusive=True, exit_on_error=False)
    async def run_sync(self, full: bool = False) -> None:
        from corpdir.tui.widgets.status_bar import sync_activity

        counts: dict[str, tuple[int, int | None]] = {}  # users and contacts report in turn: one line for all

        def progress(resource: str, done: int, total: int | None) -> None:
            counts[resource] = (done, total)
            self._say_sync(sync_activity(counts))

        self.sync.running += 1
        self.sync.pending = False
        self._sync_state_changed()
        try:
            summary = await self.service.sync.run(full=full, progress=progress)
        except BaseException:
            self.sync.running -= 1
            self._sync_state_changed()  # an empty list says it is empty again, not "syncing"
            raise
        finally:
            self._say_sync("")
        self.sync.running -= 1  # the lists say their new counts as they reload below
        self.sync.done += 1
        total = summary.total()
        self.notify(f"Synced: {total.added} added, {total.changed} changed, {total.removed} removed", timeout=3)
        for screen in self._list_screens():
            screen.action_refresh()

    def _say_sync(self, text: str) -> None:
        """What the sync under way has done ("" once it is over): the status bar of the
        screen on show says it now, those of other screens when they next paint."""
        from corpdir.tui.widgets.status_bar import StatusBar

        self.sync.activity = text
        for screen in self.screen_stack[-1:]:
            for bar in screen.query(StatusBar):
                bar.refresh_text()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            if isinstance(error, CorpdirError):
                self.notify(str(error), title=failure_title(error), severity="error", timeout=8)
            else:
                self.notify(f"{error.__class__.__name__}: {error}", title="Something went wrong", severity="error", timeout=8)
