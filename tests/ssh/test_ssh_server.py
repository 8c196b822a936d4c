"""`corpdir ssh-server` end to end: a real asyncssh client on 127.0.0.1 against a real
server whose sessions run the real app (on the small demo tenant) in their own processes."""

from __future__ import annotations

import logging
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import httpx
import pytest

from service_fixtures import demo_tenant
from ssh_helpers import DEMO_SIZE, connect, open_terminal, until, wait_gone


def people() -> list[dict]:
    return [u for u in demo_tenant(60).users if u.get("fullname")]


FIRST_SCREEN = "Directory"  # the footer / header of the first screen


def _on_screen(term, text: str) -> bool:
    return text.replace(" ", "") in term.text().replace(" ", "")


async def test_a_session_shows_the_directory_searches_resizes_and_ends_with_its_process(start_server, client_key, caplog):
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    server = await start_server()
    conn = await connect(server.port, client_key, username="frontdesk")
    chan, term = await open_terminal(conn, 100, 30)
    assert await term.wait_for(lambda: FIRST_SCREEN in term.text() and "DEMO" in term.text()), term.text()
    assert await term.wait_for(lambda: len([u for u in people() if u["fullname"] in term.text()]) >= 3)
    (session,) = server.sessions
    pid = session.child.pid
    assert session.child.returncode is None

    # search for someone not on the first screen, by romaji, and see them
    target = next(u for u in reversed(people()) if u.get("fullnameAlphabet") and u["fullname"] not in term.text())
    assert await term.wait_for(lambda: any("Search name" in line for line in term.lines()))  # a whole frame
    search_row = next(i for i, line in enumerate(term.lines()) if "Search name" in line)
    unfocused = term.look(search_row)
    chan.write(b"/")
    assert await term.wait_for(lambda: term.look(search_row) != unfocused)  # the search box has the focus
    chan.write(target["fullnameAlphabet"].lower().encode())
    assert await term.wait_for(lambda: target["fullname"] in term.text(), timeout=20), (target["fullname"], "\n".join(term.lines()))

    # a bigger window: the app redraws to fill it (the footer moves to the new last row)
    assert "palette" in term.lines()[29]  # the footer, on the last row
    chan.change_terminal_size(130, 40)
    term.resize(130, 40)
    assert await term.wait_for(lambda: term.lines()[39].rstrip().endswith("palette")
                               and len(term.lines()[39].rstrip()) > 120), term.lines()[-3:]

    conn.close()
    await conn.wait_closed()
    assert await wait_gone(pid), "the session's app outlived its client"
    assert await until(lambda: not server.sessions), "the server still counts the ended session"
    messages = [r.getMessage() for r in caplog.records if r.name == "corpdir.ssh"]
    fingerprint = client_key.get_fingerprint("sha256")
    assert any(m.startswith("connect user=frontdesk") and fingerprint in m and "peer=127.0.0.1:" in m for m in messages)
    assert any(m.startswith("disconnect user=frontdesk") and fingerprint in m and "duration=" in m for m in messages)


async def test_quitting_the_app_ends_the_session_with_its_status(start_server, client_key):
    server = await start_server()
    async with await connect(server.port, client_key) as conn:
        chan, term = await open_terminal(conn, 90, 26)
        assert await term.wait_for(lambda: " people " in term.text()), term.text()  # at 90 columns the key bar has no room for F1
        pid = next(iter(server.sessions)).child.pid
        chan.write(b"\x11")  # ctrl+q
        assert await term.wait_for(lambda: term.closed.is_set(), timeout=15), (term.lines(), [(s.child.pid, s.child.returncode) for s in server.sessions])
        assert term.exit_status == 0
    assert await wait_gone(pid)


async def test_a_kiosk_session_opens_no_form_file_picker_or_shell(start_server, client_key):
    """The session runs `corpdir --read-only`: its write keys (and Ctrl+Z) do nothing."""
    server = await start_server()
    async with await connect(server.port, client_key) as conn:
        chan, term = await open_terminal(conn, 100, 30)
        assert await term.wait_for(lambda: len([u for u in people() if u["fullname"] in term.text()]) >= 3
                                   and "by name" in term.text())
        (session,) = server.sessions
        assert "read-only" in term.lines()[0]  # the title says so
        before = term.text()
        # new, edit, profile, photo, delete photo, new division, bulk CSV, export, delete, Ctrl+X, Ctrl+Z; then
        # "o" (next ordering), which the app handles after all of them, in order
        chan.write(b"nEPuUNbx\x1b[3~\x18\x1a" + b"o")
        assert await term.wait_for(lambda: "by name" not in term.text()), term.text()  # every key was handled
        after = term.text()
        for word in ("Choose", "Export", "New user", "Edit", "Delete", "Bulk", "Replace photo", "Division"):
            assert word not in after or word in before, (word, "\n".join(term.lines()))
        assert session.child.returncode is None and session in server.sessions  # not suspended, not ended


