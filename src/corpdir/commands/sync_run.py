"""The body of `corpdir sync`: a rich progress bar per resource, then a summary table."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from corpdir.service.errors import CorpdirError
from corpdir.config import load_settings
from corpdir.commands.service_run import open_service


def summary_table(summary) -> Table:  # noqa: ANN001 - SyncSummary
    table = Table(title="Sync summary", title_justify="left")
    for column in ("resource", "added", "changed", "removed", "requests", "seconds", "note"):
        table.add_column(column, justify="right" if column not in ("resource", "note") else "left")
    rows = list(summary.resources.items()) + [("total", summary.total())]
    for name, r in rows:
        table.add_row(name, str(r.added), str(r.changed), str(r.removed), str(r.requests), f"{r.seconds:.1f}", r.skipped)
    if summary.compacted is not None:  # the first sync's one-off VACUUM: where its last seconds went
        table.caption, table.caption_justify = f"cache compacted after the first sync ({summary.compacted:.1f} s)", "left"
    return table


async def main(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    service = open_service(load_settings(service={"base_url": args.base_url}).service, "sync")
    if service is None:
        return 2
    columns = [SpinnerColumn(), TextColumn("{task.description:<16}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
    try:
        with Progress(*columns, console=console, disable=args.quiet, transient=False) as progress:
            tasks: dict[str, int] = {}

            def report(resource: str, done: int, total: int | None) -> None:
                if resource not in tasks:
                    tasks[resource] = progress.add_task(resource, total=total)
                task = tasks[resource]
                if total is not None and total < done:
                    total = None
                progress.update(task, completed=done, total=total)

            summary = await service.sync.run(full=args.full, progress=report)
            for task in tasks.values():
                progress.update(task, total=progress.tasks[task].completed)
    except CorpdirError as exc:
        from rich.text import Text

        from corpdir.text import printable

        # the message quotes the service: Text, never markup, and neutralised
        console.print(Text.assemble(("sync failed: ", "bold red"), printable(exc, keep_newlines=True)), highlight=False)
        return 2
    finally:
        await service.close()
    Console(file=sys.stdout).print(summary_table(summary))
    return 0
