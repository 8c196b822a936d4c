"""`corpdir ring NUMBER` reaches every running TUI of this user through local sockets.

Each TUI listens on ``<runtime dir>/corpdir/ring-<random>.sock`` (the folder 0700, the
socket 0600: only this user can ring). `corpdir ring` sends one JSON line to each socket
it finds there and removes the ones nobody listens on any more (a TUI killed -9)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import stat
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpdir.calls.events import CallEvent, CallState, MalformedEvent
from corpdir.unix_socket import SUN_PATH, fits, temp_base
from corpdir.phone import digits

if TYPE_CHECKING:
    from corpdir.calls.hub import FeedLink

MAX_LINE = 4096
SOCKET_NAME = len("/ring-0123456789.sock")  # what a socket's name adds to its folder's path
_too_long_said: set[str] = set()


def runtime_dir() -> Path:
    """``$CORPDIR_RUNTIME_DIR``, else platformdirs' user runtime dir (/run/user/UID/corpdir).
    Where the system has none (no XDG_RUNTIME_DIR: an SSH login without systemd-logind, a
    container), platformdirs warns on stderr and falls back to a shared /tmp/runtime-UID;
    corpdir then uses its own private temp folder (:func:`_temp_dir`), silently. The
    warning comes once a process, so the fallback is also recognised by its answer not
    lying under $XDG_RUNTIME_DIR: every call gives the same folder. A folder too long for
    a socket's path (:mod:`corpdir.unix_socket`) gives the temp folder too; when that
    folder is ``$CORPDIR_RUNTIME_DIR``'s, a warning names it (once a process)."""
    override = os.environ.get("CORPDIR_RUNTIME_DIR")
    if override:
        if fits(override + "x" * SOCKET_NAME):
            return Path(override)
        folder = _temp_dir()
        if override not in _too_long_said:  # named once a process: the setting is the user's own
            _too_long_said.add(override)
            import logging

            logging.getLogger("corpdir.calls").warning(
                "corpdir: CORPDIR_RUNTIME_DIR is too long for a socket's path (%d bytes; a ring socket's name needs"
                " %d more within %d): the sockets are in %s instead", len(os.fsencode(override)), SOCKET_NAME,
                SUN_PATH - 1, folder)
        return folder
    xdg = os.environ.get("XDG_RUNTIME_DIR", "")
    if not os.path.isabs(xdg):
        return _temp_dir()
    import warnings

    import platformdirs

    with warnings.catch_warnings(record=True) as fell_back:
        warnings.simplefilter("always", platformdirs.RuntimeDirWarning)
        folder = Path(platformdirs.user_runtime_dir("corpdir"))
    usable = not fell_back and folder.is_relative_to(xdg) and fits(str(folder) + "x" * SOCKET_NAME)
    return folder if usable else _temp_dir()


def _temp_dir() -> Path:
    """``corpdir-UID`` in the temp dir, or in ``/tmp`` when a TMPDIR too long would leave
    no room for a socket's name."""
    name = f"corpdir-{os.getuid()}"
    return Path(temp_base(len(name) + 1 + SOCKET_NAME)) / name


def _private_dir() -> Path:
    """The runtime dir, 0700; where there is none (no /run/user/UID, e.g. a session without
    systemd-logind), a private folder under the temp dir. Either is refused if it is a
    symbolic link or someone else's (:func:`_open_own`)."""
    folder = runtime_dir()
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        _make(folder)
    except OSError:
        folder = _temp_dir()
        _make(folder)
    fd = _open_own(folder)
    try:
        os.fchmod(fd, 0o700)  # on the folder opened without following a link, never on a link's target
        if stat.S_IMODE(os.fstat(fd).st_mode) != 0o700:
            raise PermissionError(f"{folder} cannot be made private (mode 0700)")
    finally:
        os.close(fd)
    return folder


def _make(folder: Path) -> None:
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass  # checked by _open_own: a link or another user's folder placed there is refused


