"""One SSH session: the directory app on a PTY (forked from the warm template, or a fresh
process), its bytes both ways, its idle timeout and its end; and the gate that lets apps
start a few at a time. :mod:`corpdir.ssh.server` admits connections and logs them in;
what a logged-in client opens is this."""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
import time
from typing import TYPE_CHECKING, Any, Mapping

import asyncssh

from corpdir.tui.start_queue import ENV

if TYPE_CHECKING:
    from corpdir.ssh.server import _Connection
    from corpdir.ssh.session import PtyChild

log = logging.getLogger("corpdir.ssh")

# Puts the client's terminal back when the server ends an app the hard way (idle, shutdown).
TERMINAL_RESET = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?1004l"
                  b"\x1b[?1049l\x1b[?25h\x1b[0m\r\n")


class StartGate:
    """At most ``slots`` apps starting at once; the others wait their turn, in order.

    An app spends ~0.15 s of CPU from its fork to its first screen. Twenty sessions opening
    together on two cores, all started at once, share the CPU fairly and so all get their
    first screen at about the end (median = p95 = the whole 20 x 0.15 s / 2); started one a
    core, in order, each is on screen as soon as its own start is done, and the median
    halves. A slot is given back when the app has drawn a whole screen (at least one byte
    a cell: a first frame), ends, or fails, or after ``hold`` seconds at most, so a slow
    app cannot stop the others.

    While sessions wait, the apps started meanwhile are told to hold back what they do
    after their first rows (:mod:`corpdir.tui.start_queue`): the gate keeps a FIFO's
    writing end open until no session waits or starts, and names it in their environment.
    It closes ``linger`` seconds after the last slot is given back, not at once: a slot is
    given back at the app's first frame, and the last apps' rows come a frame or two later;
    closed at once, every app of the burst would start its held-back work then, and push
    those rows back by as much."""

    def __init__(self, slots: int, hold: float = 3.0, linger: float = 0.5) -> None:
        self._free = asyncio.Semaphore(slots)
        self.hold = hold
        self.waiting = 0
        self.starting = 0
        self.linger = linger
        self._queue: tuple[str, int] | None = None  # the FIFO's path and the writing end held open
        self._closing: asyncio.TimerHandle | None = None

    async def enter(self) -> _Slot:
        self.waiting += 1
        if self._closing is not None:  # a burst goes on: the queue stays
            self._closing.cancel()
            self._closing = None
        if self._queue is None and (self.starting or self.waiting > 1):
            self._open_queue()
        try:
            await self._free.acquire()
        except BaseException:  # cancelled while waiting: it may have been the last one
            self.waiting -= 1
            self._maybe_idle()
            raise
        self.waiting -= 1
        self.starting += 1
        return _Slot(self)

    def queue_env(self) -> dict[str, str]:
        """For an app starting now: the queue to wait on, if sessions are waiting."""
        return {ENV: self._queue[0]} if self._queue is not None else {}

    def _left(self) -> None:
        self.starting -= 1
        self._free.release()
        self._maybe_idle()

    def _maybe_idle(self) -> None:
        if not self.starting and not self.waiting and self._queue is not None and self._closing is None:
            self._closing = asyncio.get_running_loop().call_later(self.linger, self.close)

    def _open_queue(self) -> None:
        path = os.path.join(tempfile.mkdtemp(prefix="corpdir-start-"), "queue")  # 0700: this server's user only
        os.mkfifo(path, 0o600)
        self._queue = (path, os.open(path, os.O_RDWR | os.O_NONBLOCK))  # read-write: opening never blocks

    def close(self) -> None:
        """The queue emptied (or the server ends): every app waiting on it goes on."""
        if self._closing is not None:
            self._closing.cancel()
            self._closing = None
        if self._queue is not None:
            path, fd = self._queue
            self._queue = None
            os.close(fd)
            os.unlink(path)
            os.rmdir(os.path.dirname(path))


class _Slot:
    def __init__(self, gate: StartGate) -> None:
        self._gate: StartGate | None = gate
        self._timer = asyncio.get_running_loop().call_later(gate.hold, self.leave)
        self.drawn = 0

    def output(self, size: int, cells: int) -> None:
        self.drawn += size
        if self.drawn >= cells:
            self.leave()

    def leave(self) -> None:
        if self._gate is not None:
            gate, self._gate = self._gate, None
            self._timer.cancel()
            gate._left()


