"""Running a command's body against the configured directory service (`bulk`, `export`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from corpdir.config import ServiceConfig
    from corpdir.service.directory import DirectoryService


SERVICE_HELP = "the service (default: config file, CORPDIR_BASE_URL, else the embedded demo)"


def add_base_url(parser: argparse.ArgumentParser, help: str = SERVICE_HELP) -> None:
    """A command's ``--base-url``. Not given, it sets nothing (``argparse.SUPPRESS``): a
    subcommand's default of None replaced the URL of `corpdir --base-url URL COMMAND`, and
    the command quietly used the configured service or the demo (a sync "succeeded")."""
    import argparse

    parser.add_argument("--base-url", default=argparse.SUPPRESS, help=help)


def open_service(settings: ServiceConfig, command: str) -> DirectoryService | None:
    """The service, or None once it is said why its local files cannot be opened (a cache
    or data folder that is a file, or cannot be made; a cache file that is not SQLite): a
    traceback before."""
    import sys

    from corpdir.service.directory import DirectoryService
    from corpdir.sqlite import damaged

    try:
        return DirectoryService.open(settings)
    except OSError as exc:
        why = "a file is where a folder should be" if isinstance(exc, (FileExistsError, NotADirectoryError)) else \
            exc.strerror or str(exc)
        print(f"corpdir {command}: cannot open the local cache or data: {why} ({exc.filename}); "
              "CORPDIR_CACHE_DIR and CORPDIR_DATA_DIR move them", file=sys.stderr)
        return None
    except Exception as exc:
        if not damaged(exc):
            raise
        print(f"corpdir {command}: the cache {settings.profile().cache_path()} cannot be read ({exc}): remove it, "
              "and `corpdir sync` makes it again", file=sys.stderr)
        return None


def run_with_service(base_url: str | None, body: Callable[[DirectoryService], Awaitable[int]], command: str) -> int:
    """Open the settings and the service, ``await body(service)`` and close the service
    whatever happens; the body's exit code is returned (2: the service could not be opened)."""
    import asyncio

    from corpdir.config import load_settings

    async def main() -> int:
        service = open_service(load_settings(service={"base_url": base_url}).service, command)
        if service is None:
            return 2
        try:
            return await body(service)
        finally:
            await service.close()

    return asyncio.run(main())
