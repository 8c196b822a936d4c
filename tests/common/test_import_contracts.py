"""The architecture's import rules (pyproject.toml [tool.importlinter]) hold, and a breach fails.

architecture.md draws which package may import which; import-linter checks it. The suite
runs it so CI goes red on a broken rule, and plants one breach of each kind in a copy of
the tree to show the contracts are in force (a contract that cannot fail checks nothing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = shutil.which("lint-imports") or pytest.skip("lint-imports (import-linter, in the test extras) is not installed",
                                                   allow_module_level=True)


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root / "src"), "COLUMNS": "400"}  # one line per contract
    return subprocess.run([LINT, "--no-cache", "--no-logo", "--config", str(root / "pyproject.toml")],
                          cwd=root, env=env, capture_output=True, text=True, check=False)


def test_the_code_keeps_every_contract():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("spec/__init__.py", "import corpdir.service", "Dependencies point down"),
    ("client/errors.py", "import textual", "Nothing under spec, client, cache, service or server imports Textual"),
    ("server/__init__.py", "import corpdir.cache", "The server imports only the spec"),
    ("client/retry.py", "import corpdir.server", "The client never imports the server"),
    ("tui/labels.py", "import corpdir.cache.store", "Front ends reach the client and the cache only through the service"),
    ("gateway/answers.py", "import corpdir.client", "Front ends reach the client and the cache only through the service"),
    ("gateway/xml.py", "import textual", "The gateway (HTTP for PBXs and phones, LDAP sync) never imports Textual"),
    ("text.py", "import corpdir.service", "The shared modules"),
    ("calls/hub.py", "import corpdir.cache.store", "Front ends reach the client and the cache only through the service"),
    ("calls/events.py", "import textual.app", "The call feeds and dialers never import Textual"),
    ("calls/session.py", "import textual.widgets", "The call feeds and dialers never import Textual"),
    ("calls/session.py", "import corpdir.tui.widgets.ring_card", "The call feeds and dialers never import Textual"),
    # the calls sit between the front ends and the service
    ("calls/__init__.py", "import corpdir.gateway", "Dependencies point down"),
    ("service/__init__.py", "import corpdir.calls", "Dependencies point down"),
    # the server is a sibling of the cache and the client, reached by name only twice
    ("cache/blobs.py", "import corpdir.server", "Dependencies point down"),
    ("server/__init__.py", "import corpdir.gateway", "The server imports only the spec"),
    ("service/__init__.py", "import corpdir.server.demo", "The server is imported by name in two places only"),
    ("service/errors.py", "import corpdir.server", "The server is imported by name in two places only"),
    ("gateway/__init__.py", "import corpdir.server", "The server is imported by name in two places only"),
    ("commands/lookup.py", "import corpdir.server.app", "The server is imported by name in two places only"),
    ("cli.py", "import corpdir.cache", "Front ends reach the client and the cache only through the service"),
    # the shared modules import only each other (config's one named edge excepted)
    ("phone.py", "import corpdir.client", "The shared modules"),
    ("paths.py", "import corpdir.spec", "The shared modules"),
    ("division_path.py", "import corpdir.cache", "The shared modules"),
    ("config/__init__.py", "import corpdir.client.errors", "The shared modules"),
    ("tui/labels.py", "import corpdir.service.backend", "Front ends reach the client and the cache only through the service"),
    ("service/directory.py", "import sqlite3", "SQL lives only in the cache and the server's storage"),
    ("server/app.py", "import sqlite3", "SQL lives only in the cache and the server's storage"),
    ("service/connect.py", "import httpx", "HTTP lives only in the client and the dialers' one module"),
    ("calls/hub.py", "import httpx", "HTTP lives only in the client and the dialers' one module"),
])
def test_a_planted_breach_breaks_its_contract(tmp_path, module, line, contract):
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / "src" / "corpdir" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    result = lint(tmp_path)
    assert result.returncode != 0
    broken = [ln for ln in result.stdout.splitlines() if " BROKEN" in ln]
    assert any(ln.startswith(contract) for ln in broken), result.stdout
