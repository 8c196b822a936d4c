"""`corpdir sync`: bring the local cache up to date (full or incremental)."""

from __future__ import annotations

import argparse

HELP = "bring the local cache up to date (resumable; respects the rate limit)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--full", action="store_true", help="re-read all contacts too, dropping those the service no longer has")
    parser.add_argument("--base-url", help="the service (default: config file, CORPDIR_BASE_URL, else the embedded demo)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar; print only the summary")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from corpdir.commands.sync_run import main

    return asyncio.run(main(args))
