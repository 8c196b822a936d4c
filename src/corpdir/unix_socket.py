"""Where a local (AF_UNIX) socket can live: its whole path must fit the kernel's
``sun_path`` (108 bytes on Linux with the closing NUL, 104 on macOS and the BSDs), and a
TMPDIR set by a login, a container or a test runner can be longer than that leaves room
for. Binding there fails with "AF_UNIX path too long"; corpdir then uses ``/tmp``."""

from __future__ import annotations

import os
import sys
import tempfile

SUN_PATH = 104 if sys.platform == "darwin" or "bsd" in sys.platform else 108


def fits(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` can be bound: its bytes and the closing NUL fit ``sun_path``."""
    return len(os.fsencode(path)) < SUN_PATH


def temp_base(room: int) -> str:
    """The temp dir when a socket path ``room`` bytes longer than it still fits, else ``/tmp``:
    both sides of a socket (the TUI listening, `corpdir ring` looking) choose the same."""
    base = tempfile.gettempdir()
    return base if len(os.fsencode(base)) + room < SUN_PATH else "/tmp"
