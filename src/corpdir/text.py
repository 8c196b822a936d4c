"""Data from the service is text: it is shown, never interpreted.

A name may hold ESC or OSC sequences, a newline, or a BEL; on a terminal those would move
the cursor, retitle the window or break a one-line-per-number protocol. ``printable``
replaces every control character (C0, DEL, C1) with a visible stand-in. Rich markup is
handled at the UI layer by building ``rich.text.Text`` objects, never markup strings.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_NEWLINE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def printable(value: object, *, keep_newlines: bool = False) -> str:
    """``value`` as inert text: control characters become U+FFFD (newlines too, unless
    ``keep_newlines``, so a name stays one line)."""
    pattern = _CONTROL_BUT_NEWLINE if keep_newlines else _CONTROL
    return pattern.sub(REPLACEMENT, "" if value is None else str(value))
