"""`corpdir` with no command: the TUI. Its flags belong to the top-level parser."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", help="the directory service (default: config file, CORPDIR_BASE_URL, else the embedded demo)")
    parser.add_argument("--theme", help="a theme name (the last one chosen is remembered)")
    parser.add_argument("--no-sync", action="store_true", help="do not sync the cache on start")
    parser.add_argument("--read-only", action="store_true",
                        help="kiosk mode: nothing that writes is offered or sent, no files, no shell (also [ui] read_only)")


def run(args: argparse.Namespace) -> int:
    from corpdir.config import load_settings
    from corpdir.service.directory import DirectoryService
    from corpdir.tui.app import CorpdirApp

    settings = load_settings(service={"base_url": args.base_url}, ui={"theme": args.theme})
    read_only = bool(getattr(args, "read_only", False) or settings.ui.read_only or settings.service.read_only)
    settings.service.read_only = read_only  # the client refuses writes too, not only the screens
    service = DirectoryService.open(settings.service)
    app = CorpdirApp(service, settings.ui, sync_on_start=not args.no_sync, owns_service=True, read_only=read_only,
                     calls=settings.calls, keymap=settings.keymap)
    app.run()
    return int(app.return_code or 0)
