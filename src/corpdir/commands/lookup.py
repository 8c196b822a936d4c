"""`corpdir lookup`: caller-ID by number, for people and for scripts or a PBX.

One line per number: NUMBER, name, company or division, type, id (five tab-separated
columns, found or not), or ``--json``. Exit statuses: :data:`corpdir.cli.EXIT_STATUS`.
With ``--stdin`` each input line is answered as soon as it arrives and flushed, for a
pipe. The cache answers at once however old it is (its age is said); the service is
contacted only for numbers the cache cannot answer, or for all with ``--fresh``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    import argparse
    from typing import Any, Callable

HELP = "who is this number? (cache first, then the service)"


def configure(parser: argparse.ArgumentParser) -> None:
    from corpdir.commands.service_run import add_base_url

    parser.add_argument("numbers", nargs="*", metavar="NUMBER", help="phone numbers, written any way ('+81 3-1234-5678')")
    parser.add_argument("--json", action="store_true", help="one JSON object per number")
    parser.add_argument("--stdin", action="store_true", help="read numbers from standard input, answering each line at once")
    add_base_url(parser)
    parser.add_argument("--offline", action="store_true", help="answer from the cache only (exit 2 when there is none yet)")
    parser.add_argument("--fresh", action="store_true",
                        help="ask the service about every number, even one the cache knows (it is asked only on a miss otherwise)")


def _formatter(argv: list[str]) -> Callable[[str], argparse.HelpFormatter]:
    """argparse's help formatter, sized to the terminal only when help is asked for.
    argparse builds a formatter for every ``add_argument`` (to check the metavar), and
    sizing it imports shutil: ~7 M instructions of a ~145 M lookup. Usage lines in error
    messages are then wrapped at 78 columns."""
    import argparse
    from functools import partial

    if any(arg.startswith(("-h", "--h")) for arg in argv):
        return argparse.HelpFormatter
    return partial(argparse.HelpFormatter, width=78)


_FLAGS = {"--json": "json", "--stdin": "stdin", "--offline": "offline", "--fresh": "fresh"}


class Args:
    """The parsed command line, as ``argparse.Namespace`` would hold it (attribute access)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def parse_plain(argv: list[str]) -> Args | None:
    """The command lines a PBX or a script writes (numbers, the flags spelled in full,
    ``--base-url URL``) read without argparse, as argparse reads them; None for anything
    else (help, an abbreviation, an unknown option, a dash-led word), which argparse then
    reads, with its errors and help. argparse and the gettext and ``locale`` its messages
    bring cost a cache hit ~14 M instructions of ~140 M (docs/performance.md); a test holds
    the two readings together."""
    values: dict[str, Any] = {"numbers": [], "json": False, "stdin": False, "base_url": None, "offline": False,
                              "fresh": False}
    words = iter(argv)
    numbers_ended = False  # argparse takes the numbers as one run: a number after a later option is its error
    for word in words:
        if not word.startswith("-"):
            if numbers_ended:
                return None
            values["numbers"].append(word)
            continue
        numbers_ended = bool(values["numbers"])
        if word in _FLAGS:
            values[_FLAGS[word]] = True
        elif word == "--base-url":
            url = next(words, None)
            if url is None or url.startswith("-"):
                return None
            values["base_url"] = url
        elif word.startswith("--base-url=") and len(word) > len("--base-url="):
            values["base_url"] = word[len("--base-url="):]
        else:
            return None
    return Args(command="lookup", **values)


def parse(argv: list[str]) -> argparse.Namespace | Args:
    """``corpdir lookup ARGS`` by a parser of its own: a PBX runs this once per call, and
    the whole `corpdir` parser (every subcommand's options, the TUI's flags) is not
    needed to read a few numbers. Help and errors name ``corpdir lookup``."""
    plain = parse_plain(argv)
    return plain if plain is not None else parse_with_argparse(argv)


def parse_with_argparse(argv: list[str]) -> argparse.Namespace:
    """What :func:`parse_plain` leaves: argparse's reading, help and errors."""
    import argparse

    from corpdir.cli import EXIT_STATUS

    parser = argparse.ArgumentParser(prog="corpdir lookup", description=HELP, epilog="exit status: " + EXIT_STATUS["lookup"],
                                     formatter_class=_formatter(argv))
    configure(parser)
    parser.set_defaults(base_url=None)  # its own parser: no `corpdir --base-url` before it to keep
    args = parser.parse_args(argv)
    args.command = "lookup"
    return args


def run(args: argparse.Namespace) -> int:
    from corpdir.commands import lookup_run

    return lookup_run.main(args)
