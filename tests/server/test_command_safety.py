"""`corpdir server` as a real process on 127.0.0.1: the data
directory is private, and the IP allow-list cannot be bypassed with X-Forwarded-For."""

from __future__ import annotations

import logging
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from corpdir.cli import build_parser
from tests.server.conftest import client_for


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


class Served:
    def __init__(self, *args: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "server", "--port", str(self.port), *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)

    def get(self, path: str, **kw: object) -> httpx.Response:
        """The first answer once the server listens (bounded wait: it starts in about a second)."""
        deadline = time.monotonic() + 60
        while True:
            try:
                return httpx.get(self.url + path, **kw)
            except httpx.TransportError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start: {self.process.stdout.read().decode()}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


@pytest.fixture
def serve() -> Iterator:
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(Served(*args))
        return started[-1]

    yield start
    for served in started:
        served.stop()


def test_x_forwarded_for_does_not_bypass_the_allow_list(serve, tmp_path):
    spoofed = {"X-Forwarded-For": "10.1.2.3"}
    plain = serve("--data", str(tmp_path / "a"), "--allow", "10.0.0.0/8")
    r = plain.get("/users", headers=spoofed)
    assert r.status_code == 403 and r.json()["error"]["status"] == "ACCESS_DENIED"
    assert plain.get("/users").status_code == 403
    # behind a proxy the operator names: its header is believed
    proxied = serve("--data", str(tmp_path / "b"), "--allow", "10.0.0.0/8", "--forwarded-allow-ips", "127.0.0.1")
    assert proxied.get("/users", headers=spoofed).status_code == 401  # past the allow-list, on to the key
    assert proxied.get("/users").status_code == 403


def test_allow_is_repeatable_and_checked():
    args = build_parser().parse_args(["server", "--allow", "192.0.2.0/24", "--allow", "127.0.0.1"])
    assert args.allow == ["192.0.2.0/24", "127.0.0.1/32"] and args.forwarded_allow_ips is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["server", "--allow", "not-a-network"])


def test_a_new_data_directory_is_private(serve, tmp_path):
    data = tmp_path / "new" / "data"
    served = serve("--data", str(data))
    assert served.get("/users").status_code == 401
    assert _mode(data) == 0o700
    files = sorted(p.name for p in data.iterdir())
    assert "corpdir.sqlite3" in files and "corpdir.sqlite3-wal" in files
    assert {p.name: _mode(p) for p in data.iterdir()} == {name: 0o600 for name in files}


async def test_an_existing_directory_readable_by_others_is_named_in_a_warning(make_app, tmp_path, caplog):
    data = tmp_path / "shared"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    with caplog.at_level(logging.WARNING, logger="corpdir.server"):
        app = make_app(data=data)
    assert any(str(data) in m and "readable by others" in m for m in caplog.messages)
    assert _mode(data / "corpdir.sqlite3") == 0o600  # the new database file is private all the same
    async with client_for(app) as api:
        assert (await api.get("/users/1")).status_code == 200
    app.state.storage.close()
