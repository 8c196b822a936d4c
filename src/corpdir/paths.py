"""Where corpdir keeps things, and which profile a command is for: no pydantic, no httpx.

The ``[service]`` settings are read here, once, for everyone: :func:`service_values`
(environment over config file, a blank value counting as not given) is the source of
:class:`corpdir.config.ServiceConfig`, and :func:`profile_for` (which service, which
key, hence which cache file) is what both ``ServiceConfig.profile()`` and `corpdir
lookup`'s fast :func:`resolve_profile` return. `corpdir lookup` must start fast, so it
uses these without building the settings object (pydantic). Every location can be moved
by an environment variable, which is how tests keep off the real home directory.

A cache file is named by a hash of the base URL and a fingerprint of the key, never the
key itself: two keys for one service keep separate caches (their permission ranges
differ), and nothing on disk reveals a key.
"""

from __future__ import annotations

import os
import sys
from collections import namedtuple

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Iterable

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


def _path(location: str) -> Path:
    """``location`` as a Path. pathlib is imported here, not at the top: it brings
    urllib.parse, ipaddress and fnmatch (~18 M instructions of `corpdir lookup`'s ~140 M),
    and the lookup reads its config file and cache by their locations as text."""
    from pathlib import Path

    return Path(location)


def _location(env: str, kind: str) -> str:
    return os.environ.get(env) or user_dir(kind)


def _dir(env: str, kind: str) -> Path:
    return _path(_location(env, kind))


def config_location() -> str:
    """The config file's location (:func:`config_path` as text)."""
    return os.environ.get("CORPDIR_CONFIG") or os.path.join(user_dir("config"), "config.toml")


def config_path() -> Path:
    return _path(config_location())


def data_dir() -> Path:
    return _dir("CORPDIR_DATA_DIR", "data")


def private_dir(path: Path) -> Path:
    """``path`` as a directory only its owner can open (0700), made with its parents when
    missing. mkdir's mode is masked by the umask (0755 under the usual 022), and the
    service's storage warns about a data directory others can read, so the mode is set
    after. One that exists is left as its owner made it."""
    if not path.is_dir():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.chmod(0o700)
    return path


def write_durably(path: Path, text: str) -> None:
    """``text`` in ``path`` (0600, its folder 0700) and on the disk before this returns: the
    file by fsync, the rename by an fsync of its folder (a crash after an un-synced rename
    may bring the old file back, which would undo a mark such as the call queue's
    ``maybe_sent``). For the desk's queues and local records, all personal data."""
    import tempfile  # here: `corpdir lookup` imports this module and never writes

    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-")  # mkstemp: mode 0600
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def cache_dir() -> Path:
    return _dir("CORPDIR_CACHE_DIR", "cache")


def state_dir() -> Path:
    return _dir("CORPDIR_STATE_DIR", "state")


def key_fingerprint(api_key: str) -> str:
    """A short, one-way fingerprint of a key (safe to show or store)."""
    return _sha256(("corpdir-key:" + api_key).encode()).hexdigest()[:16]


def cache_location(base_url: str, api_key: str, directory: str | os.PathLike[str] | None = None) -> str:
    """:func:`cache_file` as text."""
    name = _sha256(f"{base_url.rstrip('/')}\n{key_fingerprint(api_key)}".encode()).hexdigest()[:24]
    return os.path.join(directory or _location("CORPDIR_CACHE_DIR", "cache"), f"{name}.sqlite3")


def cache_file(base_url: str, api_key: str, directory: Path | None = None) -> Path:
    return _path(cache_location(base_url, api_key, directory))


class SettingsError(ValueError):
    """The configuration cannot be used: each line names the file's table (the section) and
    key, and the rule (``[gateway] port: Input should be less than or equal to 65535``)."""


