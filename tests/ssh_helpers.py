"""An SSH client for tests: a real asyncssh connection whose received bytes go through a
small terminal emulator (pyte), so a test reads the screen as a person would see it."""

from __future__ import annotations

import asyncio
import os
import re
from typing import Callable, Sequence

import asyncssh
import pyte


DEMO_SIZE = "60"


def demo_home_env(home) -> dict[str, str]:  # noqa: ANN001 - a Path
    """An environment whose corpdir uses ``home`` for data, cache and state, on the small demo."""
    env = {**os.environ, "CORPDIR_DEMO_SIZE": DEMO_SIZE, "CORPDIR_DATA_DIR": str(home / "data"),
           "CORPDIR_CACHE_DIR": str(home / "cache"), "CORPDIR_STATE_DIR": str(home / "state"),
           "CORPDIR_CONFIG": os.devnull}
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


def corpdir_in_a_terminal(env: dict[str, str], done: Callable[[Screen], bool], cols: int = 120, rows: int = 36,
                          step: int = 65536, python: Sequence[str] = ("-m", "corpdir.cli"),
                          status: list[int] | None = None) -> str:
    """`corpdir --no-sync` under a pseudo-terminal of ``cols`` x ``rows``: the screen's text
    at the first moment ``done`` holds, read ``step`` bytes at a time as they arrive (a frame
    is drawn line by line: a small step sees its lines come), else as it stands when the app
    ends or after 60 s (it writes all along: its status bar counts); then Ctrl+Q.

    ``python``: the interpreter's arguments that run corpdir (a probe may run it); ``status``:
    the process's exit status is appended to it."""
    import fcntl
    import pty
    import select
    import signal
    import struct
    import subprocess
    import sys
    import termios
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    process = subprocess.Popen([sys.executable, *python, "--no-sync"], stdin=slave, stdout=slave,
                               stderr=slave, env={**env, "TERM": "xterm-256color"}, start_new_session=True)
    os.close(slave)
    screen = Screen(cols, rows)
    give_up = time.monotonic() + 60
    try:
        while time.monotonic() < give_up and select.select([master], [], [], 30)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the app ended (EIO: no one holds the terminal any more)
                break
            # the app's screen of its own (entered, left), which pyte does not keep apart: what
            # was written before it (stderr) is not on it, nor is it under what is written after
            for index, part in enumerate(re.split(rb"\x1b\[\?1049[hl]", chunk)):
                if index:
                    screen.screen.reset()
                for start in range(0, len(part), step):
                    screen.feed(part[start:start + step])
                    if done(screen):
                        return screen.text()
        return screen.text()
    finally:
        try:
            os.write(master, b"\x11")
        except OSError:  # it had ended
            pass
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(master)
        if status is not None:
            status.append(process.returncode)


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


async def openssh_login(port: int, identity, host: str = "127.0.0.1", timeout: int = 60) -> bool:  # noqa: ANN001 - a Path
    """Log in with the real OpenSSH client (``ssh -N``: no session, no app) and report
    whether it authenticated; ``ConnectTimeout`` bounds the connection and the key exchange."""
    process = await asyncio.create_subprocess_exec(
        "ssh", "-N", "-v", "-F", "/dev/null", "-p", str(port), "-i", str(identity), "-o", "IdentitiesOnly=yes",
        "-o", "IdentityAgent=none", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", f"ConnectTimeout={timeout}", "-o", "PreferredAuthentications=publickey",
        f"desk@{host}", stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE)
    assert process.stderr is not None
    try:
        async for line in process.stderr:  # -v says "Authenticated to HOST ..." once the key is accepted
            if line.startswith(b"Authenticated to"):
                return True
        return False
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()


class PreAuthFlood:
    """``count`` connections from ``source`` that send a version line and hold it until the
    server closes them, then reconnect at once: what locked real users out."""

    def __init__(self, port: int, source: str, count: int = 200) -> None:
        self.port, self.source, self.count = port, source, count
        self.opened = 0
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> PreAuthFlood:
        self._tasks = [asyncio.create_task(self._hold()) for _ in range(self.count)]
        return self

    async def _hold(self) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.source, 0))
            except OSError:
                await asyncio.sleep(0.01)
                continue
            self.opened += 1
            try:
                writer.write(b"SSH-2.0-OpenSSH_9.6 flood\r\n")
                while await reader.read(4096):
                    pass
            except OSError:
                pass
            finally:
                writer.close()

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def ssh_server_process(folder, key: asyncssh.SSHKey, *extra: str):  # noqa: ANN001 - a Path
    """A `corpdir ssh-server` process on a free port of 127.0.0.1 letting ``key`` in, its
    files in ``folder``: (process, port, its stderr stream, read up to the line naming the port)."""
    import sys

    authorized = folder / "authorized_keys"
    authorized.write_bytes(b"restrict,pty " + key.export_public_key("openssh"))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "corpdir.cli", "ssh-server", "--port", "0", "--host-key", str(folder / "host_key"),
        "--authorized-keys", str(authorized), *extra, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, env=os.environ.copy())
    assert process.stderr is not None
    async for line in process.stderr:
        if found := re.search(rb"corpdir ssh-server on [^ ]+:(\d+):", line):
            return process, int(found.group(1)), process.stderr
    raise AssertionError(f"the server did not start (exit {await process.wait()})")
