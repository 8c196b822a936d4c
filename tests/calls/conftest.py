"""Call-feed tests: each gets its own runtime dir (the ring sockets) and free ports on
127.0.0.1; the TUI runs under Textual's pilot on a synced small demo tenant."""

from __future__ import annotations

import socket

import pytest

from tui.conftest import service  # noqa: F401 - the synced small demo tenant


@pytest.fixture(autouse=True)
def _runtime_dir(tmp_path, monkeypatch):
    """The ring sockets in a folder of the test's; the temp dir (where `corpdir ring` looks
    when that folder is not there yet) the test's too, never the user's /tmp/corpdir-UID,
    where a TUI of the person running the tests would answer."""
    import tempfile

    folder = tmp_path / "run"
    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
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
