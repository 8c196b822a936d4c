"""The settings `corpdir gateway --help` and the README tell people to type are URLs this
gateway answers (a typo there is a PBX that never shows a name)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from corpdir.commands.gateway import SETUP
from corpdir.phone import digits

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
_URL = re.compile(r"BASE(/[A-Za-z0-9_./]+)(\?[^\s`'\"<)]*)?")


def _paths(text: str) -> set[str]:
    """BASE/... URLs, with each PBX's number variable written NUMBER."""
    text = re.sub(r"\$\{CALLERID\(num\)\}|\$\{caller_id_number\}|\$thenumber|\[NUMBER\]", "NUMBER", text)
    return {m.group(1) + (m.group(2) or "") for m in _URL.finditer(text)}


def test_every_url_in_the_help_and_readme_answers(gateway):
    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=100)) if u.phoneNum)
    number = digits(user.phoneNum)
    paths = _paths(SETUP) | _paths(README)
    assert {"/cid", "/cid.kv", "/cid.json", "/3cx.xml", "/yealink/directory.xml", "/cisco/directory.xml"} <= {
        p.split("?")[0] for p in paths}
    for path in paths:
        url = gateway.base + path.replace("NUMBER", number)
        answer = gateway.get(url)
        assert answer.status_code == 200, (path, answer.status_code)
        if path.startswith("/cid") and "ascii=1" not in path:
            assert user.fullname in unquote(answer.text), path
    assert "[NUMBER]" in SETUP and "Path: t/TOKEN/cid" in SETUP  # FreePBX builds http://host:port/PATH?number=...
    assert "$thenumber&ascii=1" in SETUP and "required" in SETUP  # Superfecta garbles every Japanese name without it
