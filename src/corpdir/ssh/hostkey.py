"""The server's host key: read from its file, or generated there (mode 0600) on the first start."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import asyncssh

log = logging.getLogger("corpdir.ssh")


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    path = Path(path).expanduser()
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519", comment="corpdir ssh-server")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never readable by others, not even briefly
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key("openssh"))
    path.with_name(path.name + ".pub").write_bytes(key.export_public_key("openssh"))
    log.info("generated a new host key %s (%s)", path, key.get_fingerprint("sha256"))
    return key