def _open_own(folder: Path) -> int:
    """``folder`` opened without following a symbolic link (O_NOFOLLOW), after checking it
    is a folder of this user's. The temp dir is shared: another user could have put a
    link there, ``/tmp/corpdir-0 -> /some/1777/folder``, so that a ring would go to their
    listener and a chmod to 0700 lock the link's target (``/tmp`` itself)."""
    if stat.S_ISLNK(os.lstat(folder).st_mode):
        raise PermissionError(f"{folder} is a symbolic link")
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:  # ELOOP: it became a link since the lstat; ENOTDIR: not a folder
        raise PermissionError(f"{folder} is not a folder of this user ({exc.strerror})") from None
    if os.fstat(fd).st_uid != os.getuid():
        os.close(fd)
        raise PermissionError(f"{folder} belongs to another user")
    return fd


def parse(line: bytes) -> CallEvent:
    """The event a line asks for; its call id is empty when the line gives none."""
    try:
        message = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MalformedEvent(f"not JSON: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("number", ""), str):
        raise MalformedEvent("expected an object with a 'number' string")
    try:
        state = CallState(message.get("state", "ringing"))
    except ValueError:
        raise MalformedEvent(f"unknown state {message.get('state')!r}") from None
    fields = {k: str(message.get(k) or "") for k in ("display_name", "line")}
    return CallEvent("", str(message.get("call_id") or ""), state, message.get("number", ""), **fields)


class RingSocketFeed:
    """The listening side, run by the hub like any feed."""

    name = "ring"
    records = False  # a script's ring is shown, not written to the history

    def __init__(self) -> None:
        self.path: Path | None = None
        self._count = 0
        self._newest: dict[str, str] = {}  # a number's digits: the call id of its newest ring without one

    def _call_id(self, event: CallEvent) -> CallEvent:
        """A ring without ``--call-id`` is a new call; a later state without one is the
        newest call from that number (`corpdir ring N --state ended` ends the card of
        `corpdir ring N`, it does not add a second one)."""
        if event.call_id:
            return event
        number = digits(event.number) or event.number
        if event.state is not CallState.RINGING and number in self._newest:
            return replace(event, call_id=self._newest[number])
        self._count += 1
        self._newest[number] = f"ring-{os.getpid()}-{self._count}"
        return replace(event, call_id=self._newest[number])

    async def run(self, link: FeedLink) -> None:
        folder = _private_dir()
        self.path = folder / f"ring-{secrets.token_hex(5)}.sock"  # two TUIs in one process too
        self.path.unlink(missing_ok=True)
        old = os.umask(0o177)
        try:
            server = await asyncio.start_unix_server(lambda r, w: self._serve(r, w, link), path=str(self.path))
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        link.connected()
        try:
            async with server:
                await server.serve_forever()
        finally:
            self.path.unlink(missing_ok=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: FeedLink) -> None:
        try:
            line = await reader.readline()
            try:
                link.emit(self._call_id(parse(line[:MAX_LINE])))
                writer.write(b"ok\n")
            except MalformedEvent as exc:
                link.skip(line, str(exc))
                writer.write(f"error: {exc}\n".encode())
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def close(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def ring(message: dict[str, Any], timeout: float = 2.0) -> tuple[int, list[str]]:
    """Send ``message`` to every listening TUI; (how many took it, problems)."""
    folder = runtime_dir()
    if not os.path.lexists(folder):
        folder = _temp_dir()
    if not os.path.lexists(folder):
        return 0, []
    try:
        fd = _open_own(folder)
    except OSError as exc:
        return 0, [str(exc)]
    try:
        if stat.S_IMODE(os.fstat(fd).st_mode) & 0o022:  # others could have put a socket there
            return 0, [f"{folder} is writable by others"]
    finally:
        os.close(fd)
    sent, problems = 0, []
    data = json.dumps(message).encode() + b"\n"  # ASCII: a lone surrogate travels as "\udcff", not as a crash
    for path in sorted(folder.glob("ring-*.sock")):
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                sock.connect(str(path))
                sock.sendall(data)
                answer = sock.makefile("rb").readline().decode(errors="replace").strip()
        except (ConnectionRefusedError, FileNotFoundError):
            path.unlink(missing_ok=True)  # its TUI is gone
            continue
        except OSError as exc:
            problems.append(f"{path.name}: {exc}")
            continue
        if answer == "ok":
            sent += 1
        else:
            problems.append(f"{path.name}: {answer or 'no answer'}")
    return sent, problems
