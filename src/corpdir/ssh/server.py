"""The SSH server: public-key login, one read-only directory app per session, nothing else.

Each session runs ``corpdir --read-only`` (or what the key's profile says) in its own
process on its own PTY (:mod:`corpdir.ssh.session`), forked from a warm template process
that has already imported the app (:mod:`corpdir.ssh.template`). Refused: passwords,
keyboard-interactive, host-based and GSS login; exec and subsystem requests (so no
sftp/scp), port and socket forwarding, agent and X11 forwarding. A session without a
PTY is told to use ``ssh -t`` and closed.

Logged (logger ``corpdir.ssh``): connects, refusals and disconnects with the user name,
the key's SHA256 fingerprint, the profile's name, the peer address and the duration.
Never logged: API keys, the profile's environment, what was typed or shown.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import asyncssh
import platformdirs

from corpdir.ssh.authorized import AuthorizedKey, KeyRing, SessionProfile, key_id
from corpdir.ssh.hostkey import load_or_create_host_key
from corpdir.ssh.session import PtyChild
from corpdir.ssh.template import AppTemplate, TemplateError

log = logging.getLogger("corpdir.ssh")

# Puts the client's terminal back when the server ends an app the hard way (idle, shutdown).
TERMINAL_RESET = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?1004l"
                  b"\x1b[?1049l\x1b[?25h\x1b[0m\r\n")
# Variables of the server's environment a profile's session must not inherit.
SERVICE_ENV = ("CORPDIR_BASE_URL", "CORPDIR_API_KEY", "CORPDIR_API_KEY_FILE", "CORPDIR_KEYRING_SERVICE",
               "CORPDIR_KEYRING_USERNAME", "CORPDIR_VARIANT", "CORPDIR_REGION", "CORPDIR_ROUTING_FILE",
               "CORPDIR_READ_ONLY")
NEVER_INHERITED = ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "DISPLAY",
                   "COLUMNS", "LINES")


@dataclass
class ServerConfig:
    keys: KeyRing
    host_key: Path
    host: str = "127.0.0.1"
    port: int = 2222  # 0: any free port (tests)
    idle_timeout: float | None = 15 * 60  # seconds without a keystroke; None: never
    max_sessions: int = 20
    # connections not yet logged in at once; more are dropped at once (sshd's MaxStartups).
    # None: max_sessions, so that as many clients as may have sessions can all open at once
    # (with a fixed 10, the 11th to 20th of 20 desks opening together were dropped)
    max_startups: int | None = None
    login_timeout: float = 30.0
    child_argv: Sequence[str] = (sys.executable, "-m", "corpdir.cli")
    warm: bool = True  # fork sessions from a pre-imported template process (corpdir.ssh.template)
    base_env: Mapping[str, str] | None = None  # None: this process's environment
    close_grace: float = 2.0  # seconds the app gets to exit after SIGHUP, then SIGTERM
    starting: int | None = None  # apps starting at once (see StartGate); None: one a CPU


def loggable(text: str, limit: int = 64) -> str:
    """A client-chosen string (the user name) fit for a log line: control characters,
    spaces and backslashes escaped, so a name cannot forge a line or a field; cut short."""
    shown = "".join(c if c.isprintable() and not c.isspace() and c != "\\" else f"\\x{ord(c):02x}" if ord(c) < 256
                    else f"\\u{ord(c):04x}" for c in text[:limit])
    return shown + ("..." if len(text) > limit else "") if text else "-"


class StartGate:
    """At most ``slots`` apps starting at once; the others wait their turn, in order.

    An app spends ~0.3 s of CPU from its fork to its first screen. Twenty sessions opening
    together on two cores, all started at once, share the CPU fairly and so all get their
    first screen at about the end (median = p95 = the whole 20 x 0.3 s / 2); started one a
    core, in order, each is on screen as soon as its own start is done, and the median
    halves. A slot is given back when the app has drawn a whole screen (at least one byte
    a cell: a first frame), ends, or fails, or after ``hold`` seconds at most, so a slow
    app cannot stop the others."""

    def __init__(self, slots: int, hold: float = 3.0) -> None:
        self._free = asyncio.Semaphore(slots)
        self.hold = hold

    async def enter(self) -> _Slot:
        await self._free.acquire()
        return _Slot(self._free, self.hold)


class _Slot:
    def __init__(self, free: asyncio.Semaphore, hold: float) -> None:
        self._free: asyncio.Semaphore | None = free
        self._timer = asyncio.get_running_loop().call_later(hold, self.leave)
        self.drawn = 0

    def output(self, size: int, cells: int) -> None:
        self.drawn += size
        if self.drawn >= cells:
            self.leave()

    def leave(self) -> None:
        if self._free is not None:
            self._free.release()
            self._free = None
            self._timer.cancel()


def _peer(conn: asyncssh.SSHServerConnection) -> str:
    peer = conn.get_extra_info("peername") or ("?", 0)
    return f"{peer[0]}:{peer[1]}"


class DirectoryServer:
    """Start with ``await server.start()``; ``await server.close()`` ends every session."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.sessions: set[TuiSession] = set()
        self.unauthenticated = 0  # connections that have not finished logging in
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.port: int | None = None
        self.template: AppTemplate | None = None
        self.start_gate = StartGate(config.starting or os.cpu_count() or 2)

    async def start(self) -> None:
        c = self.config
        if c.warm and tuple(c.child_argv) == (sys.executable, "-m", "corpdir.cli"):
            await self.start_template()
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self), c.host, c.port,
            server_host_keys=[load_or_create_host_key(c.host_key)],
            public_key_auth=True, password_auth=False, kbdint_auth=False, host_based_auth=False,
            gss_host=None, gss_kex=False, gss_auth=False,
            allow_pty=True, line_editor=False, encoding=None,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, sftp_factory=None,
            login_timeout=c.login_timeout, keepalive_interval=60, keepalive_count_max=3,
            server_version="corpdir",
        )
        self.port = self._acceptor.sockets[0].getsockname()[1]
        log.info("listening on %s:%d (max %d sessions, idle timeout %s)", c.host, self.port, c.max_sessions,
                 f"{c.idle_timeout:g}s" if c.idle_timeout else "off")

    async def close(self) -> None:
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
        await asyncio.gather(*(s.end("the directory server is shutting down") for s in list(self.sessions)),
                             return_exceptions=True)
        if self.template is not None:
            await self.template.close()

    async def start_template(self) -> None:
        """The warm process sessions fork from; without it (it failed, or ended) each session
        starts a fresh process, as before, and the log says so."""
        env = dict(os.environ if self.config.base_env is None else self.config.base_env)
        for name in (*NEVER_INHERITED, *SERVICE_ENV):
            env.pop(name, None)  # the template holds no session's service or secret
        try:
            self.template = await AppTemplate.start(env)
        except (TemplateError, OSError) as exc:
            log.warning("no warm template (%s): each session starts a fresh process", exc)
            return
        log.info("warm template pid=%d%s", self.template.pid,
                 f" (not preloaded: {', '.join(self.template.missing)})" if self.template.missing else "")

    async def start_child(self, profile: SessionProfile, env: Mapping[str, str], size: tuple[int, int],
                          on_output: Any, on_exit: Any) -> PtyChild:
        """A session's app: forked from the template when it is there, else a fresh process."""
        args = profile.child_args()
        if self.template is not None and self.template.alive:
            try:
                return await PtyChild.fork(self.template, args, env, *size, on_output=on_output, on_exit=on_exit,
                                           cwd=env["CORPDIR_STATE_DIR"])
            except (TemplateError, OSError) as exc:
                log.warning("the warm template could not fork a session (%s): starting a fresh process", exc)
        return await PtyChild.start([*self.config.child_argv, *args], env, *size, on_output=on_output,
                                    on_exit=on_exit, cwd=env["CORPDIR_STATE_DIR"])

    def child_env(self, profile: SessionProfile, fingerprint: str, term: str) -> dict[str, str]:
        base = dict(os.environ if self.config.base_env is None else self.config.base_env)
        for name in NEVER_INHERITED:
            base.pop(name, None)
        if not profile.inherit:  # the profile is the whole service configuration
            for name in SERVICE_ENV:
                base.pop(name, None)
            base["CORPDIR_CONFIG"] = os.devnull  # not the server's config file (its key is not theirs)
        state = Path(base.get("CORPDIR_STATE_DIR") or platformdirs.user_state_dir("corpdir"))
        per_key = state / "ssh" / fingerprint.replace("SHA256:", "").replace("/", "_").replace("+", "-")
        per_key.mkdir(parents=True, exist_ok=True)
        base["CORPDIR_STATE_DIR"] = str(per_key)  # theme and recent lookups per key, not shared
        base["TERM"] = term or "xterm-256color"
        base["COLORTERM"] = "truecolor"  # OpenSSH clients do not send it
        base["CORPDIR_SESSION"] = "ssh"  # no caller pop-ups here unless [calls] every_session (commands/tui.py)
        if not (base.get("LANG") or base.get("LC_ALL")):
            base["LANG"] = "C.UTF-8"
        base.update(profile.child_env())
        return base


