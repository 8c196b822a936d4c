"""docs/architecture.md stays the picture of the code: it names every import contract the
project keeps and every package and top-level module of src/corpdir, and the README links
to it rather than to a path outside the repository."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_import_contract_is_named_in_the_architecture_page():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    missing = [c["id"] for c in contracts if f"`{c['id']}`" not in DOC]
    assert not missing, f"docs/architecture.md does not name the contracts {missing}"


def test_every_package_and_shared_module_is_in_the_layout():
    src = ROOT / "src" / "corpdir"
    names = [p.name + "/" for p in src.iterdir() if (p / "__init__.py").is_file()]
    names += [p.name for p in src.glob("*.py") if p.name != "__init__.py"]
    layout = DOC.split("## Layout", 1)[1].split("## ", 1)[0]
    missing = [n for n in names if not re.search(rf"(?<![\w.]){re.escape(n)}", layout)]
    assert not missing, f"docs/architecture.md's layout leaves out {missing}"


def test_the_readme_and_docs_link_only_inside_the_repository():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    outside = [f"{p.name}: {m}" for p in pages for m in re.findall(r"[`(]((?:\.\./|/work/)[^`)\s]*)", p.read_text(encoding="utf-8"))]
    assert not outside
    assert "(docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
