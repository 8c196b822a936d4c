"""Sessions fork from a warm template process (a first screen sooner) with the isolation of a
fresh process: own PTY, session and process group, own environment, ended with the
connection; and when the template is gone, sessions still start (fresh processes)."""

from __future__ import annotations

import asyncio
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


async def test_apps_start_in_turn_and_each_gives_its_turn_up_once_it_has_drawn_a_screen(start_server, client_key):
    """With one start slot, the second session's app is forked only once the first has
    drawn a whole screen (so under a crowd each is on screen as soon as its own start is
    done), and both sessions get their screen."""
    server = await start_server(starting=1)
    drawn_when_forked: list[list[int]] = []
    real_start = server.start_child

    async def recording(profile, env, size, on_output, on_exit):  # noqa: ANN001, ANN202
        drawn_when_forked.append([s._slot.drawn for s in server.sessions if s.child is not None])
        return await real_start(profile, env, size, on_output, on_exit)

    server.start_child = recording
    async with await connect(server.port, client_key) as one, await connect(server.port, client_key) as two:
        terms = await asyncio.gather(open_terminal(one, 100, 30), open_terminal(two, 100, 30))
        for _, term in terms:
            assert await term.wait_for(lambda term=term: "Directory" in term.text()), term.text()
    first, second = drawn_when_forked
    assert first == [] and len(second) == 1 and second[0] >= 100 * 30  # the first had drawn a screen


async def test_a_start_that_draws_nothing_gives_its_turn_up_after_a_while():
    from corpdir.ssh.tui_session import StartGate

    gate = StartGate(1, hold=3600)
    first = await gate.enter()
    waiting = asyncio.ensure_future(gate.enter())
    first.output(10, 100)  # a little output (terminal set-up) is not a screen
    for _ in range(5):
        await asyncio.sleep(0)
    assert not waiting.done()
    first.output(90, 100)
    (await waiting).leave()
    gate = StartGate(1, hold=0)  # an app that never draws holds its turn for ``hold`` seconds only
    await gate.enter()
    (await gate.enter()).leave()  # the first never drew; the second still got its turn
