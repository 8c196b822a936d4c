"""A warm, fully imported template process that forks each SSH session's app.

Starting Python and importing Textual, pydantic, httpx and corpdir costs each session
about a second of CPU before it draws anything, and 20 sessions opening at once on two
cores queue behind each other (median 13.5 s to a first screen). The template pays that
once: it imports every module the app uses, freezes them out of the garbage collector
(so no collection touches, and un-shares, their pages) and then forks one child per
session. A child shares the template's memory copy-on-write and starts at ``main()``.

Isolation is the same as a fresh process's: each child is a new session and process group
(``setsid``) with the session's PTY as its controlling terminal, its own environment (the
profile's API key only there, never on a command line), its own working directory, and it
is ended with its group by the SSH server. The template itself holds no secret: it runs
with the server's environment and receives each session's environment only to hand it to
that child.

Protocol, on a ``SOCK_SEQPACKET`` socket pair (one JSON object a packet):
server -> template: ``{"id", "args", "env", "cwd"}`` with the PTY's slave fd (SCM_RIGHTS);
template -> server: ``{"ready": true}`` once, ``{"id", "pid"}`` or ``{"id", "error"}`` per
request, and ``{"exit": pid, "code": status}`` when a child ends (the template reaps them).
"""

from __future__ import annotations

import asyncio
import fcntl
import gc
import importlib
import json
import os
import pkgutil
import selectors
import signal
import socket
import subprocess
import sys
import termios
import traceback
from typing import Any, Callable, Mapping, Sequence

MAX_PACKET = 1 << 20
#: What the template imports before it forks: every module a session's app may load.
PRELOAD_PACKAGES = ("corpdir.tui", "corpdir.service", "corpdir.cache", "corpdir.client", "corpdir.spec",
                    "corpdir.server", "corpdir.calls", "corpdir.config")  # config: each section's module (its package imports none)
PRELOAD_MODULES = ("corpdir.cli", "corpdir.commands.tui", "textual.app", "textual.widgets",
                   "httpx", "pydantic", "PIL.Image", "phonenumbers",
                   # what Textual imports only once an app runs on a terminal: each session did it
                   "textual.drivers.linux_driver", "textual._xterm_parser", "textual.layouts.factory",
                   "textual.layouts.horizontal", "textual.layouts.stream", "backports.zstd")


def unicode_table() -> str:
    """Rich's cell-width table of the newest Unicode version (what a session loads unless
    UNICODE_VERSION says otherwise): the module only, each session still picks its own."""
    from rich._unicode_data._versions import VERSIONS

    return "rich._unicode_data.unicode" + VERSIONS[-1].replace(".", "-")


# -- the template process -----------------------------------------------------------------------
def preload() -> list[str]:
    """Import what the app will; returns the modules that could not be imported (reported by
    the server's log: a session then imports them itself, as a fresh process would)."""
    missing = []
    names = [*PRELOAD_MODULES, unicode_table()]
    for package in PRELOAD_PACKAGES:
        try:
            module = importlib.import_module(package)
        except ImportError:
            missing.append(package)
            continue
        names += [info.name for info in pkgutil.walk_packages(module.__path__, package + ".")]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - an optional part the app may never load; named in the log
            missing.append(name)
    return missing


def _run_child(slave: int, args: list[str], env: Mapping[str, str], cwd: str) -> int:
    """In the forked child: become the session's process, then run ``corpdir`` as ``main`` would."""
    os.setsid()
    for target in (0, 1, 2):
        os.dup2(slave, target)
    if slave > 2:
        os.close(slave)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.argv = ["corpdir", *args]
    from corpdir.cli import main

    return main(args)


def _fork(request: dict[str, Any], slave: int, closing: Sequence[Callable[[], None]]) -> int:
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for close in closing:  # the template's ends of its channels are not the child's
            close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        code = _run_child(slave, request["args"], request["env"], request["cwd"])
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # noqa: BLE001 - told on the session's terminal, like a crashed process
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    return 0  # not reached


