"""`corpdir` with no command: the TUI. Its flags belong to the top-level parser."""

from __future__ import annotations

import argparse
import logging
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from corpdir.config import CallsConfig, Settings


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", help="the directory service (default: config file, CORPDIR_BASE_URL, else the embedded demo)")
    parser.add_argument("--theme", help="a theme name (the last one chosen is remembered)")
    parser.add_argument("--no-sync", action="store_true", help="do not sync the cache on start")
    parser.add_argument("--read-only", action="store_true",
                        help="kiosk mode: nothing that writes is offered or sent, no files, no shell (also [ui] read_only)")


def desk_only(calls: CallsConfig, read_only: bool) -> CallsConfig:
    """The callers' names appear on the desk alone: an SSH session (``CORPDIR_SESSION=ssh``,
    set by `corpdir ssh-server`), a browser's (textual-serve's web driver) or a kiosk runs no
    feed and takes no ring, whatever the shared config file says, unless ``[calls]
    every_session`` says otherwise. Dialing stays: it is the user's own phone."""
    import os

    remote = os.environ.get("CORPDIR_SESSION") == "ssh" or "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")
    if (remote or read_only) and not calls.every_session:
        return calls.model_copy(update={"feeds": [], "ring_socket": False})
    return calls


def run(args: argparse.Namespace) -> int:
    """The TUI, with Python's cyclic garbage collector off until its first rows are on
    screen (the app turns it on again then, :meth:`corpdir.tui.app.CorpdirApp._first_rows_shown`):
    the start creates ~80,000 objects, which cost ~190 collections and ~35 ms of its ~0.4 s
    of CPU, to free ~4,000 objects in cycles: temporary styles and types, nothing else."""
    import gc

    gc.disable()
    try:
        return _run(args)
    finally:
        gc.enable()


def _run(args: argparse.Namespace) -> int:
    """The first screen is built from what :func:`corpdir.config.first.first_screen` reads
    without pydantic, and the whole settings are checked right after its first rows are
    painted (:func:`checked_settings`), ~90 ms sooner on the screen (docs/performance.md,
    "TUI start"). When that reader cannot be sure, or the desk shows busy lamps, the whole
    settings come first, as before. A setting that breaks a rule ends the app either way
    with the same message and status 2 (:func:`corpdir.cli.main`)."""
    from corpdir.config.first import first_screen
    from corpdir.service.directory import DirectoryService
    from corpdir.tui.app import CorpdirApp

    flags = {"service": {"base_url": args.base_url}, "ui": {"theme": args.theme}}
    with warnings_kept("corpdir.config", "corpdir.client") as notes:
        first = first_screen(args.base_url, args.theme)
        settings = None if first is not None else load(flags, bool(getattr(args, "read_only", False)))
        service = DirectoryService.open(first.service if first is not None else settings.service)
    later: list[str] = []  # what the whole settings' check warns of, once the first screen is up
    if first is not None:
        read_only = bool(getattr(args, "read_only", False) or first.ui.read_only or first.service.read_only)
        first.service.read_only = read_only  # the client refuses writes too, not only the screens
        app = CorpdirApp(service, first.ui, sync_on_start=not args.no_sync, owns_service=True, read_only=read_only,
                         keymap=first.keymap, notes=notes, check=lambda: checked_settings(flags, read_only, later))
    else:
        read_only = settings.service.read_only
        app = CorpdirApp(service, settings.ui, sync_on_start=not args.no_sync, owns_service=True, read_only=read_only,
                         messages=settings.messages, whereabouts=settings.whereabouts,
                         calls=desk_only(settings.calls, read_only), keymap=settings.keymap, notes=notes)
    log = None if read_only else desk_log(service.settings)  # a kiosk writes no file
    try:
        app.run()
    finally:
        if log is not None:
            logging.getLogger("corpdir").removeHandler(log)
            log.close()
    if app.settings_error is not None:  # said as before the first screen: the warnings, then the mistakes
        for note in later:
            print(f"corpdir: {note}", file=sys.stderr)
        raise app.settings_error
    return int(app.return_code or 0)


def load(flags: dict[str, dict[str, Any]], read_only_flag: bool) -> Settings:
    """The whole settings, with the desk's read-only flag given to the service too: the
    client refuses writes, not only the screens."""
    from corpdir.config import load_settings

    settings = load_settings(**flags)
    settings.service.read_only = bool(read_only_flag or settings.ui.read_only or settings.service.read_only)
    return settings


def checked_settings(flags: dict[str, dict[str, Any]], read_only: bool,
                     said: list[str]) -> tuple[Settings, list[str]]:
    """The whole settings, read once the first rows are on screen, with the warnings they
    gave (kept in ``said`` too, for stderr when a mistake ends the app); ``read_only`` is
    what the first screen was built with."""
    with warnings_kept("corpdir.config", "corpdir.client") as notes:
        try:
            settings = load(flags, read_only)
        finally:
            said.extend(notes)
    settings.calls = desk_only(settings.calls, settings.service.read_only)
    return settings, notes


@contextmanager
def warnings_kept(*names: str) -> Iterator[list[str]]:
    """The warnings the loggers ``names`` give while the block runs (an unknown key in the
    config file, a file holding a secret open to others, a key file that cannot be read),
    kept for the app to show: printed on stderr alone, they were hidden by
    the app's screen the moment it started and seen only after quitting. Each still goes
    where it went before: to the handlers configured, else to stderr (Python's last resort)."""
    kept: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            kept.append(record.getMessage().removeprefix("corpdir: "))
            if logging.lastResort is not None and not self.others_handle(record):
                logging.lastResort.handle(record)

        def others_handle(self, record: logging.LogRecord) -> bool:
            logger: logging.Logger | None = logging.getLogger(record.name)
            while logger is not None:
                if any(handler is not self for handler in logger.handlers):
                    return True
                logger = logger.parent if logger.propagate else None
            return False

    handler = Keep(logging.WARNING)
    for name in names:
        logging.getLogger(name).addHandler(handler)
    try:
        yield kept
    finally:
        for name in names:
            logging.getLogger(name).removeHandler(handler)


def desk_log(settings: Any) -> logging.Handler:
    """The profile's log file (:mod:`corpdir.calls.logfile`), the key kept out of it."""
    from corpdir.calls.logfile import log_path, open_log
    from corpdir.paths import state_dir

    profile = settings.profile()
    return open_log(log_path(state_dir(), profile.cache_path()), (profile.api_key or "",))
