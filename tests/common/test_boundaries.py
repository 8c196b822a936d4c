"""The rules import-linter cannot see, read from the source itself.

A front end that imports only the facade could still reach around it through an attribute
(``self.service.cache.run(...)``, ``service.client.list_users()``): no import shows that.
The check walks the source tree, and is also fed a planted breach to show it can fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "corpdir"
FRONT_ENDS = ("tui", "commands", "ssh", "gateway", "calls")
# what the facade keeps to itself: its store and client, and the backend that holds them
INSIDE = {"cache", "store", "client", "_cache", "_store", "_client", "_backend"}


def _is_service(node: ast.expr) -> bool:
    """``service``, ``svc``, ``self.service``, ``self.app.service`` ...: the facade."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name.endswith("service") or name == "svc"


def reaches_inside(source: str) -> list[str]:
    """Each ``<service>.cache`` / ``.store`` / ``.client`` (or their private names) in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in INSIDE and _is_service(node.value):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "backend_of":
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _modules(*packages: str) -> list[Path]:
    roots = [SRC / p for p in packages] if packages else [SRC]
    return sorted(path for root in roots for path in root.rglob("*.py"))


def test_no_front_end_reaches_the_cache_or_the_client_through_the_service():
    breaches = {str(path.relative_to(SRC)): hits for path in _modules(*FRONT_ENDS)
                if (hits := reaches_inside(path.read_text(encoding="utf-8")))}
    assert breaches == {}


@pytest.mark.parametrize("line", [
    'age = await self.service.cache.run(self.service.synced_age, "users")',
    "count = app.service.store.count_users()",
    "page = await service.client.list_users()",
    "rows = self.app.service._backend.store.users([1])",
    "store = backend_of(self.service).store",
])
def test_a_planted_reach_around_the_facade_is_found(line):
    assert reaches_inside(f"async def f(self, app, service):\n    {line}\n")


def test_a_front_ends_own_client_or_cache_attribute_is_not_the_facades():
    """The gateway's HTTP server has a ``request.client`` (the peer's address): not the service's."""
    assert reaches_inside("peer = request.client\nself.client = address\nwidth = self.cache_size\n") == []
