"""`corpdir doctor`: what the desk's telephone left undone, for someone who never set up
logging: the call queue's length (records and messages not yet on the service), the last
records the service refused, calls whose outcome no feed saw, and where the log is.
It reads local files only: it works while the service is away, which is when it helps."""

from __future__ import annotations

import argparse

from corpdir.commands.service_run import add_base_url

HELP = "show the desk's call queue, the records the service refused, and where the log is"


def configure(parser: argparse.ArgumentParser) -> None:
    add_base_url(parser, "the service whose desk to look at (default: as the TUI chooses it)")


def run(args: argparse.Namespace) -> int:
    import sys
    from datetime import datetime

    from corpdir.calls.logfile import log_path
    from corpdir.calls.recorder import queue_path, read_queue
    from corpdir.config import load_settings
    from corpdir.paths import data_dir, state_dir
    from corpdir.text import printable

    def local(moment: str) -> str:
        return f"{datetime.fromisoformat(moment).astimezone():%Y-%m-%d %H:%M:%S}"

    settings = load_settings(service={"base_url": args.base_url}).service
    cache = settings.profile().cache_path()
    queue = queue_path(cache, data_dir())
    print(f"service: {printable(settings.base_url or 'the embedded demo')}")
    print(f"log: {log_path(state_dir(), cache)}")
    try:
        entries, refused, unknown, _open = read_queue(queue)
    except FileNotFoundError:
        print(f"call queue: {queue} (none yet: no call recorded here)")
        return 0
    except (OSError, ValueError, TypeError, KeyError) as exc:
        print(f"corpdir doctor: the call queue {queue} cannot be read: {exc}", file=sys.stderr)
        return 2
    waiting = [p for p in entries.values() if not p.sent]
    notes = [p for p in entries.values() if p.sent and p.note_pending]
    print(f"call queue: {queue}")
    print(f"  {len(waiting)} call{'s' if len(waiting) != 1 else ''} waiting to be recorded, "
          f"{len(notes)} message{'s' if len(notes) != 1 else ''} waiting to be sent")
    for pending in waiting:
        print(f"  waiting: {printable(pending.from_num) or 'withheld'}, rang {local(pending.called_at)}, "
              f"{pending.attempts} attempt{'s' if pending.attempts != 1 else ''}")
    for title, notices in (("refused by the service", refused), ("outcome unknown, not recorded", unknown)):
        print(f"{title}: {len(notices) or 'none'}")
        for notice in reversed(notices):  # newest first
            print(f"  {local(notice.at)}: {printable(notice.from_num) or 'withheld'}, rang {local(notice.called_at)}"
                  f" ({printable(notice.reason)})")
    return 1 if waiting or notes or refused else 0
