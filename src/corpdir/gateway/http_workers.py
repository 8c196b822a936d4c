"""The gateway on several cores: N worker processes, each with its own listening socket on the
same port (SO_REUSEPORT: the kernel spreads connections over them), its own event loop,
its own read-only connections to the cache and its own precomputed replies
(:mod:`.precomputed`).

One event loop is one core; a Python process cannot use a second one for requests (the
GIL), so the gateway forks. Only the first worker (the primary) syncs the cache and asks
the service about numbers the cache lacks (N1): a sync in every worker would write the
same file N times, and the rate budget reserved for N1 would be spent N times over. The
other workers hand such a number to the primary over a Unix socket in a private folder
(mode 0700) and answer with what it returns, within their own deadline; what the primary
fetched is in the cache by the next call, for every worker.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import shutil
import signal
import socket
import struct
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from corpdir.gateway.httpserver import run
from corpdir.unix_socket import temp_base

if TYPE_CHECKING:
    from corpdir.gateway.app import GatewayApp
    from corpdir.service.identify import Identity

Build = Callable[[bool], "GatewayApp"]  # primary -> the app (the primary's syncs and asks the service)


def serve(build: Build, host: str, port: int, workers: int | None) -> int:
    """Serve until SIGINT or SIGTERM with ``workers`` processes (:func:`worker_count`);
    returns the exit status."""
    workers = worker_count(workers)
    if workers == 1:
        app = build(True)
        run(app, app.fast, host, port)
        return 0
    # 0700: only this user reaches the relay; under /tmp when TMPDIR leaves no room for its path
    folder = Path(tempfile.mkdtemp(prefix="corpdir-gateway-", dir=temp_base(len("/corpdir-gateway-01234567/n1.sock"))))
    relay = str(folder / "n1.sock")
    holder = _socket(host, port)  # bound, not listening: holds the port (and picks it when port is 0)
    port = holder.getsockname()[1]
    children: list[int] = []
    stopping: list[int] = []

    def forward(signum: int, frame: Any) -> None:
        """SIGINT/SIGTERM to the gateway: SIGTERM to each worker (one that ended: the others)."""
        stopping.append(signum)
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, forward)  # before the first fork: a stop while forking is not lost
    signal.signal(signal.SIGINT, forward)
    parent = os.getpid()
    for index in range(workers):
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the caller's code
            status = 1
            try:
                holder.close()
                _end_with(parent)
                status = _worker(build, host, port, index == 0, relay)
            finally:
                os._exit(status)
        children.append(pid)
    holder.close()
    if stopping:
        forward(signal.SIGTERM, None)
    return _supervise(children, forward, folder)


def worker_count(asked: int | None) -> int:
    """``asked``, else one a core but one: a core is left to what a request costs outside the
    worker (the kernel's half of each request, the PBX or other clients on the same box, the
    sync). On two cores one worker answered 3.3x slapd's requests/s with a p99 a third of
    the two workers' (0.28 against 0.45-3.1 ms at 8 connections): two event loops and the
    clients on two cores take turns by the scheduler's time slice (docs/performance.md,
    "Gateway"). One where the kernel does not spread connections over SO_REUSEPORT sockets
    (only Linux does) or a process cannot fork."""
    if not sys.platform.startswith("linux"):
        return 1
    return max(1, asked or (os.cpu_count() or 1) - 1)


def _end_with(parent: int) -> None:
    """A worker ends with the gateway's first process, even one killed outright (Linux:
    PR_SET_PDEATHSIG), instead of holding the port on its own."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: ended by _supervise's SIGTERM only
        pass
    if os.getppid() != parent:  # it died before the line above
        os._exit(0)


def _socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def _supervise(children: list[int], forward: Callable[[int, Any], None], folder: Path) -> int:
    """Wait for the workers; when one ends, end the others."""
    status = 0
    try:
        while children:
            pid, code = os.wait()
            if pid in children:
                children.remove(pid)
                status = status or os.waitstatus_to_exitcode(code)
                forward(signal.SIGTERM, None)  # a worker that ended takes the gateway down: no silent half
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return status


def _worker(build: Build, host: str, port: int, primary: bool, relay: str) -> int:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # run() installs the loop's own handlers
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    app = build(primary)
    lookup = app.gateway.lookup
    started = None
    if primary and lookup.ask:
        ask = lookup.ask_service
        started = lambda: asyncio.start_unix_server(lambda r, w: _answer(r, w, ask), relay)  # noqa: E731
    elif lookup.ask:
        lookup.ask_service = lambda forms: _ask_primary(relay, forms)
    sock = _socket(host, port)
    sock.listen(1024)
    sock.setblocking(False)
    run(app, app.fast, host, port, sock=sock, started=started)
    return 0


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, ask: Any) -> None:
    """The primary's side: one number's spellings in (a JSON line), the service's answer out."""
    try:
        forms = json.loads(await reader.readline())
        data = pickle.dumps(await ask(forms))
        writer.write(struct.pack("!I", len(data)) + data)
        await writer.drain()
    finally:
        writer.close()


async def _ask_primary(relay: str, forms: list[str]) -> Identity | None:
    """Another worker's side: the primary asks the service, once, from its rate budget.
    (pickle between this gateway's own processes, over a socket only this user can open)"""
    reader, writer = await asyncio.open_unix_connection(relay)
    try:
        writer.write(json.dumps(forms).encode() + b"\n")
        await writer.drain()
        size = struct.unpack("!I", await reader.readexactly(4))[0]
        return pickle.loads(await reader.readexactly(size))  # noqa: S301 - our own primary's answer
    finally:
        writer.close()
