"""The `corpdir` command line.

Each subcommand lives in ``corpdir.commands.<name>`` with ``HELP``, ``configure(parser)``
and ``run(args) -> int``. Those modules import nothing heavy at the top and load their
dependencies inside ``run``, so a fast command (``lookup``) never pays for Textual,
FastAPI or the demo generator. ``corpdir lookup ...`` goes to lookup's own small parser
(:func:`corpdir.commands.lookup.parse`); everything else to the parser below.
"""

from __future__ import annotations

import gc
import sys

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    import argparse

COMMANDS = ("lookup", "sync", "server", "ssh-server", "web", "bulk", "export", "gateway", "ldap-sync", "ring", "doctor")

# Every exit status of every command, written once: shown by --help and listed in README.
# 2 is also argparse's status for a command line it cannot parse.
EXIT_STATUS: dict[str, str] = {
    "": "0 the TUI was quit; 2 a bad command line or settings",
    "lookup": "0 every number found; 1 some not found; 2 an error (not a number, the service failed, no cache with "
              "--offline, a bad command line); 3 a number was withheld and every other was found; 141 the reader (head) closed the "
              "pipe early",
    "sync": "0 the cache is up to date; 2 the service failed or refused (the next sync resumes), or the cache cannot be "
            "opened",
    "server": "0 stopped; 2 the port is taken, the --data folder cannot be used, or the settings are bad",
    "ssh-server": "0 stopped; 2 the port is taken, or a key or setting is bad",
    "web": "0 stopped; 2 the port is taken or the settings are bad",
    "bulk": "0 sent (or, with --check, every row valid); 1 rows with problems, nothing sent; "
            "2 the service failed or refused, or the file cannot be read; 3 spots: the 5-minute window is not over; "
            "4 sent, but the service did not register or accept every row",
    "export": "0 written; 2 the service failed (on standard output: nothing written, or the output said to be "
              "incomplete), the file cannot be written, or a bad filter; 141 the reader (head) closed the pipe early",
    "gateway": "0 stopped; 2 the port is taken or the settings are bad",
    "ldap-sync": "0 the LDAP tree matches the cache; 2 the LDAP server or the cache failed",
    "ring": "0 rang at least one running TUI; 1 no TUI of this user takes rings (none runs, or none is a desk)",
    "doctor": "0 no call waits and none was refused; 1 calls or messages wait to be sent, or records were refused; "
              "2 the call queue cannot be read or the settings are bad",
}


def _exit_text(name: str) -> str:
    return "exit status: " + EXIT_STATUS[name]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that subcommand is configured (a command line that
    names one needs no other: configuring them all costs every command ~15 ms)."""
    import argparse
    from importlib import import_module

    from corpdir.commands import tui

    from importlib.metadata import version

    parser = argparse.ArgumentParser(
        prog="corpdir",
        description="Corporate phone directory: TUI, caller-ID lookup and reference service. "
        "Without a COMMAND the TUI starts (on the embedded demo tenant when no service is configured).",
        epilog=_exit_text("") + " (each COMMAND's --help lists its own). The TUI logs to "
        "<state dir>/logs/<profile>.log (~/.local/state/corpdir unless CORPDIR_STATE_DIR; `corpdir doctor` prints it).",
    )
    parser.add_argument("--version", action="version", version=f"corpdir {version('corpdir')}",
                        help="print corpdir's version and exit")
    tui.configure(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only else COMMANDS:
        module = import_module(f"corpdir.commands.{name.replace('-', '_')}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(command)
        command.epilog = f"{command.epilog}\n\n{_exit_text(name)}" if command.epilog else _exit_text(name)
    return parser


def parse_args(argv: list[str]) -> argparse.Namespace:
    if argv[:1] == ["lookup"]:
        from corpdir.commands import lookup

        return lookup.parse(argv[1:])
    if not any(arg in COMMANDS or arg.startswith(("-h", "--h")) for arg in argv):
        tui_args = tui_parser(argv)  # the TUI, the common case: no command's parser is needed
        if tui_args is not None:
            return tui_args
    return build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)


def tui_parser(argv: list[str]) -> argparse.Namespace | None:
    """The TUI's flags alone, or None when ``argv`` holds anything else (the whole parser
    then says what is wrong): configuring every command's parser, and importing each
    command's module for it, cost the TUI's start ~20 ms, and each SSH session's app too."""
    import argparse

    from corpdir.commands import tui

    parser = argparse.ArgumentParser(prog="corpdir", add_help=False, exit_on_error=False)
    tui.configure(parser)
    try:
        args, rest = parser.parse_known_args(argv)
    except argparse.ArgumentError:
        return None
    if rest:
        return None
    args.command = None
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.command == "lookup":  # by name: importlib's package is ~2 M instructions of a lookup's start
        from corpdir.commands import lookup as module
    else:
        from importlib import import_module

        module = import_module(f"corpdir.commands.{(args.command or 'tui').replace('-', '_')}")
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:  # Ctrl+C: what was being written is already removed (an export's file)
        print(f"corpdir{' ' + args.command if args.command else ''}: interrupted", file=sys.stderr)
        return 130  # 128 + SIGINT: what a shell reports for a tool Ctrl+C ended
    except BrokenPipeError:  # `| head` has read enough: stop quietly, as other Unix tools do
        _silence_stdout()
        return 141  # 128 + SIGPIPE: what a shell reports for a tool that a closed pipe ended
    except ValueError as exc:  # corpdir.paths is imported here, not at the top: `corpdir lookup` starts without it
        from corpdir.paths import SettingsError, config_path

        if not isinstance(exc, SettingsError):
            raise
        print(f"corpdir: the configuration is not usable ({config_path()}, CORPDIR_*):\n{exc}", file=sys.stderr)
        return 2


def _silence_stdout() -> None:
    """Standard output's file descriptor pointed at /dev/null: what it still buffers would
    otherwise fail again (a second traceback) when the interpreter flushes it on exit."""
    import os

    try:
        fileno = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file (a test's capture): nothing is flushed at exit
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


def run() -> None:
    """The `corpdir` command: :func:`main`, then exit with its code. The heap is about to
    go back to the operating system: frozen, the interpreter's shutdown skips collecting
    it (0.11-0.15 s after a 10k sync, bench/sync_bench.py; in-process callers of main, the
    tests, keep collecting). Nothing is left to a collection: every command closes what it
    opened (the sync its service and cache) before it returns, so frozen objects in cycles
    hold no unflushed file or unclosed database."""
    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
