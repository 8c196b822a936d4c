"""Request routing generated from ``corpdir.spec.OPERATIONS``: one table, no hand-copied routes.

Only the operations of the served variant are in the table, so an absent operation's
path answers 404 and a known path with another method answers 405. Paths are served at
the root and under ``/v1`` (the version prefix of the contract's example base URL).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpdir.spec.operations import OPERATIONS, Operation
from corpdir.spec.variants import Variant

VERSION_PREFIX = "/v1"


@dataclass(frozen=True)
class Match:
    operation: Operation | None  # None: the path is known but not with this method
    path_params: dict[str, str]
    allowed: tuple[str, ...] = ()


class RouteTable:
    def __init__(self, variant: Variant) -> None:
        self.operations = [op for op in OPERATIONS.values() if variant.has(op.code)]
        # literal paths first: /contacts/business-cards is not /contacts/{contactId}, for
        # any method (a PATCH there is 405, not an edit of contact 'business-cards')
        ordered = sorted(self.operations, key=lambda op: op.path.count("{"))
        self._routes = [(self._compile(op.path), op) for op in ordered]

    @staticmethod
    def _compile(path: str) -> re.Pattern[str]:
        return re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path) + "/?$")

    def match(self, method: str, path: str) -> Match | None:
        if path.startswith(VERSION_PREFIX + "/"):
            path = path[len(VERSION_PREFIX):]
        allowed: list[str] = []
        shape = None  # the first (most literal) path that matches; others are not this resource
        for pattern, op in self._routes:
            if (m := pattern.match(path)) and shape in (None, op.path):
                shape = op.path
                if op.method == method:
                    return Match(op, m.groupdict())
                allowed.append(op.method)
        if allowed:
            return Match(None, {}, tuple(allowed))
        return None


_NONZERO_Q = re.compile(r"q=0\.\d*[1-9]")  # 'q=0.5' still accepts; 'q=0' and 'q=0.000' refuse


def accepts(header: str | None, produces: str) -> bool:
    """Whether an ``Accept`` header admits ``produces`` (a missing header admits anything)."""
    if not header or not header.strip():
        return True
    major = produces.split("/")[0]
    for part in header.split(","):
        media, _, params = part.strip().partition(";")
        media = media.strip().lower()
        if "q=0" in params.replace(" ", "") and not _NONZERO_Q.search(params):
            continue
        if media in ("*/*", f"{major}/*", produces):
            return True
    return False
