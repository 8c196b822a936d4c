"""`corpdir ring NUMBER`: make the running TUI(s) of this user pop up a call, from any
script (a PBX hook, a CTI bridge, a test)."""

from __future__ import annotations

import argparse

from corpdir.commands.arg_types import caller_number

HELP = "pop up a call in this user's running desk TUI(s): those with a [calls] feed or ring_socket = true"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", type=caller_number,
                        help="the caller's number, as the phone system gives it ('anonymous': a withheld caller)")
    parser.add_argument("--name", default="", help="the name the phone system sent (shown when the directory does not know the number)")
    parser.add_argument("--line", default="", help="the line or extension it rings on")
    parser.add_argument("--state", choices=("ringing", "answered", "ended"), default="ringing",
                        help="the call's state: a ringing call pops up, answered or ended updates it (default: ringing)")
    parser.add_argument("--call-id", default="", help="the same id on later states of one call (without it, "
                        "--state answered or ended is the newest call rung for the same number without one)")


def run(args: argparse.Namespace) -> int:
    import sys

    from corpdir.calls.events import bounded
    from corpdir.calls.ring_socket import ring
    from corpdir.text import printable

    # An argument that is not UTF-8 arrives as lone surrogates (surrogateescape), which no
    # socket can carry: sent as the pop-up would show it, U+FFFD, and cut as it would cut it
    # (a 60 KB name would not fit the socket's line).
    message = {"number": bounded(args.number), "display_name": bounded(args.name), "line": bounded(args.line),
               "state": args.state}
    if args.call_id:
        message["call_id"] = bounded(args.call_id)
    sent, problems = ring(message)
    for problem in problems:
        print(f"corpdir ring: {printable(problem)}", file=sys.stderr)
    if not sent:
        print("corpdir ring: no corpdir TUI of this user takes rings (a desk: a [calls] feed or ring_socket = true)",
              file=sys.stderr)
        return 1
    print(f"rang {sent} TUI{'s' if sent != 1 else ''}")
    return 0
