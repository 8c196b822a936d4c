"""The server's host key: read from its file, or generated there (mode 0600) on the first start."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import asyncssh

log = logging.getLogger("corpdir.ssh")


class HostKeyError(ValueError):
    """The host key file cannot be read or made (the message names the file)."""


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    path = Path(path).expanduser()
    try:
        if path.exists():
            mode = stat.S_IMODE(path.stat().st_mode)
            if mode & 0o077:
                log.warning("host key %s can be read by others (mode %03o): chmod 600 it", path, mode)
            return asyncssh.read_private_key(str(path))
        key = asyncssh.generate_private_key("ssh-ed25519", comment="corpdir ssh-server")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never readable by others, not even briefly
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key("openssh"))
        path.with_name(path.name + ".pub").write_bytes(key.export_public_key("openssh"))
    except OSError as exc:
        raise HostKeyError(f"host key {path}: {exc.strerror or exc}") from None
    except (asyncssh.KeyImportError, ValueError) as exc:  # not a key, or one with a passphrase
        raise HostKeyError(f"host key {path}: not a private key this server can use ({exc})") from None
    log.info("generated a new host key %s (%s)", path, key.get_fingerprint("sha256"))
    return key