class TuiSession(asyncssh.SSHServerSession):
    """One SSH session: the directory app on a PTY, until either side goes."""

    def __init__(self, connection: _Connection) -> None:
        self.connection = connection
        self.server = connection.server
        self.chan: asyncssh.SSHServerChannel | None = None
        self.term = ""
        self.size = (80, 24)
        self.has_pty = False
        self.child: PtyChild | None = None
        self.last_input = time.monotonic()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ending = False
        self._slot: _Slot | None = None  # while the app is starting (see StartGate)

    # -- what the client asks for ------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]) -> bool:
        line = self.connection.key_line
        if line is not None and not line.allows_pty:  # no-pty, or restrict without pty: as sshd would
            c = self.connection
            log.warning("refused pty user=%s key=%s peer=%s: authorized_keys line %d allows none", c.username,
                        c.fingerprint, c.peer, line.line)
            return False
        self.has_pty = True
        self.term = term_type
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        c = self.connection
        log.warning("refused exec user=%s key=%s peer=%s", c.username, c.fingerprint, c.peer)  # the command may hold secrets
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        c = self.connection
        log.warning("refused subsystem %r user=%s key=%s peer=%s", subsystem[:40], c.username, c.fingerprint, c.peer)
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if not self.has_pty:
            self.chan.write(b"corpdir needs a terminal: connect with ssh -t\r\n")
            self.chan.exit(1)
            return
        self._spawn(self._start())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _start(self) -> None:
        c = self.connection
        assert c.profile is not None and self.chan is not None
        self._slot = await self.server.start_gate.enter()
        if self._ending:  # the client left while waiting for its turn
            self._slot.leave()
            return
        try:
            env = {**self.server.child_env(c.profile, c.fingerprint, self.term), **self.server.start_gate.queue_env()}
            self.child = await self.server.start_child(c.profile, env, self.size, self._output, self._child_exited)
        except Exception as exc:  # noqa: BLE001 - told to the user and logged, never a traceback to the client
            self._slot.leave()
            log.error("session failed to start user=%s key=%s peer=%s: %s", c.username, c.fingerprint, c.peer,
                      type(exc).__name__)
            self.chan.write(b"corpdir could not start the directory; please tell the administrator.\r\n")
            self.chan.exit(1)
            return
        if self._ending:  # the client left while the app was starting
            self._slot.leave()
            await self.child.close(self.server.config.close_grace)
            return
        self.last_input = time.monotonic()  # idle from when the app is there, not from the request
        log.info("session user=%s key=%s peer=%s pid=%d size=%dx%d", c.username, c.fingerprint, c.peer,
                 self.child.pid, *self.size)
        if self.server.config.idle_timeout:
            self._spawn(self._watch_idle(self.server.config.idle_timeout))

    # -- data both ways --------------------------------------------------------------------------
    def _output(self, data: bytes) -> None:
        if self._slot is not None:
            self._slot.output(len(data), self.size[0] * self.size[1])
        if self.chan is not None and not self._ending:
            try:
                self.chan.write(data)
            except (OSError, asyncssh.Error):  # the client is gone; connection_lost ends the app
                pass

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.last_input = time.monotonic()
        if self.child is not None:
            self.child.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.child is not None:
                self.child.resize(width, height)

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause_output()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume_output()

    def break_received(self, msec: int) -> bool:
        return True  # ignored: nothing to interrupt

    def signal_received(self, signal: str) -> None:
        pass  # a client's signals do not reach the app

    # -- the end ---------------------------------------------------------------------------------
    def _child_exited(self, returncode: int | None) -> None:
        if self._slot is not None:
            self._slot.leave()
        if self.chan is not None and not self._ending:
            self._ending = True
            self.chan.exit(returncode if returncode and returncode > 0 else 0)
        self._spawn(self._cleanup())

    def eof_received(self) -> bool:
        self._spawn(self.end(None))
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._spawn(self.end(None))

    async def _watch_idle(self, timeout: float) -> None:
        while not self._ending:
            remaining = self.last_input + timeout - time.monotonic()
            if remaining <= 0:
                c = self.connection
                log.info("idle timeout user=%s key=%s peer=%s after %gs", c.username, c.fingerprint, c.peer, timeout)
                await self.end(f"Disconnected: no key pressed for {timeout:g} seconds.")
                return
            await asyncio.sleep(remaining)

    async def end(self, message: str | None) -> None:
        """Close the session: the app and its process group first, then the channel."""
        first = not self._ending
        self._ending = True
        if self._slot is not None:
            self._slot.leave()
        if self.child is not None:
            await self.child.close(self.server.config.close_grace)
        if first and self.chan is not None and message is not None:
            try:
                self.chan.write(TERMINAL_RESET + message.encode() + b"\r\n")
                self.chan.exit(0)
            except (OSError, asyncssh.Error, BrokenPipeError):
                pass
        elif first and self.chan is not None:
            self.chan.close()
        await self._cleanup()

    async def _cleanup(self) -> None:
        if self.child is not None:
            await self.child.close(self.server.config.close_grace)
        self.server.sessions.discard(self)
