"""`corpdir lookup`: caller-ID by number, for people and for scripts or a PBX.

One line per number: NUMBER, name, company or division, type, id (five tab-separated
columns, found or not), or ``--json``. Exit statuses: :data:`corpdir.cli.EXIT_STATUS`.
With ``--stdin`` each input line is answered as soon as it arrives and flushed, for a
pipe. The cache answers at once however old it is (its age is said); the service is
contacted only for numbers the cache cannot answer, or for all with ``--fresh``.
"""

from __future__ import annotations

import argparse
from functools import partial

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Callable

HELP = "who is this number? (cache first, then the service)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("numbers", nargs="*", metavar="NUMBER", help="phone numbers, written any way ('+81 3-1234-5678')")
    parser.add_argument("--json", action="store_true", help="one JSON object per number")
    parser.add_argument("--stdin", action="store_true", help="read numbers from standard input, answering each line at once")
    parser.add_argument("--base-url", help="the service (default: config file, CORPDIR_BASE_URL, else the embedded demo)")
    parser.add_argument("--offline", action="store_true", help="answer from the cache only (exit 2 when there is none yet)")
    parser.add_argument("--fresh", action="store_true",
                        help="ask the service about every number, even one the cache knows (it is asked only on a miss otherwise)")


def _formatter(argv: list[str]) -> Callable[[str], argparse.HelpFormatter]:
    """argparse's help formatter, sized to the terminal only when help is asked for.
    argparse builds a formatter for every ``add_argument`` (to check the metavar), and
    sizing it imports shutil: ~7 M instructions of a ~145 M lookup. Usage lines in error
    messages are then wrapped at 78 columns."""
    if any(arg.startswith(("-h", "--h")) for arg in argv):
        return argparse.HelpFormatter
    return partial(argparse.HelpFormatter, width=78)


def parse(argv: list[str]) -> argparse.Namespace:
    """``corpdir lookup ARGS`` by a parser of its own: a PBX runs this once per call, and
    the whole `corpdir` parser (every subcommand's options, the TUI's flags) is not
    needed to read a few numbers. Help and errors name ``corpdir lookup``."""
    from corpdir.cli import EXIT_STATUS

    parser = argparse.ArgumentParser(prog="corpdir lookup", description=HELP, epilog="exit status: " + EXIT_STATUS["lookup"],
                                     formatter_class=_formatter(argv))
    configure(parser)
    args = parser.parse_args(argv)
    args.command = "lookup"
    return args


def run(args: argparse.Namespace) -> int:
    from corpdir.commands import lookup_run

    return lookup_run.main(args)