def read_config() -> dict[str, Any]:
    """The config file's tables ({} when there is no file; a BOM is allowed)."""
    path = config_location()
    if not os.path.isfile(path):
        return {}
    import tomllib  # only when there is a file: `corpdir lookup` starts without it

    try:
        with open(path, encoding="utf-8-sig") as file:
            return tomllib.loads(file.read())
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:  # e.g. saved as Shift_JIS by an editor on a Japanese desk
        raise SettingsError(f"{path}: not UTF-8 text (byte {exc.start}): save it as UTF-8") from None


SECRET_KEYS = frozenset({"secret", "password", "token", "api_key"})


def _secrets(value: Any, where: str) -> Iterable[str]:
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


_missing_said: set[str] = set()


def warn_if_named_and_missing() -> None:
    """Warn (logger ``corpdir.config``, once a process) when ``CORPDIR_CONFIG`` names a file
    that is not there, or is no regular file (a folder, a FIFO): a typo in a wrapper script
    or a unit file otherwise started corpdir
    on the defaults (the embedded demo) without a word. ``CORPDIR_CONFIG=/dev/null`` says
    "no file" on purpose. `corpdir lookup` does not call it (its stderr is often a PBX's log)."""
    named = os.environ.get("CORPDIR_CONFIG")
    if named and named not in _missing_said and not os.path.isfile(named) and os.path.realpath(named) != os.devnull:
        _missing_said.add(named)
        import logging

        # a FIFO, socket or device other than /dev/null is not read either (a FIFO would block)
        what = ("is a folder" if os.path.isdir(named) else "does not exist" if not os.path.exists(named)
                else "is not a regular file")
        logging.getLogger("corpdir.config").warning(
            "corpdir: CORPDIR_CONFIG names %s, which %s: no config file is read (CORPDIR_CONFIG=/dev/null says so "
            "on purpose)", named, what)


def warn_if_readable_by_others(path: Path) -> None:
    """Warn (logger ``corpdir.config``: on stderr, as an unreadable API key file is) when
    the config file ``path`` holds a secret and its mode gives the group or others any
    access, ssh's rule for a private key.

    It may hold an AMI manager's secret, a desk phone dialer's password, the token a
    phone's action URLs carry, the API key: a file others can read (the 0644 an editor or
    ``cp`` leaves) gives each of them to every account on the machine. It is not refused (a
    desk must still answer its phone), but the start names the exposed keys and the fix.
    The check is a ``stat`` when the file is private; it reads the file only when it is
    not, and says nothing about a file it cannot read (its reader reports that)."""
    import stat

    try:
        status = os.stat(path)
        mode = stat.S_IMODE(status.st_mode)
        if not mode & 0o077 or not stat.S_ISREG(status.st_mode):  # a FIFO is never read: it would block
            return
        import tomllib

        found = list(_secrets(tomllib.loads(path.read_text(encoding="utf-8-sig")), ""))
    except (OSError, ValueError):
        return
    if found:
        import logging

        logging.getLogger("corpdir.config").warning("%s holds %s and is open to others (mode %04o): chmod 600 %s", path,
                                                    ", ".join(found), mode, path)


class Profile(namedtuple("Profile", ("base_url", "api_key"))):
    """The service a command talks to: its base URL (str, or None: the embedded demo) and
    key (str or None). (A named tuple, not a dataclass or typing.NamedTuple: this module is
    on `corpdir lookup`'s start-up path.)"""

    __slots__ = ()

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

    def cache_location(self) -> str:
        """:meth:`cache_path` as text (no pathlib: `corpdir lookup`'s start)."""
        return cache_location(*self.identity)


def given(value: Any) -> Any:
    """A setting as given, or None when it says nothing: absent, empty or only blanks
    (``CORPDIR_API_KEY="  "`` gives no key). Text loses its surrounding blanks."""
    if isinstance(value, str):
        return value.strip() or None
    return value


