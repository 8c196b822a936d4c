"""The rules import-linter cannot see, read from the source itself.

A front end that imports only the facade could still reach around it through an attribute
(``self.service.cache.run(...)``, ``service.client.list_users()``): no import shows that.
And SQL could be written anywhere a connection is passed to, without importing sqlite3.
Each check walks the source tree, and is also fed a planted breach to show it can fail.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "corpdir"
FRONT_ENDS = ("tui", "commands", "ssh", "gateway", "calls")
# what the facade keeps to itself: its store and client, and the backend that holds them
INSIDE = {"cache", "store", "client", "_cache", "_store", "_client", "_backend"}
# SQL may be written only where SQLite is: the cache, the server's storage, the shared
# transaction helper.
SQL_HOMES = ("cache/", "server/storage/", "sqlite.py")
SQL = re.compile(r"\s*(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|"
                 r"CREATE\s+(TABLE|INDEX|VIRTUAL|TRIGGER|UNIQUE)\s|DROP\s+(TABLE|INDEX)\s|PRAGMA\s|"
                 r"BEGIN(\s|$)|COMMIT$|ROLLBACK$|WITH\s+RECURSIVE\s)")


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


def sql_text(source: str) -> list[str]:
    """The string literals (f-strings by their first part) in ``source`` that are SQL."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            text = str(node.values[0].value)
        if text is not None and SQL.match(text):
            found[node.lineno] = f"line {node.lineno}: {text.strip()[:40]!r}"  # an f-string and its first part: once
    return list(found.values())


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


def test_sql_is_written_only_in_the_cache_and_the_servers_storage():
    breaches = {}
    for path in _modules():
        name = path.relative_to(SRC).as_posix()
        if name.startswith(SQL_HOMES):
            continue
        if hits := sql_text(path.read_text(encoding="utf-8")):
            breaches[name] = hits
    assert breaches == {}


@pytest.mark.parametrize("line", [
    'rows = conn.execute("SELECT data FROM users WHERE id = ?", (1,))',
    'conn.execute(f"DELETE FROM {table} WHERE id = ?", (1,))',
    'conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", pair)',
    'conn.execute("BEGIN IMMEDIATE")',
])
def test_planted_sql_is_found(line):
    assert sql_text(f"def f(conn, table, pair):\n    {line}\n")


def test_words_that_only_look_like_sql_are_not_sql():
    assert sql_text('note = "Delete the photo of someone?"\nhelp = "Select a division"\n') == []
