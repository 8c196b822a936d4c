"""README's key table is the bindings' own list (corpdir.tui.screens.help_keys, the same
rows the `?` screen shows): a key added, changed or removed in the code and not in README
fails here. ``python tests/tui/test_readme_keys.py`` writes the table again."""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
START, END = "<!-- keys: generated from the bindings -->\n", "<!-- /keys -->"


def readme_table(text: str) -> str:
    return text[text.index(START) + len(START):text.index(END)]


def generated() -> str:
    from corpdir.tui.screens.help_keys import markdown_table, readme_places

    return markdown_table(readme_places())


def test_readme_key_table_equals_the_bindings():
    assert readme_table(README.read_text(encoding="utf-8")) == generated(), \
        "README's key table differs from the bindings: run `python tests/tui/test_readme_keys.py`"


def test_the_table_names_the_keys_a_new_desk_looks_for():
    rows = readme_table(README.read_text(encoding="utf-8"))
    for key, what in (("F5", "Call"), ("F8", "Favourites & recent"), ("F9", "Ringing call"), ("?", "Help"),
                      ("Tab", "Next part: search box, tree")):
        assert re.search(rf"^\| `{re.escape(key)}` \| anywhere \| {re.escape(what)}", rows, re.M), key
    bulk = next(line for line in rows.splitlines() if "Bulk" in line)
    assert "contacts" not in bulk  # b does nothing on the Contacts screen


def test_readme_links_only_to_files_in_the_repository():
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)]+)\)", text):
        if not re.match(r"[a-z]+://", target):
            assert not target.startswith(("../", "/")) and (README.parent / target.split("#")[0]).exists(), target


if __name__ == "__main__":
    text = README.read_text(encoding="utf-8")
    README.write_text(text.replace(readme_table(text), generated()), encoding="utf-8")
    sys.exit(0)