@pytest.mark.parametrize("method", ["password", "keyboard-interactive"])
async def test_password_and_keyboard_interactive_logins_are_refused(start_server, method, caplog):
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    server = await start_server()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, None, password="reception", preferred_auth=method)
    assert not server.sessions
    assert not any(r.getMessage().startswith("connect ") for r in caplog.records)
    assert not any("reception" in r.getMessage() for r in caplog.records)  # not even a wrong password is logged


async def test_an_unknown_key_is_refused_and_logged(start_server, stranger_key, caplog):
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    server = await start_server()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, stranger_key)
    assert any("refused key" in r.getMessage() and stranger_key.get_fingerprint("sha256") in r.getMessage()
               for r in caplog.records)
    assert not server.sessions


async def test_exec_subsystem_and_forwarding_are_refused(start_server, client_key):
    server = await start_server()
    async with await connect(server.port, client_key) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process("cat /etc/passwd")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(subsystem="sftp")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)  # ssh -L / -W
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", server.port)  # ssh -R
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection("/run/dbus/system_bus_socket")
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_path("/tmp/corpdir-ssh-test.sock", "/tmp/elsewhere.sock")
    assert not server.sessions


async def test_agent_forwarding_is_refused(start_server, client_key, tmp_path):
    server = await start_server()
    async with await connect(server.port, client_key, agent_forwarding=True, agent_path=str(tmp_path / "agent")) as conn:
        chan, term = await open_terminal(conn)  # the client asks for agent forwarding before the shell
        assert await term.wait_for(lambda: FIRST_SCREEN in term.text())
        (session,) = server.sessions
        assert session.connection.conn.get_agent_path() is None  # no agent socket was made on the server
        environ = Path(f"/proc/{session.child.pid}/environ").read_bytes().split(b"\0")
        assert not [v for v in environ if v.startswith((b"SSH_AUTH_SOCK=", b"DISPLAY="))]


async def test_a_client_that_drops_takes_its_app_with_it(start_server, client_key):
    server = await start_server()
    conn = await connect(server.port, client_key)
    chan, term = await open_terminal(conn)
    assert await term.wait_for(lambda: FIRST_SCREEN in term.text())
    pid = next(iter(server.sessions)).child.pid
    conn.abort()  # the connection is cut: no channel close, no disconnect message
    assert await wait_gone(pid), "the session's app outlived its client"
    assert await until(lambda: not server.sessions), "the server still counts the ended session"


