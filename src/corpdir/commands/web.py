"""`corpdir web`: the TUI in a browser (textual-serve), read-only unless told otherwise.

textual-serve has no authentication: it listens on 127.0.0.1 by default, and anything
wider belongs behind an authenticating reverse proxy (see README). What it lacks against
other pages in the same browser (a token, Origin and Host checks, a session cap) is added
by `web_guard.GuardedServer`.
"""

from __future__ import annotations

import argparse

from corpdir.commands.arg_types import at_least_one, port

HELP = "serve the TUI to a browser (textual-serve; no authentication: 127.0.0.1 unless --host)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; put an authenticating proxy in front of anything else)")
    parser.add_argument("--port", type=port, default=8000, help="port (default 8000)")
    parser.add_argument("--public-url", help="the URL the browser uses, when behind a proxy (default http://HOST:PORT)")
    parser.add_argument("--allow-writes", action="store_true", help="serve the full app, not the read-only kiosk")
    parser.add_argument("--max-sessions", type=at_least_one, default=8, metavar="N",
                        help="at most N browser sessions (app processes) at once; one more is refused (default 8)")


def app_command(allow_writes: bool = False) -> str:
    """The shell command textual-serve starts for each browser tab."""
    import shlex
    import sys

    return " ".join([shlex.quote(sys.executable), "-m", "corpdir.cli", *([] if allow_writes else ["--read-only"])])


def run(args: argparse.Namespace) -> int:
    import sys

    from corpdir.commands.web_guard import GuardedServer

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"corpdir web: listening on {args.host} without authentication; put an authenticating proxy in front.",
              file=sys.stderr)
    server = GuardedServer(app_command(args.allow_writes), host=args.host, port=args.port,
                           public_url=args.public_url, max_sessions=args.max_sessions)
    try:
        server.serve()
    except OSError as exc:  # the port taken, a host not this machine's: said plainly, not a traceback
        from corpdir.commands.server import why_not_listening

        if (why := why_not_listening(exc)) is None:
            raise
        print(f"corpdir web: cannot listen on {args.host}:{args.port}: {why}", file=sys.stderr)
        return 2
    return 0
