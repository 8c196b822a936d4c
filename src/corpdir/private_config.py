"""A config file that holds a secret is warned about when others can read it, as ssh
warns about a private key with an open mode.

``config.toml`` may hold an AMI manager's secret, a desk phone dialer's password, the
token a phone's action URLs carry, the service's API key: a file others can read (the
0644 an editor or ``cp`` leaves) gives each of them to every account on the machine. It
is not refused (a desk must still answer its phone), but the start says which keys are
exposed and how to fix it.
The check costs a ``stat`` when the file is private (the usual case); it reads the file
only when it is not.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Any, Iterator

SECRET_KEYS = frozenset({"secret", "password", "token", "api_key"})


def _secrets(value: Any, where: str) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            name = f"{where}.{key}" if where else str(key)
            if key in SECRET_KEYS and isinstance(item, str) and item:
                yield name
            else:
                yield from _secrets(item, name)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _secrets(item, f"{where}[{i}]")


def warn_if_readable_by_others(path: Path) -> None:
    """Warn (logger ``corpdir.config``: on stderr, as the unreadable API key file is) when ``path`` holds a secret and its
    mode gives the group or others any access (ssh's rule for a private key: 0600 or
    less); say nothing about a file that cannot be read (its reader reports that)."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        if not mode & 0o077:
            return
        import tomllib

        found = list(_secrets(tomllib.loads(path.read_text(encoding="utf-8-sig")), ""))
    except (OSError, ValueError):
        return
    if found:
        logging.getLogger("corpdir.config").warning("%s holds %s and is open to others (mode %04o): chmod 600 %s", path,
                                                    ", ".join(found), mode, path)
