"""Where corpdir keeps things, and which profile a command is for: no pydantic, no httpx.

`corpdir lookup` must start fast, so it resolves its profile and cache file here rather
than through the full settings object (:mod:`corpdir.config`, which agrees with this
module; a test holds them together). Every location can be moved by an environment
variable, which is how tests keep off the real home directory.

A cache file is named by a hash of the base URL and a fingerprint of the key, never the
key itself: two keys for one service keep separate caches (their permission ranges
differ), and nothing on disk reveals a key.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

try:  # the builtin SHA-256: hashlib would load OpenSSL (~5 ms of `corpdir lookup`'s start)
    from _sha256 import sha256 as _sha256  # CPython <= 3.11
except ImportError:  # pragma: no cover - depends on the Python version
    try:
        from _sha2 import sha256 as _sha256  # CPython >= 3.12
    except ImportError:
        from hashlib import sha256 as _sha256

APP_NAME = "corpdir"
EMBEDDED_DEMO_URL = "embedded://demo/v1"  # identity of the in-process demo service
DEMO_API_KEY = "demo-reception"  # the demo tenant's reception desk user (see README)


# platformdirs' user directories on plain Linux: (XDG variable, default under the home).
_XDG = {"config": ("XDG_CONFIG_HOME", "~/.config"), "data": ("XDG_DATA_HOME", "~/.local/share"),
        "cache": ("XDG_CACHE_HOME", "~/.cache"), "state": ("XDG_STATE_HOME", "~/.local/state")}


def user_dir(kind: str) -> str:
    """platformdirs' ``user_<kind>_dir("corpdir")``. On plain Linux with an absolute XDG
    variable or HOME, computed here as platformdirs does (importing it costs `corpdir
    lookup` ~3 ms; a test holds the two together); anything else is platformdirs' call."""
    var, default = _XDG[kind]
    if sys.platform == "linux" and not hasattr(sys, "getandroidapilevel") and os.environ.get("ANDROID_DATA") != "/data":
        xdg = os.environ.get(var, "")
        if xdg.startswith("/"):
            return os.path.join(xdg, APP_NAME)
        if os.environ.get("HOME", "").startswith("/"):
            return os.path.join(os.path.expanduser(default), APP_NAME)
    import platformdirs

    return str(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME))


def _dir(env: str, kind: str) -> Path:
    override = os.environ.get(env)
    return Path(override) if override else Path(user_dir(kind))


def config_path() -> Path:
    override = os.environ.get("CORPDIR_CONFIG")
    return Path(override) if override else Path(user_dir("config")) / "config.toml"


def data_dir() -> Path:
    return _dir("CORPDIR_DATA_DIR", "data")


def cache_dir() -> Path:
    return _dir("CORPDIR_CACHE_DIR", "cache")


def state_dir() -> Path:
    return _dir("CORPDIR_STATE_DIR", "state")


def key_fingerprint(api_key: str) -> str:
    """A short, one-way fingerprint of a key (safe to show or store)."""
    return _sha256(("corpdir-key:" + api_key).encode()).hexdigest()[:16]


def cache_file(base_url: str, api_key: str, directory: Path | None = None) -> Path:
    name = _sha256(f"{base_url.rstrip('/')}\n{key_fingerprint(api_key)}".encode()).hexdigest()[:24]
    return (directory or cache_dir()) / f"{name}.sqlite3"


def read_config_table(table: str) -> dict[str, Any]:
    """One table of the config file ({} when there is no file)."""
    path = config_path()
    if not path.is_file():
        return {}
    import tomllib  # only when there is a file: `corpdir lookup` starts without it

    try:
        return dict(tomllib.loads(path.read_text(encoding="utf-8")).get(table, {}))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None


class Profile(NamedTuple):
    """The service a command talks to: its base URL (None: the embedded demo) and key.
    (A NamedTuple, not a dataclass: this module is on `corpdir lookup`'s start-up path.)"""

    base_url: str | None
    api_key: str | None

    def __repr__(self) -> str:  # the key never appears in a repr
        return f"Profile(base_url={self.base_url!r}, api_key={'set' if self.api_key else 'none'})"

    @property
    def is_demo(self) -> bool:
        return not self.base_url

    @property
    def identity(self) -> tuple[str, str]:
        return (self.base_url or EMBEDDED_DEMO_URL, self.api_key or (DEMO_API_KEY if self.is_demo else ""))

    def cache_path(self) -> Path:
        return cache_file(*self.identity)


def service_value(name: str, default: Any = None, table: dict[str, Any] | None = None) -> Any:
    """A ``[service]`` setting: environment (CORPDIR_<NAME>) over config file, as
    :class:`corpdir.config.ServiceSettings` reads it."""
    value = os.environ.get(f"CORPDIR_{name.upper()}")
    if value:
        return value
    table = read_config_table("service") if table is None else table
    return table.get(name) or default


def resolve_profile(base_url: str | None = None) -> Profile | None:
    """Flags > environment > config file, as :class:`corpdir.config.ServiceSettings` does.

    Returns None when the key must come from the system keyring: the caller then builds
    the full settings (the slow, complete path)."""
    table = read_config_table("service")
    url = base_url or service_value("base_url", table=table)
    if not url:
        return Profile(None, DEMO_API_KEY)
    key = service_value("api_key", table=table)
    key_file = service_value("api_key_file", table=table)
    if not key and key_file:
        lines = Path(key_file).expanduser().read_text(encoding="utf-8").strip().splitlines()
        key = lines[0].strip() if lines else None
    if not key:
        return None
    return Profile(url, key)
