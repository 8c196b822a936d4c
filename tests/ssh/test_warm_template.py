"""Sessions fork from a warm template process (issue 17, item 6) with the isolation of a
fresh process: own PTY, session and process group, own environment, ended with the
connection; and when the template is gone, sessions still start (fresh processes)."""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path

from ssh_helpers import connect, open_terminal, wait_gone


def _stat(pid: int) -> dict[str, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return {"ppid": int(fields[1]), "pgrp": int(fields[2]), "session": int(fields[3]), "tty": int(fields[4])}


def _environ(pid: int) -> list[bytes]:
    return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")


async def test_each_session_is_a_fork_of_the_template_in_its_own_session_and_group(start_server, client_key,
                                                                                      monkeypatch):
    monkeypatch.setenv("CORPDIR_API_KEY", "the-servers-own-key")  # the template must not hold it
    server = await start_server()
    assert server.template is not None and server.template.alive
    assert not [v for v in _environ(server.template.pid) if v.startswith(b"CORPDIR_API_KEY=")]
    async with await connect(server.port, client_key) as one, await connect(server.port, client_key) as two:
        terms = [await open_terminal(conn) for conn in (one, two)]
        for _, term in terms:
            assert await term.wait_for(lambda term=term: "Directory" in term.text()), term.text()
        pids = [session.child.pid for session in server.sessions]
        assert len(set(pids)) == 2
        for pid in pids:
            info = _stat(pid)
            assert info["ppid"] == server.template.pid  # forked from the warm process, not started afresh
            assert info["session"] == pid and info["pgrp"] == pid and info["tty"] != 0  # own session, group, PTY
            # its own environment: the state folder of its key, where it runs
            assert Path(f"/proc/{pid}/cwd").resolve().parts[-2:-1] == ("ssh",)
        assert len({_stat(pid)["tty"] for pid in pids}) == 2  # a PTY each
    for pid in pids:
        assert await wait_gone(pid), "a session's app outlived its connection"


async def test_without_the_template_sessions_start_as_fresh_processes(start_server, client_key, caplog):
    caplog.set_level(logging.INFO, logger="corpdir.ssh")
    server = await start_server()
    template = server.template.pid
    os.kill(template, signal.SIGKILL)
    assert await wait_gone(template)
    async with await connect(server.port, client_key) as conn:
        _, term = await open_terminal(conn)
        assert await term.wait_for(lambda: "Directory" in term.text()), term.text()
        (session,) = server.sessions
        assert _stat(session.child.pid)["ppid"] == os.getpid()  # a fresh process of the server's own
    assert await wait_gone(session.child.pid)


async def test_the_template_ends_with_the_server(start_server):
    server = await start_server()
    template = server.template.pid
    await server.close()
    assert await wait_gone(template)