async def test_closing_the_server_ends_every_sessions_app(start_server, client_key):
    server = await start_server()
    opened = []
    for _ in range(2):
        conn = await connect(server.port, client_key)
        opened.append((conn, *await open_terminal(conn)))
    for _, _, term in opened:
        assert await term.wait_for(lambda: FIRST_SCREEN in term.text())
    pids = [s.child.pid for s in server.sessions]
    assert len(pids) == 2
    await server.close()
    for pid in pids:
        assert await wait_gone(pid)
    for conn, _, term in opened:
        assert await term.wait_for(lambda: term.closed.is_set())
        assert b"shutting down" in bytes(term.raw)
        conn.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def reference_service(tmp_path):
    """`corpdir server --demo` on a free 127.0.0.1 port: the service a profile points at."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORPDIR_")}
    process = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "server", "--demo", "--size", DEMO_SIZE, "--port", str(port),
                                "--data", str(tmp_path / "service")], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(600):  # bounded; it starts in a few seconds
            assert process.poll() is None, "the reference service did not start"
            try:
                if httpx.get(url + "/users", headers={"X-API-Key": "demo-reception"}, timeout=5).status_code < 500:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def test_a_keys_profile_reaches_its_service_and_no_secret_reaches_the_log(start_server, client_key, reference_service,
                                                                                tmp_path, caplog):
    caplog.set_level(logging.DEBUG)  # every logger, asyncssh's too
    secret = "demo-reception"
    (tmp_path / "desk.key").write_text(secret + "\n", encoding="utf-8")
    public = client_key.export_public_key("openssh").decode().strip()
    (tmp_path / "profiles.toml").write_text(
        f'[[keys]]\npublic_key = "{public}"\nname = "front desk"\n'
        f'profile = {{ base_url = "{reference_service}", api_key_file = "{tmp_path / "desk.key"}" }}\n', encoding="utf-8")
    server = await start_server(profiles=tmp_path / "profiles.toml")
    async with await connect(server.port, client_key, username="desk key=SHA256:forged profile=admin") as conn:
        chan, term = await open_terminal(conn, 120, 30)
        # the profile's service, not the server's demo: its URL in the title, its people listed
        assert await term.wait_for(lambda: reference_service.removeprefix("http://") in term.text()
                                   and "DEMO" not in term.lines()[0]
                                   and len([u for u in people() if u["fullname"] in term.text()]) >= 3), term.text()
        (session,) = server.sessions
        pid = session.child.pid
        # the key reached the app (it lists the service's people) through its environment only: not on its
        # command line, and not even in /proc's copy of its environment (a fork of the warm template)
        assert secret.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes() and "read-only" in term.text()
        assert secret.encode() not in Path(f"/proc/{pid}/environ").read_bytes()
    assert await wait_gone(pid)
    messages = [r.getMessage() for r in caplog.records]
    ours = [m for r, m in zip(caplog.records, messages) if r.name == "corpdir.ssh"]
    assert any(m.startswith("connect ") and "profile=front desk" in m for m in ours), ours
    assert any(m.startswith("disconnect ") and "profile=front desk" in m for m in ours), ours
    assert not [m for m in messages if secret in m or "desk.key" in m]
    # the client's user name (asyncssh refuses control characters in it) cannot forge a field of the log
    assert not [m for m in ours if " key=SHA256:forged" in m or " profile=admin" in m], ours
    assert any(m.startswith("connect user=desk\\x20key=SHA256:forged\\x20profile=admin key=SHA256:") for m in ours), ours


async def test_a_session_without_a_terminal_is_told_to_use_ssh_t(start_server, client_key):
    server = await start_server()
    async with await connect(server.port, client_key) as conn:
        process = await conn.create_process(term_type=None)
        output = await process.stdout.read()
        await process.wait_closed()
    assert "ssh -t" in output and process.exit_status == 1


async def test_an_idle_session_is_closed_and_its_app_ended(start_server, client_key):
    server = await start_server(idle_timeout=2)
    async with await connect(server.port, client_key) as conn:
        chan, term = await open_terminal(conn, 100, 30)
        assert await term.wait_for(lambda: any(s.child for s in server.sessions))
        pid = next(iter(server.sessions)).child.pid
        assert await term.wait_for(lambda: term.closed.is_set(), timeout=60)  # nothing typed: closed
        assert b"no key pressed for 2 seconds" in bytes(term.raw)
        assert b"\x1b[?1049l" in bytes(term.raw)  # the client's terminal is given back
    assert await wait_gone(pid)


async def test_sessions_beyond_the_maximum_are_refused(start_server, client_key):
    server = await start_server(max_sessions=1)
    async with await connect(server.port, client_key) as first:
        chan, term = await open_terminal(first)
        assert await term.wait_for(lambda: FIRST_SCREEN in term.text())
        async with await connect(server.port, client_key) as second:
            with pytest.raises(asyncssh.ChannelOpenError, match="too many sessions"):
                await open_terminal(second)
        assert len(server.sessions) == 1


async def test_host_key_is_generated_once_with_mode_0600(start_server, tmp_path):
    server = await start_server()
    key_file = tmp_path / "host_key"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    first = key_file.read_bytes()
    await server.close()
    await start_server()
    assert key_file.read_bytes() == first


def test_an_unusable_host_key_is_reported_and_a_readable_one_warned_about(tmp_path, caplog):
    from corpdir.ssh.hostkey import HostKeyError, load_or_create_host_key

    (tmp_path / "garbage").write_text("not a key\n", encoding="utf-8")
    os.chmod(tmp_path / "garbage", 0o600)
    with pytest.raises(HostKeyError, match="garbage: not a private key"):
        load_or_create_host_key(tmp_path / "garbage")
    locked = asyncssh.generate_private_key("ssh-ed25519")
    (tmp_path / "locked").write_bytes(locked.export_private_key("pkcs8-pem", passphrase="secret"))
    with pytest.raises(HostKeyError, match="locked: not a private key"):
        load_or_create_host_key(tmp_path / "locked")
    (tmp_path / "open").write_bytes(locked.export_private_key("openssh"))
    os.chmod(tmp_path / "open", 0o644)
    assert load_or_create_host_key(tmp_path / "open").get_fingerprint() == locked.get_fingerprint()
    assert any("can be read by others" in r.getMessage() for r in caplog.records)
