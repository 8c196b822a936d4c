"""`corpdir bulk destinations|spots FILE.csv`: bulk writes from CSV.

Every row is checked first; any bad row -> "line N: field: message" for all bad rows,
nothing sent, exit 1. Destinations go in requests of at most 10,000 (U11). Spots (L1) sent
within 5 minutes of the last accepted list are explained with when to try again (exit 3).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

HELP = "send destinations (U11) or spots (L1) from a CSV file, every row checked first"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=("destinations", "spots"),
                        help="destinations: loginId,destinationId,destinationName; spots: bleId,spotId")
    parser.add_argument("file", help="the CSV file (UTF-8, header line first)")
    parser.add_argument("--base-url", help="the service (default: config file, CORPDIR_BASE_URL, else the embedded demo)")
    parser.add_argument("--check", action="store_true", help="check the rows only; send nothing")


async def run_bulk(service: Any, kind: str, path: str, out: TextIO, err: TextIO, *, check: bool = False) -> int:
    import asyncio
    from pathlib import Path

    from corpdir.client.errors import Conflict, CorpdirError
    from corpdir.service.bulk import parse
    from corpdir.service.messages import explain, retry_after_text
    from corpdir.text import printable

    try:
        text = await asyncio.to_thread(Path(path).read_text, encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {path}: {exc}", file=err)
        return 2
    parsed = parse(kind, text, variant=service.variant)
    if parsed.errors:
        for line in parsed.errors:
            print(printable(line), file=err)
        print(f"{len(parsed.errors)} bad {'row' if len(parsed.errors) == 1 else 'rows'}: nothing was sent", file=err)
        return 1
    if check:
        print(f"{len(parsed.entries)} rows, all valid ({parsed.requests()} requests); nothing sent (--check)", file=out)
        return 0
    try:
        if kind == "destinations":
            def progress(done: int, total: int) -> None:
                print(f"sent {done}/{total}", file=err, flush=True)

            answers = await service.send_destinations(parsed.entries, progress=progress)
            registered = sum(a.registeredCount for a in answers)
            print(f"{len(parsed.entries)} destinations sent in {len(answers)} requests: {registered} registered", file=out)
        else:
            answer = await service.register_spots(parsed.entries)
            print(f"{answer.locationsCount} spots sent: {answer.acceptedCount} accepted (they expire in 10 minutes)", file=out)
    except Conflict as exc:
        print(printable(retry_after_text(exc) if kind == "spots" and exc.retry_after is not None else explain(exc)), file=err)
        return 3
    except CorpdirError as exc:
        print(printable(explain(exc)), file=err)
        return 2
    return 0


def run(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from corpdir.config import load_settings
    from corpdir.service.directory import DirectoryService

    async def main() -> int:
        settings, _ = load_settings(base_url=args.base_url)
        service = DirectoryService.open(settings)
        try:
            return await run_bulk(service, args.kind, args.file, sys.stdout, sys.stderr, check=args.check)
        finally:
            await service.close()

    return asyncio.run(main())
