"""`corpdir lookup`: caller-ID by number, for people and for scripts or a PBX.

One line per number: NUMBER, name, company or division, type, id (tab-separated), or
``--json``. Exit 0 when all were found, 1 when some were not, 2 on an error. With
``--stdin`` each input line is answered as soon as it arrives and flushed, for a pipe.
Answers from the cache need only sqlite3 and phonenumbers; the service is contacted
only for numbers the cache cannot answer.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

HELP = "who is this number? (cache first, then the service)"
_FLAGS = ("--json", "--stdin", "--offline")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("numbers", nargs="*", metavar="NUMBER", help="phone numbers, written any way ('+81 3-1234-5678')")
    parser.add_argument("--json", action="store_true", help="one JSON object per number")
    parser.add_argument("--stdin", action="store_true", help="read numbers from standard input, answering each line at once")
    parser.add_argument("--base-url", help="the service (default: config file, CORPDIR_BASE_URL, else the embedded demo)")
    parser.add_argument("--offline", action="store_true", help="answer from the cache only")


def parse_plain(argv: list[str]) -> Any | None:
    """The arguments after ``lookup`` as argparse would parse them, for the plain command
    lines a PBX or a person types (numbers, the flags above spelt in full): argparse and
    building the parser cost ~5 ms of a ~10 ms lookup. None for anything else (``-h``,
    ``--``, abbreviations, a dash-led number, an error): corpdir.cli then asks argparse,
    so help and error messages are argparse's. A test holds the two together."""
    values: dict[str, Any] = {"base_url": None, "theme": None, "no_sync": False, "read_only": False,
                              "command": "lookup", "numbers": [], "json": False, "stdin": False, "offline": False}
    run_ended = False  # argparse takes the numbers as one run: '1 --json 2' is an error
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _FLAGS:
            values[arg[2:]] = True
        elif arg == "--base-url" and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            i += 1
            values["base_url"] = argv[i]
        elif arg.startswith("--base-url="):
            values["base_url"] = arg[len("--base-url="):]
        elif arg.startswith("-") or run_ended:
            return None
        else:
            values["numbers"].append(arg)
            if i + 1 < len(argv) and argv[i + 1].startswith("-"):
                run_ended = True
        i += 1
    return SimpleNamespace(**values)


def run(args: argparse.Namespace) -> int:
    from corpdir.commands import lookup_run

    return lookup_run.main(args)