def serve(channel: socket.socket) -> None:
    """The template's loop: fork on each request, report each child's end; stop when the
    server goes (its end of the channel closes)."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when the template ends
    selector = selectors.DefaultSelector()
    selector.register(channel, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    closing = (selector.close, channel.close, lambda: os.close(wake_read), lambda: os.close(wake_write))

    def send(message: dict[str, Any]) -> None:
        channel.send(json.dumps(message).encode())

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            send({"exit": pid, "code": os.waitstatus_to_exitcode(status)})

    while True:
        for key, _ in selector.select():
            if key.fileobj == wake_read:
                os.read(wake_read, 4096)
                reap()
                continue
            data, fds, _flags, _addr = socket.recv_fds(channel, MAX_PACKET, 1)
            if not data:
                return  # the server is gone; its sessions' apps end with their PTYs
            request = json.loads(data)
            try:
                if len(fds) != 1:
                    raise ValueError("a request carries exactly one PTY")
                send({"id": request["id"], "pid": _fork(request, fds[0], closing)})
            except Exception as exc:  # noqa: BLE001 - reported to the server, which falls back to a fresh process
                send({"id": request.get("id"), "error": f"{type(exc).__name__}: {exc}"})
            finally:
                for fd in fds:
                    os.close(fd)


def main() -> None:
    channel = socket.socket(fileno=int(sys.argv[1]))
    missing = preload()
    gc.collect()
    gc.freeze()  # what is loaded now stays out of every collection: shared pages stay shared
    channel.send(json.dumps({"ready": True, "missing": missing}).encode())
    serve(channel)


# -- the server's side ---------------------------------------------------------------------------
class TemplateError(RuntimeError):
    """The template could not fork a session (the server then starts a fresh process)."""


class AppTemplate:
    """The server's handle on its template process. ``await AppTemplate.start(env)``."""

    def __init__(self, process: subprocess.Popen[bytes], channel: socket.socket, missing: list[str]) -> None:
        self.process = process
        self.channel = channel
        self.missing = missing
        self._loop = asyncio.get_running_loop()
        self._next_id = 0
        self._replies: dict[int, asyncio.Future[int]] = {}
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._early_exits: dict[int, int] = {}  # a child that ended before anyone asked
        self.alive = True
        self._loop.add_reader(channel.fileno(), self._receive)

    @classmethod
    async def start(cls, env: Mapping[str, str], python: str = sys.executable, timeout: float = 120.0) -> AppTemplate:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = subprocess.Popen([python, "-m", "corpdir.ssh.template", str(theirs.fileno())],
                                       pass_fds=[theirs.fileno()], env=dict(env), stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, start_new_session=True)
        finally:
            theirs.close()
        ours.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            ready = json.loads(await asyncio.wait_for(loop.sock_recv(ours, MAX_PACKET), timeout) or b"{}")
        except (asyncio.TimeoutError, ValueError) as exc:
            process.kill()
            ours.close()
            raise TemplateError(f"the template process did not start ({type(exc).__name__})") from None
        if not ready.get("ready"):
            process.kill()
            ours.close()
            raise TemplateError(f"the template process ended at start (status {process.wait()})")
        return cls(process, ours, ready.get("missing", []))

    @property
    def pid(self) -> int:
        return self.process.pid

    def _receive(self) -> None:
        try:
            data = self.channel.recv(MAX_PACKET)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._gone()
            return
        message = json.loads(data)
        if "exit" in message:
            waiter = self._exits.pop(message["exit"], None)
            if waiter is None:
                self._early_exits[message["exit"]] = message["code"]
            elif not waiter.done():
                waiter.set_result(message["code"])
            return
        reply = self._replies.pop(message.get("id"), None)
        if reply is not None and not reply.done():
            if "pid" in message:
                reply.set_result(message["pid"])
            else:
                reply.set_exception(TemplateError(message.get("error", "refused")))

    def _gone(self) -> None:
        """The template ended: nothing more forks from it, and its children's ends are unknown."""
        if not self.alive:
            return
        self.alive = False
        self._loop.remove_reader(self.channel.fileno())
        if self.process.poll() is None:  # reaped when it has ended, so no zombie is left behind
            self._loop.run_in_executor(None, self.process.wait)
        for future in [*self._replies.values(), *self._exits.values()]:
            if not future.done():
                future.set_exception(TemplateError("the template process ended"))
        self._replies.clear()
        self._exits.clear()

    async def spawn(self, args: Sequence[str], env: Mapping[str, str], slave: int, cwd: str) -> int:
        """Fork a session's app on ``slave``; returns its pid."""
        if not self.alive:
            raise TemplateError("the template process has ended")
        self._next_id += 1
        reply: asyncio.Future[int] = self._loop.create_future()
        self._replies[self._next_id] = reply
        request = json.dumps({"id": self._next_id, "args": list(args), "env": dict(env), "cwd": cwd}).encode()
        socket.send_fds(self.channel, [request], [slave])
        return await reply

    async def wait(self, pid: int) -> int:
        """The exit status of a child it forked (as ``Popen.returncode`` gives it)."""
        if pid in self._early_exits:
            return self._early_exits.pop(pid)
        if not self.alive:
            raise TemplateError("the template process has ended")
        waiter = self._exits.setdefault(pid, self._loop.create_future())
        return await waiter

    async def close(self) -> None:
        self._gone()
        self.channel.close()
        try:
            await asyncio.wait_for(asyncio.to_thread(self.process.wait), 5)
        except asyncio.TimeoutError:
            self.process.kill()
            await asyncio.to_thread(self.process.wait)


if __name__ == "__main__":
    main()
