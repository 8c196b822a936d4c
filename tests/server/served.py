"""`corpdir server` as a real process on 127.0.0.1, for the tests that need one: its
memory, its own command-line options, what uvicorn does before the app sees a request."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import tempfile

import httpx


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

    def rss_mb(self) -> float:
        """The server process's resident memory (VmRSS), in MiB."""
        with open(f"/proc/{self.process.pid}/status") as status:
            line = next(line for line in status if line.startswith("VmRSS:"))
        return int(line.split()[1]) / 1024
