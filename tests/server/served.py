"""The reference server over real HTTP on 127.0.0.1: `corpdir server` as a process of its
own (its memory, its command-line options), or an app built by the test served by uvicorn
in a thread (settings the command line does not reach: a frozen clock, small limits)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import tempfile
import threading
from contextlib import contextmanager
from typing import Any, Iterator

import httpx
import uvicorn


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    def __init__(self, *args: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # a file, not a pipe: an access-log line per request would fill a pipe nobody reads
        self.output = tempfile.TemporaryFile()
        self.process = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "server", "--port", str(self.port), *args],
                                        stdout=self.output, stderr=subprocess.STDOUT, start_new_session=True)

    def get(self, path: str, **kw: object) -> httpx.Response:
        """The first answer once the server listens (bounded wait: it starts in about a second)."""
        deadline = time.monotonic() + 60
        while True:
            try:
                return httpx.get(self.url + path, **kw)
            except httpx.TransportError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.output.seek(0)
                    raise AssertionError(f"the server did not start: {self.output.read().decode()}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.output.close()

    def rss_mb(self, field: str = "VmRSS") -> float:
        """The server process's resident memory in MiB: now (VmRSS), or its peak (VmHWM)."""
        with open(f"/proc/{self.process.pid}/status") as status:
            line = next(line for line in status if line.startswith(field + ":"))
        return int(line.split()[1]) / 1024

    def reset_peak(self) -> None:
        """Start VmHWM again from the present RSS (Linux's clear_refs)."""
        with open(f"/proc/{self.process.pid}/clear_refs", "w") as refs:
            refs.write("5")


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free port of 127.0.0.1 until the block ends; yields its URL."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
