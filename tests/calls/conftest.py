"""Call-feed tests: each gets its own runtime dir (the ring sockets) and free ports on
127.0.0.1; the TUI runs under Textual's pilot on a synced small demo tenant."""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from tui.conftest import service  # noqa: F401 - the synced small demo tenant


@pytest.fixture(autouse=True)
def _runtime_dir(monkeypatch):
    """The ring sockets in a folder of the test's, made at once: `corpdir ring` looks in the
    temp dir's /tmp/corpdir-UID when the runtime dir is not there, where a TUI of the person
    running the tests would answer. A short folder under /tmp, not in tmp_path: a socket's
    path has at most 107 bytes, and a runtime dir too long for one is not used."""
    folder = Path(tempfile.mkdtemp(prefix="cdrun-", dir="/tmp"))
    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
async def demo_user(service):
    """A person of the demo tenant with a phone number, and the number."""
    users = await service.people.window(None, limit=200)
    user = next(u for u in users if u.phoneNum and u.fullnameKana)
    return user
