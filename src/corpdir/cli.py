"""The `corpdir` command line.

Each subcommand lives in ``corpdir.commands.<name>`` with ``HELP``, ``configure(parser)``
and ``run(args) -> int``. Those modules import nothing heavy at the top and load their
dependencies inside ``run``, so a fast command (``lookup``) never pays for Textual,
FastAPI or the demo generator. ``corpdir lookup ...`` goes to lookup's own small parser
(:func:`corpdir.commands.lookup.parse`); everything else to the parser below.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

COMMANDS = ("lookup", "sync", "server", "ssh-server", "web", "bulk", "export", "gateway", "ldap-sync", "ring")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that subcommand is configured (a command line that
    names one needs no other: configuring them all costs every command ~15 ms)."""
    import argparse

    from corpdir.commands import tui

    parser = argparse.ArgumentParser(
        prog="corpdir",
        description="Corporate phone directory: TUI, caller-ID lookup and reference service. "
        "Without a COMMAND the TUI starts (on the embedded demo tenant when no service is configured).",
    )
    tui.configure(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only else COMMANDS:
        module = import_module(f"corpdir.commands.{name.replace('-', '_')}")
        module.configure(sub.add_parser(name, help=module.HELP, description=module.HELP))
    return parser


def parse_args(argv: list[str]) -> argparse.Namespace:
    if argv[:1] == ["lookup"]:
        from corpdir.commands import lookup

        return lookup.parse(argv[1:])
    return build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.command is None:
        from corpdir.commands import tui

        return int(tui.run(args) or 0)
    module = import_module(f"corpdir.commands.{args.command.replace('-', '_')}")
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
