"""The body of `corpdir lookup` (kept out of the parser module so `--help` stays instant)."""

from __future__ import annotations

import sys

from corpdir.service.identify import Identity
from corpdir.service.lookup_path import LookupPath
from corpdir.text import json_text, printable

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    import argparse
    from typing import Any, TextIO

EXIT_FOUND, EXIT_SOME_MISSING, EXIT_ERROR, EXIT_WITHHELD = 0, 1, 2, 3


def format_line(answer: Identity) -> str:
    """NUMBER, who, where they belong, kind, ref: five tab-separated columns for every
    answer, so a script can cut the same column whether the number was found or not.
    Nobody: ``-``, ``not found``, ``unknown``; a failure: ``-``, ``error: ...``, ``unknown``;
    withheld: ``withheld``, ``-``, ``withheld``; the record column is ``-`` for all three."""
    if answer.error and not answer.found:
        return f"{printable(answer.query)}\t-\terror: {printable(answer.error)}\t{answer.kind}\t-"
    if not answer.found:
        where = "-" if answer.kind == "withheld" else "not found"
        return f"{printable(answer.query)}\t{answer.who or '-'}\t{where}\t{answer.kind}\t-"
    org = answer.organisation() or "-"
    if answer.shared:
        org += f" · shared by {answer.count}"
    return "\t".join([printable(answer.query), printable(answer.who or "-"), printable(org), answer.kind, answer.ref or "-"])


def item(answer: Identity) -> dict[str, Any]:
    """The answer in N1's shape, with the division as a path a script can use without
    splitting text: ``divisionNames`` the names from the top (the person's first
    division), ``divisionPath`` the same joined, ``divisionPaths`` each of their divisions joined."""
    return {**answer.item(), "divisionNames": list(answer.division), "divisionPath": answer.division_path,
            "divisionPaths": list(answer.paths) if answer.kind == "person" else [answer.division_path] if answer.division else []}


def format_json(answer: Identity, age: float | None = None, stale: bool = False) -> str:
    """One JSON object; ``cacheAge`` (seconds since the cache that gave the answer was
    synced) and ``stale`` are set on answers from the cache, null and false otherwise."""
    from_cache = answer.source == "cache" and age is not None
    return json_text({**answer.as_dict(), "cacheAge": round(age) if from_cache else None, "stale": from_cache and stale,
                      "items": [item(answer)] if answer.found else []})


def age_text(seconds: float) -> str:
    """'20 minutes', '3 hours', '2 days': how old a cache is, as a person says it."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{int(seconds)} seconds"


class Output:
    """Writes answers; says once on stderr, when the first answer from a stale cache is
    written, how old the cache is (stdout keeps its fixed columns for scripts)."""

    def __init__(self, lookup: LookupPath, as_json: bool, out: TextIO) -> None:
        self.lookup, self.as_json, self.out = lookup, as_json, out
        self.warned = False

    def __call__(self, answers: list[Identity]) -> None:
        stale = self.lookup.stale
        for answer in answers:
            self.out.write((format_json(answer, self.lookup.age, stale) if self.as_json else format_line(answer)) + "\n")
        self.out.flush()
        if stale and not self.warned and any(a.source == "cache" for a in answers):
            self.warned = True
            print(f"corpdir lookup: answered from the cache synced {age_text(self.lookup.age or 0)} ago "
                  "(`corpdir sync` updates it; --fresh asks the service)", file=sys.stderr, flush=True)


def exit_status(answers: list[Identity]) -> int:
    if any(a.error for a in answers):
        return EXIT_ERROR
    if any(not a.found and a.kind != "withheld" for a in answers):
        return EXIT_SOME_MISSING
    return EXIT_WITHHELD if any(a.kind == "withheld" for a in answers) else EXIT_FOUND


def main(args: argparse.Namespace, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    out, inp = out or sys.stdout, inp or sys.stdin
    if not args.numbers and not args.stdin:
        print("corpdir lookup: give one or more numbers, or --stdin", file=sys.stderr)
        return EXIT_ERROR
    answers: list[Identity] = []
    try:
        lookup = LookupPath(args.base_url, offline=args.offline, fresh=args.fresh)
        try:
            if args.offline and not lookup.has_cache:
                damage = lookup.damage()
                print(f"corpdir lookup: the cache {lookup.cache_file} cannot be read ({damage}): `corpdir sync` sets it "
                      "aside and fills a new one; or leave out --offline" if damage else
                      "corpdir lookup: there is no cache for this service yet: run `corpdir sync`, "
                      "or leave out --offline", file=sys.stderr)
                return EXIT_ERROR
            emit = Output(lookup, args.json, out)
            if args.numbers:
                answers += lookup(args.numbers)
                emit(answers)
            if args.stdin:
                for line in inp:  # one number a line (it may hold spaces); answered at once
                    if number := line.strip():
                        answer = lookup([number])
                        emit(answer)
                        answers += answer
        finally:
            lookup.close()
    except (OSError, ValueError) as exc:
        if isinstance(exc, BrokenPipeError):  # `| head` has read enough: corpdir.cli stops quietly
            raise
        print(f"corpdir lookup: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return exit_status(answers)
