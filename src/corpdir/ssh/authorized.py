"""Who may log in, and which directory service each key reaches.

``--authorized-keys`` is an OpenSSH ``authorized_keys`` file: the keys allowed in, with
the options before a key honoured as sshd would (``from=``, ``expiry-time=``, ``no-pty``,
``restrict`` and ``pty``); options that only restrict what this server refuses to everyone
anyway (forwarding, ``user-rc``) are accepted; any other option would restrict something
this server cannot enforce (``command=``, ``environment=``, ``principals=``,
``verify-required``, ...), so the server refuses to start, naming the line (fail closed).
``--profiles`` is optional TOML mapping a key to a service profile::

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
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import asyncssh

from corpdir.phone_rules import checked_region

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
#: Options this server honours per key (asyncssh matches ``from=`` against the peer).
HONOURED = {"from", "expiry-time", "no-pty", "restrict", "pty"}
#: Options about what this server refuses to every key anyway: accepted, nothing to do.
ALREADY_ENFORCED = {"no-port-forwarding", "no-agent-forwarding", "no-X11-forwarding", "no-user-rc",
                    "port-forwarding", "agent-forwarding", "X11-forwarding", "user-rc", "permitopen",
                    "permitlisten", "tunnel", "no-touch-required"}


@dataclass(frozen=True)
class AuthorizedKey:
    """One authorized_keys line: its key, and what its options allow."""

    line: int
    entry: asyncssh.SSHAuthorizedKeys  # asyncssh's own parse of the line, which checks ``from=``
    options: dict[str, Any]
    expires: datetime | None = None

    @property
    def allows_pty(self) -> bool:
        if self.options.get("no-pty"):
            return False
        return not self.options.get("restrict") or bool(self.options.get("pty"))

    def refusal(self, key: asyncssh.SSHKey, peer_host: str, peer_addr: str, now: datetime | None = None) -> str | None:
        """Why this line does not let ``key`` in from that peer now (None: it does)."""
        if self.expires is not None and (now or datetime.now(timezone.utc)) >= self.expires:
            return f"expired at {self.expires.isoformat()}"
        try:
            matched = self.entry.validate(key.convert_to_public(), peer_host, peer_addr) is not None
        except ValueError:  # a peer address asyncssh cannot read: no from= pattern can match it
            matched = False
        return None if matched else "not from an address its from= option allows"


def _expiry(values: list[str], where: str) -> datetime:
    """OpenSSH's ``expiry-time="YYYYMMDD[HHMM[SS]][Z]"``: local time unless it ends in Z."""
    text = values[-1].strip('"')
    utc = text.endswith(("Z", "z"))
    digits = text[:-1] if utc else text
    formats = {8: "%Y%m%d", 12: "%Y%m%d%H%M", 14: "%Y%m%d%H%M%S"}
    try:
        moment = datetime.strptime(digits, formats[len(digits)])
    except (KeyError, ValueError):
        raise ProfileError(f"{where}: expiry-time={text!r} is not YYYYMMDD[HHMM[SS]][Z]") from None
    return moment.replace(tzinfo=timezone.utc) if utc else moment.astimezone()


def load_authorized_keys(path: Path) -> dict[str, AuthorizedKey]:
    """Fingerprint -> its line, from an OpenSSH authorized_keys file. ``cert-authority``
    lines (certificates are not supported) and options this server cannot enforce are
    refused with the line named."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read authorized keys ({exc})") from None
    keys: dict[str, AuthorizedKey] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path}, line {number}"
        match = _KEY.search(line)
        if match is None or "cert-authority" in line[: match.start(1)]:
            raise ProfileError(f"{where}: not a public key this server accepts")
        key = _import_key(match.group(1), where)
        try:
            entry = asyncssh.import_authorized_keys(line)
        except (ValueError, asyncssh.KeyImportError) as exc:
            raise ProfileError(f"{where}: its options cannot be read ({exc})") from None
        options = _options_of(line[: match.start(1)].strip(), line[match.start(1):], key)
        unknown = sorted(set(options) - HONOURED - ALREADY_ENFORCED)
        if unknown:
            raise ProfileError(f"{where}: option {', '.join(unknown)} is not supported by this server, which "
                               "cannot enforce it; remove the option or the key")
        expires = _expiry(options["expiry-time"], where) if "expiry-time" in options else None
        keys[key_id(key)] = AuthorizedKey(number, entry, options, expires)
    return keys


_FROM = re.compile(r'(?:^|,)from="[^"]*"')


def _options_of(options_text: str, rest: str, key: asyncssh.SSHKey) -> dict[str, Any]:
    """A line's options whatever its ``from=`` pattern: asyncssh hands options out only for
    a peer that matches, so they are read from the line without it."""
    remaining = _FROM.sub("", options_text).strip(",")
    bare = f"{remaining} {rest}" if remaining else rest
    options = dict(asyncssh.import_authorized_keys(bare).validate(key.convert_to_public(), "", "127.0.0.1") or {})
    if _FROM.search(options_text):
        options["from"] = True
    return options


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
        # what the session's own settings would refuse, refused now: at the key's login it was
        # a session that failed to start, the server having started without a word
        if raw.get("region") is not None:
            try:
                raw["region"] = checked_region(raw["region"])
            except ValueError as exc:
                raise ProfileError(f"{where}: region: {exc}") from None
        if raw.get("variant") not in (None, "A", "B", "C"):
            raise ProfileError(f"{where}: variant: {raw['variant']!r} is not one of the interface's variants A, B, C")
        name = str(entry.get("name") or (key.get_comment() or "") or key_id(key))
        profiles[key_id(key)] = SessionProfile(name=name, inherit=False, **raw)
    return profiles


@dataclass
class KeyRing:
    """The server's view: which keys may log in (with their lines' options), and their profiles."""

    allowed: dict[str, AuthorizedKey]
    profiles: dict[str, SessionProfile] = field(default_factory=dict)

    @classmethod
    def load(cls, authorized_keys: Path, profiles: Path | None = None) -> KeyRing:
        ring = cls(load_authorized_keys(authorized_keys), load_profiles(profiles) if profiles else {})
        for fingerprint, profile in ring.profiles.items():
            if fingerprint not in ring.allowed:
                log.warning("profile %r: its key (%s) is not in %s, so it cannot log in", profile.name, fingerprint, authorized_keys)
        return ring

    def profile_for(self, key: asyncssh.SSHKey, peer_host: str = "", peer_addr: str = "127.0.0.1"
                    ) -> SessionProfile | None:
        """The key's profile, or None when the key may not log in (from that peer, now)."""
        return self.admit(key, peer_host, peer_addr)[0]

    def admit(self, key: asyncssh.SSHKey, peer_host: str, peer_addr: str
              ) -> tuple[SessionProfile | None, AuthorizedKey | None, str | None]:
        """(profile, its line, None) for a key let in; (None, line or None, why not) otherwise."""
        line = self.allowed.get(key_id(key))
        if line is None:
            return None, None, "not in authorized_keys"
        why = line.refusal(key, peer_host, peer_addr)
        if why is not None:
            return None, line, f"authorized_keys line {line.line}: {why}"
        return self.profiles.get(key_id(key), DEFAULT_PROFILE), line, None
