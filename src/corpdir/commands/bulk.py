"""`corpdir bulk destinations|spots FILE.csv`: bulk writes from CSV.

Every row is checked first; any bad row (or a file that is not UTF-8 CSV with the right
header) -> "line N: field: message" for all bad rows, nothing sent, exit 1. Destinations go
in requests of at most 10,000 (U11); a request refused half-way says which lines went and
which did not (exit 2). Spots (L1) sent within 5 minutes of the last accepted list are
explained with when to try again (exit 3). When the service answers but did not take every
row (a loginId or bleId it does not know), the run exits 4 (:data:`PARTLY_TAKEN`): a
script must not read "4 registered. 1 not registered" as done.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from corpdir.commands.service_run import add_base_url

PARTLY_TAKEN = 4  # the service answered, but registered or accepted fewer rows than were sent

HELP = ("send destinations (where each person can be reached) or spots (where each location tag is) from a CSV "
        "file, every row checked first")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=("destinations", "spots"),
                        help="destinations: loginId,destinationId,destinationName; spots: bleId,spotId")
    parser.add_argument("file", help="the CSV file (UTF-8, header line first)")
    add_base_url(parser)
    parser.add_argument("--check", action="store_true", help="check the rows only; send nothing")


async def run_bulk(service: Any, kind: str, path: str, out: TextIO, err: TextIO, *, check: bool = False) -> int:
    import asyncio

    from corpdir.service.errors import CorpdirError, RateLimited
    from corpdir.service.bulk import (CsvUnreadable, destinations_missing, destinations_result, parse_file, partly_sent,
                                      plural, spots_missing, spots_result)
    from corpdir.service.messages import explain, retry_after_text
    from corpdir.text import printable

    code = "U11" if kind == "destinations" else "L1"
    if not check and not service.offers(code):
        print(f"This directory service (interface variant {service.variant}) does not take {kind} in bulk: "
              "nothing was sent", file=err)
        return 2
    try:
        parsed = await asyncio.to_thread(parse_file, kind, path, variant=service.variant)
    except CsvUnreadable as exc:
        print(printable(f"{path}: {exc}"), file=err)
        print("nothing was sent", file=err)
        return 1
    except OSError as exc:
        print(printable(f"cannot read {path}: {exc.strerror or exc}"), file=err)
        return 2
    if parsed.errors:
        for line in parsed.problem_lines():
            print(printable(line), file=err)
        print(f"{plural(parsed.problem_count, 'problem')} in {printable(path)}: nothing was sent", file=err)
        return 1
    if check:
        print(f"{plural(len(parsed.entries), 'row')}, all valid ({plural(parsed.requests(), 'request')}); "
              "nothing sent (--check)", file=out)
        return 0
    done = 0
    try:
        if kind == "destinations":
            def progress(sent: int, total: int) -> None:
                nonlocal done
                done = sent
                if parsed.requests() > 1:
                    print(f"sent {sent}/{total}", file=err, flush=True)

            answers = await service.people.send_destinations(parsed.entries, progress=progress)
            print(destinations_result(parsed, answers), file=out)
            missing = destinations_missing(parsed, answers)
        else:
            answer = await service.people.register_spots(parsed.entries)
            print(spots_result(answer), file=out)
            missing = spots_missing(answer)
    except RateLimited as exc:
        if kind == "spots" and exc.retry_after is not None:
            print(printable(retry_after_text(exc)), file=err)
            return 3
        print(printable(f"{explain(exc)}\n{partly_sent(parsed, done)}", keep_newlines=True), file=err)
        return 2
    except CorpdirError as exc:
        print(printable(f"{explain(exc)}\n{partly_sent(parsed, done)}", keep_newlines=True), file=err)
        return 2
    return PARTLY_TAKEN if missing > 0 else 0


def run(args: argparse.Namespace) -> int:
    import sys

    from corpdir.commands.service_run import run_with_service

    return run_with_service(args.base_url, lambda service: run_bulk(service, args.kind, args.file, sys.stdout, sys.stderr,
                                                                    check=args.check), "bulk")
