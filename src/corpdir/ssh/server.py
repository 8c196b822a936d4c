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
from corpdir.config import service_env_names
from corpdir.ssh.startups import StartupLimits, Startups, source_of
from corpdir.ssh.template import AppTemplate, TemplateError
from corpdir.ssh.tui_session import StartGate, TuiSession

log = logging.getLogger("corpdir.ssh")

# Variables of the server's environment a profile's session must not inherit: every
# setting of the [service] section (a profile is the whole service configuration).
SERVICE_ENV = service_env_names()
NEVER_INHERITED = ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "DISPLAY",
                   "COLUMNS", "LINES")


@dataclass
class ServerOptions:
    keys: KeyRing
    host_key: Path
    host: str = "127.0.0.1"
    port: int = 2222  # 0: any free port (tests)
    idle_timeout: float | None = 15 * 60  # seconds without a keystroke; None: never
    max_sessions: int = 20
    # connections not yet logged in (sshd's MaxStartups, per-source shares, the pre-auth
    # timeout: corpdir.ssh.startups). None: start = max_sessions, so that as many clients as
    # may have sessions can all open at once (a fixed 10 would drop the 11th to 20th of 20
    # desks opening together)
    max_startups: StartupLimits | None = None
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


def _peer(conn: asyncssh.SSHServerConnection) -> str:
    peer = conn.get_extra_info("peername") or ("?", 0)
    return f"{peer[0]}:{peer[1]}"


class DirectoryServer:
    """Start with ``await server.start()``; ``await server.close()`` ends every session."""

    def __init__(self, config: ServerOptions) -> None:
        self.config = config
        self.sessions: set[TuiSession] = set()
        self.startups = Startups(config.max_startups or StartupLimits(config.max_sessions))
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.port: int | None = None
        self.template: AppTemplate | None = None
        self.start_gate = StartGate(config.starting or os.cpu_count() or 2)

    @property
    def unauthenticated(self) -> int:
        """Connections that have not finished logging in."""
        return self.startups.total

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
        self.start_gate.close()  # apps waiting on the start queue go on, whatever happens next
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
        self.counted = False  # holds a slot among the connections not yet logged in
        self.source = ""
        self._progress_timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.peer = _peer(conn)
        self.source = source_of(str((conn.get_extra_info("peername") or ("?",))[0]))
        startups = self.server.startups
        why = startups.admit(self.source)
        if why is not None:
            log.warning("dropped connection peer=%s: %s", self.peer, why)
            asyncio.get_running_loop().call_soon(conn.abort)
            return
        self.counted = True
        self._progress_timer = asyncio.get_running_loop().call_later(startups.limits.preauth_timeout, self._no_progress)

    def _no_progress(self) -> None:
        """No authentication request within the pre-auth timeout: a client that holds a slot
        without doing the key exchange. Dropped, and its address refused for a while."""
        self._progress_timer = None
        if self.counted and self.conn is not None:
            log.warning("dropped connection peer=%s: no login attempt within %gs", self.peer,
                        self.server.startups.limits.preauth_timeout)
            self.server.startups.penalise(self.source)
            self.conn.abort()

    def _logged_in_or_gone(self) -> None:
        if self._progress_timer is not None:
            self._progress_timer.cancel()
            self._progress_timer = None
        if self.counted:
            self.counted = False
            self.server.startups.release(self.source)

    def connection_lost(self, exc: Exception | None) -> None:
        self._logged_in_or_gone()
        if self.authenticated:
            log.info("disconnect user=%s key=%s profile=%s peer=%s duration=%.1fs sessions=%d%s", self.username,
                     self.fingerprint, self.profile.name if self.profile else "-", self.peer,
                     time.monotonic() - self.started, self.session_count, f" error={type(exc).__name__}" if exc else "")

    # -- authentication: public keys only ----------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.username = loggable(username)  # chosen by the client: only ever shown in the log
        if self._progress_timer is not None:  # the key exchange is done: the login timeout runs on
            self._progress_timer.cancel()
            self._progress_timer = None
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
