"""`corpdir ssh-server` end to end: a real asyncssh client on 127.0.0.1 against a real
server whose sessions run the real app (on the small demo tenant) in their own processes."""

from __future__ import annotations

import logging
import os
import stat

import asyncssh
import pytest

from service_fixtures import demo_tenant


def people() -> list[dict]:
    return [u for u in demo_tenant(60).users if u.get("fullname")]
from ssh_helpers import connect, open_terminal, wait_gone

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
    assert session.child.process.returncode is None

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
    assert not server.sessions
    messages = [r.getMessage() for r in caplog.records if r.name == "corpdir.ssh"]
    fingerprint = client_key.get_fingerprint("sha256")
    assert any(m.startswith("connect user=frontdesk") and fingerprint in m and "peer=127.0.0.1:" in m for m in messages)
    assert any(m.startswith("disconnect user=frontdesk") and fingerprint in m and "duration=" in m for m in messages)


async def test_quitting_the_app_ends_the_session_with_its_status(start_server, client_key):
    server = await start_server()
    async with await connect(server.port, client_key) as conn:
        chan, term = await open_terminal(conn, 90, 26)
        assert await term.wait_for(lambda: FIRST_SCREEN in term.text())
        pid = next(iter(server.sessions)).child.pid
        chan.write(b"\x11")  # ctrl+q
        assert await term.wait_for(lambda: term.closed.is_set(), timeout=15), (term.lines(), [(s.child.pid, s.child.returncode) for s in server.sessions])
        assert term.exit_status == 0
    assert await wait_gone(pid)


async def test_password_login_is_refused(start_server):
    server = await start_server()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, None, password="reception", preferred_auth="password,keyboard-interactive")


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
            await conn.open_connection("127.0.0.1", server.port)
    assert not server.sessions


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
