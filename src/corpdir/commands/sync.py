"""`corpdir sync`: bring the local cache up to date (full or incremental)."""

from __future__ import annotations

import argparse

from corpdir.commands.service_run import add_base_url

HELP = "bring the local cache up to date (resumable; respects the rate limit)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--full", action="store_true", help="re-read all contacts too, dropping those the service no longer has")
    add_base_url(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar; print only the summary")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from corpdir.commands.sync_run import main

    return asyncio.run(main(args))