def service_values(names: Iterable[str], table: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``[service]`` settings ``names`` that are given: ``CORPDIR_<NAME>`` from the
    environment over the config file's ``[service]`` table. The one reader of these
    settings, for :class:`corpdir.config.ServiceConfig` and `corpdir lookup` alike."""
    table = read_config().get("service", {}) if table is None else table
    values = {}
    for name in names:
        value = given(os.environ.get(f"CORPDIR_{name.upper()}"))
        if value is None:
            value = given(table.get(name))
        if value is not None:
            values[name] = value
    return values


# The [service] keys `corpdir lookup` reads without building the settings, with the defaults
# corpdir.config.ServiceConfig gives them: a test holds the two together, key by key and
# value by value (tests/common/test_one_config_reader.py).
LOOKUP_SETTINGS = {"base_url": None, "api_key": None, "api_key_file": None, "keyring_service": None,
                   "region": "JP", "stale_after": 900.0}


def lookup_settings() -> dict[str, Any]:
    """:data:`LOOKUP_SETTINGS` as configured (:func:`service_values`), else their defaults.

    A value of the wrong type (``base_url = 12``, ``stale_after = "15m"``, ``service = 3``)
    is left to the section's full reading to describe: it raises :class:`SettingsError`
    naming the table, key and rule, as every other command does, rather than a traceback here."""
    from corpdir.phone_rules import checked_region

    table = read_config().get("service", {})
    try:
        values = {**LOOKUP_SETTINGS, **service_values(LOOKUP_SETTINGS, table)}
        if any(not isinstance(value, str) for name, value in values.items() if name != "stale_after" and value is not None):
            raise TypeError(table)
        values["stale_after"] = float(values["stale_after"])
        if values["stale_after"] < 0:  # ServiceConfig's rule, said by it
            raise ValueError(values["stale_after"])
        values["region"] = checked_region(values["region"])  # ServiceConfig's rule, said by it
    except (AttributeError, TypeError, ValueError):
        from corpdir.config import load_service_settings

        load_service_settings()
        raise
    return values


def read_key_file(path: str | Path) -> str | None:
    """The key in a key file: its first line, without a BOM (Windows Notepad writes one) or
    surrounding blanks; None for an empty file. OSError/UnicodeDecodeError if unreadable."""
    with open(os.path.expanduser(path), encoding="utf-8-sig") as file:
        lines = file.read().strip().splitlines()
    return given(lines[0]) if lines else None


def api_key_from(api_key: str | None, api_key_file: str | Path | None) -> str | None:
    """The API key: ``api_key`` if given, else the key file's (:func:`read_key_file`). A key
    file that cannot be read gives no key, with a warning that names the file, not the key."""
    key = given(api_key)
    if key is not None or api_key_file is None:
        return key
    try:
        return read_key_file(api_key_file)
    except (OSError, UnicodeDecodeError) as exc:
        if str(api_key_file) not in _unreadable_key_files:  # once: the settings ask for the key several times
            _unreadable_key_files.add(str(api_key_file))
            import logging

            logging.getLogger("corpdir.client").warning("cannot read the API key file %s: %s", api_key_file,
                                                        type(exc).__name__)
        return None


_unreadable_key_files: set[str] = set()


def profile_for(base_url: str | None, api_key: str | None, api_key_file: str | Path | None = None) -> Profile:
    """The profile of these settings: no base URL is the embedded demo (its reception key),
    else the service and the key it is called with (None: none configured)."""
    base_url = given(base_url)
    if base_url is None:
        return Profile(None, DEMO_API_KEY)
    return Profile(base_url, api_key_from(api_key, api_key_file))


def resolve_profile(base_url: str | None = None, values: dict[str, Any] | None = None) -> Profile | None:
    """The profile `corpdir` would use, from ``--base-url`` (``base_url``) and ``values``
    (:func:`lookup_settings`: the environment and the config file), as
    ``ServiceConfig.profile()`` gives it, without pydantic.

    Returns None when the key must come from the system keyring: the caller then builds
    the full settings (the slow, complete path)."""
    values = lookup_settings() if values is None else values
    profile = profile_for(given(base_url) or values.get("base_url"), values.get("api_key"), values.get("api_key_file"))
    if not profile.is_demo and profile.api_key is None and values.get("keyring_service"):
        return None
    return profile
