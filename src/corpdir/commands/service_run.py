"""Running a command's body against the configured directory service (`bulk`, `export`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from corpdir.service.directory import DirectoryService


SERVICE_HELP = "the service (default: config file, CORPDIR_BASE_URL, else the embedded demo)"


def add_base_url(parser: argparse.ArgumentParser, help: str = SERVICE_HELP) -> None:
    """A command's ``--base-url``. Not given, it sets nothing (``argparse.SUPPRESS``): a
    subcommand's default of None replaced the URL of `corpdir --base-url URL COMMAND`, and
    the command quietly used the configured service or the demo (a sync "succeeded")."""
    import argparse

    parser.add_argument("--base-url", default=argparse.SUPPRESS, help=help)


def run_with_service(base_url: str | None, body: Callable[[DirectoryService], Awaitable[int]]) -> int:
    """Open the settings and the service, ``await body(service)`` and close the service
    whatever happens; the body's exit code is returned."""
    import asyncio

    from corpdir.config import load_settings
    from corpdir.service.directory import DirectoryService

    async def main() -> int:
        settings = load_settings(service={"base_url": base_url}).service
        service = DirectoryService.open(settings)
        try:
            return await body(service)
        finally:
            await service.close()

    return asyncio.run(main())
