"""authorized_keys options are honoured as sshd would (or the server refuses to start), and
connections that have not logged in are capped, so a flood of half-open logins cannot
starve real users. A real asyncssh client logs in over 127.0.0.1."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys

import asyncssh
import pytest

from corpdir.ssh.authorized import ProfileError, load_authorized_keys
from corpdir.ssh.startups import StartupLimits
from ssh_helpers import connect, open_terminal


def _public(key: asyncssh.SSHKey) -> str:
    return key.export_public_key("openssh").decode().strip()


@pytest.fixture
def keys():
    return [asyncssh.generate_private_key("ssh-ed25519", comment=f"desk-{i}") for i in range(5)]


@pytest.fixture
def serve(start_server):
    """``await serve(authorized_keys_text, **config)``: a server on a free 127.0.0.1 port."""
    return lambda authorized, **config: start_server(authorized_keys=authorized, **config)


async def test_an_expired_key_and_a_key_from_a_forbidden_address_are_refused(serve, keys, caplog):
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    expired, elsewhere, allowed, future = keys[:4]
    server = await serve(f'expiry-time="20200101" {_public(expired)}\n'
                         f'from="10.0.0.0/8,192.0.2.1" {_public(elsewhere)}\n'
                         f'from="127.0.0.1",expiry-time="29991231Z",restrict,pty {_public(allowed)}\n'
                         f'expiry-time="299912312359" {_public(future)}\n')
    for key, why in ((expired, "line 1: expired"), (elsewhere, "line 2: not from an address")):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, key)
        assert any(why in r.getMessage() and key.get_fingerprint("sha256") in r.getMessage() for r in caplog.records)
    for key in (allowed, future):
        async with await connect(server.port, key):
            pass
    assert not server.sessions


@pytest.mark.parametrize("options", ["no-pty", "restrict"])
async def test_a_key_without_a_pty_gets_no_app(serve, keys, options, caplog):
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    server = await serve(f"{options} {_public(keys[0])}\n")
    async with await connect(server.port, keys[0]) as conn:
        with pytest.raises(asyncssh.ChannelOpenError, match="PTY request failed"):
            await open_terminal(conn)
    assert any("refused pty" in r.getMessage() and "line 1" in r.getMessage() for r in caplog.records)
    assert all(session.child is None for session in server.sessions)  # no app process was started


@pytest.mark.parametrize("option", ['command="/bin/sh"', 'environment="A=b"', 'principals="desk"', "verify-required",
                                    "some-future-option"])
def test_an_option_the_server_cannot_enforce_stops_it_naming_the_line(tmp_path, keys, option):
    path = tmp_path / "authorized_keys"
    path.write_text(f"# the desks\n{_public(keys[1])}\n{option} {_public(keys[0])}\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"line 3: option .* not supported"):
        load_authorized_keys(path)
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "ssh-server", "--port", "0", "--host-key",
                           str(tmp_path / "hk"), "--authorized-keys", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "line 3" in done.stderr and not (tmp_path / "hk").exists()


def test_a_bad_expiry_time_is_named(tmp_path, keys):
    path = tmp_path / "authorized_keys"
    path.write_text(f'expiry-time="next year" {_public(keys[0])}\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"line 1: expiry-time='next year'"):
        load_authorized_keys(path)


async def _wait(condition, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30  # bounded: each step takes milliseconds
    while not condition():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.01)


async def test_connections_that_never_log_in_are_capped(serve, keys, caplog):
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    server = await serve(f"restrict,pty {_public(keys[0])}\n", max_startups=StartupLimits(3))
    idle = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(3)]
    await _wait(lambda: server.unauthenticated == 3, "the three idle connections were not counted")
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    said = await asyncio.wait_for(reader.read(), 30)  # returns only when the server has closed it
    assert said in (b"", b"SSH-2.0-corpdir\r\n")  # dropped at once: at most the version line, no login
    writer.close()
    assert any("dropped connection" in r.getMessage() for r in caplog.records)
    for _, idle_writer in idle:
        idle_writer.close()
    await _wait(lambda: server.unauthenticated == 0, "closed connections were still counted")
    async with await connect(server.port, keys[0]):  # a real login is let in again
        assert server.unauthenticated == 0  # a logged-in connection no longer counts


async def test_as_many_clients_as_may_have_sessions_log_in_at_once(serve, keys, caplog):
    """Twelve desks opening at once on a server for twelve sessions all get in: the cap on
    connections still logging in follows --max-sessions (it was sshd's 10, which dropped
    the 11th and 12th), and the next one past it is dropped."""
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    server = await serve(f"restrict,pty {_public(keys[0])}\n", max_sessions=12, warm=False)
    idle = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(11)]
    await _wait(lambda: server.unauthenticated == 11, "the idle connections were not counted")
    async with await connect(server.port, keys[0]):  # the twelfth logs in
        pass
    assert not any("dropped connection" in r.getMessage() for r in caplog.records)
    idle.append(await asyncio.open_connection("127.0.0.1", server.port))
    await _wait(lambda: server.unauthenticated == 12, "the twelfth idle connection was not counted")
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    said = await asyncio.wait_for(reader.read(), 30)  # returns only when the server has closed it
    assert said in (b"", b"SSH-2.0-corpdir\r\n")
    assert any("dropped connection" in r.getMessage() for r in caplog.records)
    writer.close()
    for _, idle_writer in idle:
        idle_writer.close()
