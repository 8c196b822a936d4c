"""Who may log in, and which directory service each key reaches.

``--authorized-keys`` is an OpenSSH ``authorized_keys`` file: the keys allowed in
(options before a key, such as ``restrict``, are accepted and ignored; the server allows
only the read-only directory anyway). ``--profiles`` is optional TOML mapping a key to a
service profile::

    [[keys]]
    public_key = "ssh-ed25519 AAAAC3Nza... reception-desk-1"
    name = "front desk"                        # shown in the log (optional)
    profile = { base_url = "https://directory.example.com/v1", api_key_file = "/etc/corpdir/desk1.key" }

A profile may hold ``base_url``, ``api_key_file`` (or ``api_key``, discouraged), ``variant``,
``region``, ``theme`` and ``read_only`` (default true). A key with no profile gets the
server's own configuration (its environment and config file; the embedded demo when none).
The API key reaches the session's process only through its environment
(``CORPDIR_API_KEY``), never its command line, and is never logged.
"""

from __future__ import annotations

import logging
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

log = logging.getLogger("corpdir.ssh")

PROFILE_FIELDS = {"base_url", "api_key_file", "api_key", "variant", "region", "theme", "read_only"}


class ProfileError(ValueError):
    """The profiles file is not usable (the message names the file and the entry)."""


@dataclass(frozen=True)
class SessionProfile:
    """What one key's sessions run: the service and whether writes are allowed."""

    name: str = "default"
    base_url: str | None = None
    api_key_file: Path | None = None
    api_key: str | None = field(default=None, repr=False)
    variant: str | None = None
    region: str | None = None
    theme: str | None = None
    read_only: bool = True
    inherit: bool = True  # no profile given: the server's own environment and config decide

    def child_env(self) -> dict[str, str]:
        """Environment variables for the session's process (the key read now, fresh)."""
        env: dict[str, str] = {}
        if self.inherit:
            return env
        if self.base_url:
            env["CORPDIR_BASE_URL"] = self.base_url
        key = self.api_key
        if key is None and self.api_key_file is not None:
            lines = self.api_key_file.expanduser().read_text(encoding="utf-8").strip().splitlines()
            key = lines[0].strip() if lines else None
        if key:
            env["CORPDIR_API_KEY"] = key
        if self.variant:
            env["CORPDIR_VARIANT"] = self.variant
        if self.region:
            env["CORPDIR_REGION"] = self.region
        return env

    def child_args(self) -> list[str]:
        """Flags for ``corpdir`` (nothing secret)."""
        args = ["--read-only"] if self.read_only else []
        if self.theme:
            args += ["--theme", self.theme]
        return args


DEFAULT_PROFILE = SessionProfile()


def key_id(key: asyncssh.SSHKey) -> str:
    """A public key's identity, independent of its comment: the SHA256 fingerprint."""
    return key.get_fingerprint("sha256")


def _import_key(text: str, where: str) -> asyncssh.SSHKey:
    try:
        return asyncssh.import_public_key(text.strip())
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise ProfileError(f"{where}: not a public key ({exc})") from None


_KEY = re.compile(r"(?:^|\s)((?:ssh-|ecdsa-|sk-)[\w@.-]+\s+[A-Za-z0-9+/]+=*)")


def load_authorized_keys(path: Path) -> set[str]:
    """Fingerprints of the keys in an OpenSSH authorized_keys file. Leading options are
    skipped; ``cert-authority`` lines are refused (certificates are not supported)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read authorized keys ({exc})") from None
    fingerprints: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _KEY.search(line)
        if match is None or "cert-authority" in line[: match.start(1)]:
            raise ProfileError(f"{path}, line {number}: not a public key this server accepts")
        fingerprints.add(key_id(_import_key(match.group(1), f"{path}, line {number}")))
    return fingerprints


def load_profiles(path: Path) -> dict[str, SessionProfile]:
    """Fingerprint -> profile, from the TOML profiles file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ProfileError(f"{path}: {exc}") from None
    profiles: dict[str, SessionProfile] = {}
    for number, entry in enumerate(data.get("keys", []), 1):
        where = f"{path}, [[keys]] entry {number}"
        if not isinstance(entry, dict) or not isinstance(entry.get("public_key"), str):
            raise ProfileError(f"{where}: needs public_key = \"ssh-ed25519 AAAA...\"")
        key = _import_key(entry["public_key"], where)
        raw: dict[str, Any] = dict(entry.get("profile") or {})
        unknown = set(raw) - PROFILE_FIELDS
        if unknown:
            raise ProfileError(f"{where}: unknown profile field(s) {', '.join(sorted(unknown))}")
        if raw.get("api_key_file") is not None:
            raw["api_key_file"] = Path(str(raw["api_key_file"])).expanduser()
        name = str(entry.get("name") or (key.get_comment() or "") or key_id(key))
        profiles[key_id(key)] = SessionProfile(name=name, inherit=False, **raw)
    return profiles


@dataclass
class KeyRing:
    """The server's view: which fingerprints may log in, and their profiles."""

    allowed: set[str]
    profiles: dict[str, SessionProfile] = field(default_factory=dict)

    @classmethod
    def load(cls, authorized_keys: Path, profiles: Path | None = None) -> KeyRing:
        ring = cls(load_authorized_keys(authorized_keys), load_profiles(profiles) if profiles else {})
        for fingerprint, profile in ring.profiles.items():
            if fingerprint not in ring.allowed:
                log.warning("profile %r: its key (%s) is not in %s, so it cannot log in", profile.name, fingerprint, authorized_keys)
        return ring

    def profile_for(self, key: asyncssh.SSHKey) -> SessionProfile | None:
        """The key's profile, or None when the key may not log in."""
        fingerprint = key_id(key)
        if fingerprint not in self.allowed:
            return None
        return self.profiles.get(fingerprint, DEFAULT_PROFILE)
