"""Where a profile's cache lives: one file per (base URL, key) in the user cache dir.

The file name is a hash of the base URL and a fingerprint of the key, never the key
itself, so two keys for one service keep separate caches (their permission ranges
differ) and nothing on disk reveals a key.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import platformdirs

APP_NAME = "corpdir"


def key_fingerprint(api_key: str) -> str:
    """A short, one-way fingerprint of a key (safe to show or store)."""
    return hashlib.sha256(("corpdir-key:" + api_key).encode()).hexdigest()[:16]


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir(APP_NAME))


def cache_file(base_url: str, api_key: str, directory: Path | None = None) -> Path:
    name = hashlib.sha256(f"{base_url.rstrip('/')}\n{key_fingerprint(api_key)}".encode()).hexdigest()[:24]
    return (directory or cache_dir()) / f"{name}.sqlite3"
