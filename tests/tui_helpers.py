"""What a person sees: the screen's text, taken from Textual's own SVG export."""

from __future__ import annotations

import html
import re

_TEXT = re.compile(r"<text[^>]*>(.*?)</text>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def screen_text(app) -> str:
    """All visible text of the app's screen (rows joined; spacing collapsed)."""
    svg = app.export_screenshot()
    parts = [html.unescape(_TAGS.sub("", m)) for m in _TEXT.findall(svg)]
    return re.sub(r"[ \u00a0]+", " ", "".join(parts))


async def wait_for(pilot, predicate, tries: int = 150, delay: float = 0.02) -> bool:
    """Let workers run until ``predicate()`` holds (bounded: no wall-clock assertion)."""
    for _ in range(tries):
        await pilot.pause(delay)
        if predicate():
            return True
    return bool(predicate())
