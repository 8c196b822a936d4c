"""Call-feed tests: each gets its own runtime dir (the ring sockets) and free ports on
127.0.0.1; the TUI runs under Textual's pilot on a synced small demo tenant."""

from __future__ import annotations

import socket

import pytest

from tui.conftest import service  # noqa: F401 - the synced small demo tenant


@pytest.fixture(autouse=True)
def _runtime_dir(tmp_path, monkeypatch):
    """The ring sockets in a folder of the test's, made at once: `corpdir ring` looks in the
    temp dir's /tmp/corpdir-UID when the runtime dir is not there, where a TUI of the person
    running the tests would answer. (The temp dir itself stays short: the presence's RPC
    reply socket lives there, and a socket's path has at most 107 bytes.)"""
    folder = tmp_path / "run"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", str(folder))
    return folder


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