class _Connection(asyncssh.SSHServer):
    """One client connection: authentication, and the sessions it opens."""

    def __init__(self, server: DirectoryServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.username = ""
        self.fingerprint = ""
        self.profile: SessionProfile | None = None
        self.started = time.monotonic()
        self.authenticated = False
        self.session_count = 0
        self.key_line: AuthorizedKey | None = None
        self.counted = False  # counted among the connections not yet logged in

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.peer = _peer(conn)
        config = self.server.config
        limit = config.max_startups if config.max_startups is not None else config.max_sessions
        if self.server.unauthenticated >= limit:
            log.warning("dropped connection peer=%s: %d connections already logging in (the maximum)", self.peer, limit)
            asyncio.get_running_loop().call_soon(conn.abort)
            self.counted = False
            return
        self.server.unauthenticated += 1
        self.counted = True

    def _logged_in_or_gone(self) -> None:
        if self.counted:
            self.counted = False
            self.server.unauthenticated -= 1

    def connection_lost(self, exc: Exception | None) -> None:
        self._logged_in_or_gone()
        if self.authenticated:
            log.info("disconnect user=%s key=%s profile=%s peer=%s duration=%.1fs sessions=%d%s", self.username,
                     self.fingerprint, self.profile.name if self.profile else "-", self.peer,
                     time.monotonic() - self.started, self.session_count, f" error={type(exc).__name__}" if exc else "")

    # -- authentication: public keys only ----------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.username = loggable(username)  # chosen by the client: only ever shown in the log
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        peer = self.conn.get_extra_info("peername") if self.conn is not None else None
        address = peer[0] if peer else ""
        profile, line, why = self.server.config.keys.admit(key, address, address)
        if profile is None:
            log.warning("refused key user=%s key=%s peer=%s: %s", self.username, key_id(key), self.peer, why)
            return False
        self.fingerprint, self.profile, self.key_line = key_id(key), profile, line
        return True

    def auth_completed(self) -> None:
        self._logged_in_or_gone()
        self.authenticated = True
        self.started = time.monotonic()
        log.info("connect user=%s key=%s profile=%s peer=%s", self.username, self.fingerprint,
                 self.profile.name if self.profile else "-", self.peer)

    # -- what an authenticated client may open: a session, nothing else -------------------------
    def session_requested(self) -> asyncssh.SSHServerSession:
        limit = self.server.config.max_sessions
        if len(self.server.sessions) >= limit:
            log.warning("refused session user=%s key=%s peer=%s: %d sessions already (the maximum)",
                        self.username, self.fingerprint, self.peer, limit)
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_RESOURCE_SHORTAGE,
                                            "The directory is busy (too many sessions); try again later.")
        self.session_count += 1
        session = TuiSession(self)
        self.server.sessions.add(session)
        return session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        log.warning("refused port forwarding user=%s key=%s peer=%s", self.username, self.fingerprint, self.peer)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.warning("refused remote forwarding user=%s key=%s peer=%s", self.username, self.fingerprint, self.peer)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


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
            env = self.server.child_env(c.profile, c.fingerprint, self.term)
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
