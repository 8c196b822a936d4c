"""One directory app as a child process on its own pseudo-terminal.

The child gets the PTY's slave as stdin, stdout and stderr (Textual draws on stderr),
becomes a session leader with the slave as its controlling terminal (``setsid`` +
``TIOCSCTTY``: without it no SIGWINCH reaches the app when the window changes), and
starts at the size the SSH client asked for. The parent keeps only the master: what
the app draws is read from it and handed to ``on_output``; what the user types is
written to it. ``close()`` ends the child's whole process group (SIGHUP, then SIGTERM,
then SIGKILL) and reaps it.

The child is either a fresh ``python -m corpdir.cli`` (:meth:`PtyChild.start`) or a fork of
the server's warm template process (:meth:`PtyChild.fork`, see :mod:`corpdir.ssh.template`),
which starts in a fraction of the time; both look the same from here.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import termios
from typing import TYPE_CHECKING, Awaitable, Callable, Mapping, Sequence

if TYPE_CHECKING:
    from corpdir.ssh.template import AppTemplate

READ_SIZE = 65536


def set_winsize(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(1, rows), max(1, cols), 0, 0))


def quiet_terminal(fd: int) -> None:
    """No XON/XOFF flow control and no echo from the very start: Ctrl+Q and Ctrl+S typed
    before the app has set up its terminal would otherwise be eaten by the tty driver (or
    freeze the output), and early keys echoed over the first screen."""
    attrs = termios.tcgetattr(fd)
    attrs[0] &= ~(termios.IXON | termios.IXOFF)
    attrs[3] &= ~(termios.ECHO | termios.ECHONL)
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def _become_session_leader() -> None:  # runs in the child between fork and exec
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _open_pty(cols: int, rows: int) -> tuple[int, int]:
    master, slave = os.openpty()
    set_winsize(slave, cols, rows)  # before the app starts: it reads its size once, at once
    quiet_terminal(slave)
    os.set_blocking(master, False)
    return master, slave


async def _template_child_exit(template: AppTemplate, pid: int) -> int | None:
    """The exit status the template reports; if the template itself ends first, the child
    is no longer anyone's to reap here, so its end is watched for instead (status unknown)."""
    from corpdir.ssh.template import TemplateError

    try:
        return await template.wait(pid)
    except TemplateError:
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return None
            await asyncio.sleep(0.1)


class PtyChild:
    """A process on a new PTY. Use ``await PtyChild.start(...)``."""

    def __init__(self, pid: int, exited: Awaitable[int | None], master: int, on_output: Callable[[bytes], None],
                 on_exit: Callable[[int | None], None]) -> None:
        self.pid = pid
        self._exited = exited
        self.master = master
        self._on_output = on_output
        self._on_exit = on_exit
        self._loop = asyncio.get_running_loop()
        self._pending = bytearray()  # typed input the PTY could not take yet
        self._reading = False
        self._closed = False
        self.returncode: int | None = None
        self._waiter = asyncio.create_task(self._wait())
        self.resume_output()

    @classmethod
    async def start(cls, argv: Sequence[str], env: Mapping[str, str], cols: int, rows: int, *,
                    on_output: Callable[[bytes], None], on_exit: Callable[[int | None], None],
                    cwd: str | None = None) -> PtyChild:
        """A fresh process running ``argv``."""
        master, slave = _open_pty(cols, rows)
        try:
            process = await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=dict(env), cwd=cwd,
                preexec_fn=_become_session_leader, close_fds=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # the parent keeps only the master
        return cls(process.pid, process.wait(), master, on_output, on_exit)

    @classmethod
    async def fork(cls, template: AppTemplate, args: Sequence[str], env: Mapping[str, str], cols: int, rows: int, *,
                   on_output: Callable[[bytes], None], on_exit: Callable[[int | None], None], cwd: str) -> PtyChild:
        """``corpdir ARGS`` forked from the warm template (raises TemplateError if it cannot)."""
        master, slave = _open_pty(cols, rows)
        try:
            pid = await template.spawn(args, env, slave, cwd)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        return cls(pid, _template_child_exit(template, pid), master, on_output, on_exit)

    # -- output: app -> client -------------------------------------------------------------
    def pause_output(self) -> None:
        """Stop reading the app's output (the client is slow; the PTY then blocks the app)."""
        if self._reading:
            self._loop.remove_reader(self.master)
            self._reading = False

    def resume_output(self) -> None:
        if not self._reading and not self._closed:
            self._loop.add_reader(self.master, self._read)
            self._reading = True

    def _read(self) -> None:
        try:
            data = os.read(self.master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:  # EIO: the child closed its side (it exited)
            data = b""
        if not data:
            self.pause_output()
            return
        self._on_output(data)

    # -- input: client -> app --------------------------------------------------------------
    def write(self, data: bytes) -> None:
        if self._closed:
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        while self._pending and not self._closed:
            try:
                written = os.write(self.master, self._pending)
            except BlockingIOError:
                self._loop.add_writer(self.master, self._flush_ready)
                return
            except OSError:
                self._pending.clear()
                return
            del self._pending[:written]

    def _flush_ready(self) -> None:
        self._loop.remove_writer(self.master)
        self._flush()

    def resize(self, cols: int, rows: int) -> None:
        """The client's window changed: tell the PTY (the kernel signals the foreground
        group) and the app's group directly, in case it is not in the foreground."""
        if self._closed:
            return
        set_winsize(self.master, cols, rows)
        self._signal(signal.SIGWINCH)

    # -- the end -----------------------------------------------------------------------------
    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)  # the child is its own session and group leader
        except (ProcessLookupError, PermissionError):
            pass

    async def _wait(self) -> None:
        self.returncode = await self._exited
        # drain what the app drew last (its goodbye), then report
        if not self._closed:
            while True:
                try:
                    data = os.read(self.master, READ_SIZE)
                except OSError:
                    break
                if not data:
                    break
                self._on_output(data)
        self._on_exit(self.returncode)

    async def close(self, grace: float = 2.0) -> int | None:
        """End the child and everything it started; returns its exit status."""
        if self.returncode is None:
            for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
                self._signal(sig)
                try:
                    await asyncio.wait_for(asyncio.shield(self._waiter), grace)
                    break
                except asyncio.TimeoutError:
                    continue
        else:
            await self._waiter
        self._signal(signal.SIGKILL)  # anything the app left behind in its group
        self._release()
        return self.returncode

    def _release(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.pause_output()
        self._loop.remove_writer(self.master)
        try:
            os.close(self.master)
        except OSError:
            pass
