"""The body of `corpdir lookup` (kept out of the parser module so `--help` stays instant)."""

from __future__ import annotations

import sys

from corpdir.service.identify import Identity
from corpdir.service.lookup_path import LookupPath
from corpdir.text import json_text, printable

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    import argparse
    from typing import TextIO

EXIT_FOUND, EXIT_SOME_MISSING, EXIT_ERROR = 0, 1, 2


def format_line(answer: Identity) -> str:
    """NUMBER, who, where they belong, kind, ref: the answer's fields, tab-separated."""
    if answer.error and not answer.found:
        return f"{printable(answer.query)}\t-\terror: {printable(answer.error)}"
    if not answer.found:
        return f"{printable(answer.query)}\t{answer.who or '-'}\t{'-' if answer.kind == 'withheld' else 'not found'}"
    org = answer.organisation() or "-"
    if answer.shared:
        org += f" · shared by {answer.count}"
    return "\t".join([printable(answer.query), printable(answer.who or "-"), printable(org), answer.kind, answer.ref or "-"])


def format_json(answer: Identity) -> str:
    return json_text({**answer.as_dict(), "items": [answer.item()] if answer.found else []})


def _emit(answers: list[Identity], as_json: bool, out: TextIO) -> None:
    for answer in answers:
        out.write((format_json(answer) if as_json else format_line(answer)) + "\n")
    out.flush()


def main(args: argparse.Namespace, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    out, inp = out or sys.stdout, inp or sys.stdin
    if not args.numbers and not args.stdin:
        print("corpdir lookup: give one or more numbers, or --stdin", file=sys.stderr)
        return EXIT_ERROR
    answers: list[Identity] = []
    try:
        lookup = LookupPath(args.base_url, offline=args.offline)
        try:
            if args.numbers:
                answers += lookup(args.numbers)
                _emit(answers, args.json, out)
            if args.stdin:
                for line in inp:  # one number a line (it may hold spaces); answered at once
                    if number := line.strip():
                        answer = lookup([number])
                        _emit(answer, args.json, out)
                        answers += answer
        finally:
            lookup.close()
    except (OSError, ValueError) as exc:
        print(f"corpdir lookup: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if any(a.error for a in answers):
        return EXIT_ERROR
    return EXIT_FOUND if all(a.found for a in answers) else EXIT_SOME_MISSING
