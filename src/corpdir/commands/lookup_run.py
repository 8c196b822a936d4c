"""The body of `corpdir lookup` (kept out of the parser module so `--help` stays instant)."""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Any, TextIO

from corpdir.paths import Profile, resolve_profile, service_value
from corpdir.cache import numbers
from corpdir.service.callerid import Answer, CallerId, cache_age, open_cache
from corpdir.text import json_text, printable

if TYPE_CHECKING:
    import argparse

EXIT_FOUND, EXIT_SOME_MISSING, EXIT_ERROR = 0, 1, 2


def format_line(answer: Answer) -> str:
    if answer.error and not answer.found:
        return f"{printable(answer.query)}\t-\terror: {printable(answer.error)}"
    if not answer.found:
        return f"{printable(answer.query)}\t-\tnot found"
    item = answer.items[0]
    org = item.get("companyName") or ", ".join(item.get("divisionNames") or []) or "-"
    ident = f"user:{item['userId']}" if item.get("userId") else f"contact:{item['contactId']}" if item.get("contactId") else "-"
    more = f"\t(+{len(answer.items) - 1} more)" if len(answer.items) > 1 else ""
    return "\t".join([printable(answer.query), printable(item.get("displayName") or "-"), printable(org),
                      printable(item.get("phoneNumContactType") or "-"), ident]) + more


def format_json(answer: Answer) -> str:
    return json_text({"query": answer.query, "found": answer.found, "source": answer.source or None,
                      "error": answer.error, "items": answer.items})


class _Service:
    """The API client, built only when the cache cannot answer."""

    def __init__(self, base_url: str | None) -> None:
        self.base_url = base_url
        self.client: Any = None

    async def identify(self, numbers: list[str]) -> list[dict[str, Any]]:
        if self.client is None:
            from corpdir.config import load_settings
            from corpdir.service.connect import open_client

            settings, _ = load_settings(base_url=self.base_url)
            self.client = open_client(settings)
        result = await self.client.identify_numbers(numbers)
        return [item.model_dump(mode="json") for item in result.items]

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()


def _settings_light(base_url: str | None) -> tuple[Profile, str, float]:
    """(profile, region, stale_after) without building the full settings when possible."""
    region = service_value("region", "JP")
    stale = float(service_value("stale_after", 15 * 60))
    profile = resolve_profile(base_url)
    if profile is None:  # the key is in the keyring: only the full settings can read it
        from corpdir.config import load_settings

        settings, _ = load_settings(base_url=base_url)
        profile = settings.profile()
    return profile, region, stale


def _emit(answers: list[Answer], as_json: bool, out: TextIO) -> None:
    for answer in answers:
        out.write((format_json(answer) if as_json else format_line(answer)) + "\n")
    out.flush()


class _Lookup:
    """Answers from the cache right away; an event loop and the API client are started
    only for the first number the cache cannot answer (then kept for the next lines)."""

    def __init__(self, args: argparse.Namespace) -> None:
        profile, region, stale = _settings_light(args.base_url)
        conn = open_cache(profile.cache_path())
        if conn is not None:
            numbers.prime_region_rules(conn, region)
        cache_lookup = functools.partial(numbers.identify, conn, region=region) if conn is not None else None
        self.service = _Service(args.base_url)
        self.caller = CallerId(cache_lookup, None if args.offline else self.service.identify, cache_age=cache_age(conn),
                               region=region, stale_after=stale)
        self._loop: Any = None

    def __call__(self, queries: list[str]) -> list[Answer]:
        answers = self.caller.cached(queries)
        if ask := self.caller.to_ask(answers):
            if self._loop is None:
                import asyncio

                self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self.caller.ask_service(ask))
        return answers

    def close(self) -> None:
        if self._loop is not None:
            self._loop.run_until_complete(self.service.close())
            self._loop.close()


def main(args: argparse.Namespace, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    out, inp = out or sys.stdout, inp or sys.stdin
    if not args.numbers and not args.stdin:
        print("corpdir lookup: give one or more numbers, or --stdin", file=sys.stderr)
        return EXIT_ERROR
    answers: list[Answer] = []
    try:
        lookup = _Lookup(args)
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
