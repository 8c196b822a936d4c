"""An SSH client for tests: a real asyncssh connection whose received bytes go through a
small terminal emulator (pyte), so a test reads the screen as a person would see it."""

from __future__ import annotations

import asyncio
import os
import re
from typing import Callable

import asyncssh
import pyte


DEMO_SIZE = "60"


def demo_home_env(home) -> dict[str, str]:  # noqa: ANN001 - a Path
    """An environment whose corpdir uses ``home`` for data, cache and state, on the small demo."""
    env = {**os.environ, "CORPDIR_DEMO_SIZE": DEMO_SIZE, "CORPDIR_DATA_DIR": str(home / "data"),
           "CORPDIR_CACHE_DIR": str(home / "cache"), "CORPDIR_STATE_DIR": str(home / "state"),
           "CORPDIR_CONFIG": str(home / "none.toml")}
    for name in ("CORPDIR_BASE_URL", "CORPDIR_API_KEY", "CORPDIR_API_KEY_FILE"):
        env.pop(name, None)
    return env


def prepare_demo_home(home) -> None:  # noqa: ANN001 - a Path
    """Generate the small demo tenant and sync the cache once, so an app paints at once."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "corpdir.cli", "sync", "--quiet"], env=demo_home_env(home), check=True,
                   stdout=subprocess.DEVNULL, timeout=300)


class Screen:
    """A pyte screen fed with bytes, read as text."""

    def __init__(self, cols: int = 100, rows: int = 30) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)

    def lines(self) -> list[str]:
        # not pyte's ``display``: it trips over the empty stub cell after a wide (CJK) character
        buffer, cols = self.screen.buffer, self.screen.columns
        return ["".join(buffer[y][x].data for x in range(cols)) for y in range(self.screen.lines)]

    def text(self) -> str:
        return re.sub(r"\s+", " ", "\n".join(self.lines()))


class Terminal(Screen, asyncssh.SSHClientSession):
    """The client side of one session: what arrives is drawn on a pyte screen."""

    def __init__(self, cols: int = 100, rows: int = 30) -> None:
        Screen.__init__(self, cols, rows)
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self.exit_status: int | None = None
        self.changed = asyncio.Event()

    def data_received(self, data: bytes, datatype) -> None:  # noqa: ANN001
        self.raw += data
        self.stream.feed(data)
        self.changed.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc) -> None:  # noqa: ANN001
        self.closed.set()
        self.changed.set()

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)

    def look(self, row: int) -> list[tuple]:
        """How a row is drawn (characters and colours): to see focus move, say."""
        line = self.screen.buffer[row]
        return [(c.data, c.fg, c.bg, c.reverse, c.bold) for c in (line[x] for x in range(self.screen.columns))]

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Wait (bounded) until ``predicate()`` holds for the screen as drawn so far."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(remaining, 0.5))
            except asyncio.TimeoutError:
                pass
        return True


async def connect(port: int, key: asyncssh.SSHKey | None, username: str = "desk", **kw) -> asyncssh.SSHClientConnection:
    options = dict(known_hosts=None, agent_path=None, client_keys=[key] if key else None, preferred_auth="publickey",
                   connect_timeout=30)
    options.update(kw)
    return await asyncssh.connect("127.0.0.1", port, username=username, **options)


async def open_terminal(conn: asyncssh.SSHClientConnection, cols: int = 100, rows: int = 30
                        ) -> tuple[asyncssh.SSHClientChannel, Terminal]:
    chan, term = await conn.create_session(lambda: Terminal(cols, rows), term_type="xterm-256color",
                                           term_size=(cols, rows), encoding=None)
    return chan, term


def process_gone(pid: int) -> bool:
    """True when no process (and no process group) with this id remains."""
    for probe in (lambda: os.kill(pid, 0), lambda: os.killpg(pid, 0)):
        try:
            probe()
            return False
        except ProcessLookupError:
            continue
        except PermissionError:
            return False
    return True


async def until(predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Wait (bounded) until ``predicate()`` holds: for what the server does on its own time,
    such as forgetting a session once its process has been reaped."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def wait_gone(pid: int, timeout: float = 30.0) -> bool:
    return await until(lambda: process_gone(pid), timeout)
