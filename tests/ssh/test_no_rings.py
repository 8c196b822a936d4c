"""Callers' names appear on the desk alone: with the server's own configuration asking for
rings (config file and environment), a running `corpdir ssh-server` session never takes
one, while the desk's TUI (local, writable, asking for rings) does. `corpdir ring` says
how many TUIs it reached."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from call_helpers import card_text, desk_app, feed_ready
from ssh_helpers import connect, open_terminal
from tui.conftest import service  # noqa: F401 - the desk's synced small demo tenant
from tui_helpers import wait_for


def ring(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "corpdir.cli", "ring", *args], capture_output=True, text=True,
                          env=os.environ.copy(), timeout=60)


async def test_an_ssh_session_never_shows_a_ring_the_desk_does(start_server, client_key, service, tmp_path,  # noqa: F811
                                                             monkeypatch):
    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("CORPDIR_CALLS_RING_SOCKET", "true")  # inherited by the sessions, like the file
    config = Path(os.environ["CORPDIR_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[calls]\nring_socket = true\n", encoding="utf-8")
    server = await start_server()
    async with await connect(server.port, client_key) as conn:
        chan, term = await open_terminal(conn, 100, 30)
        assert await term.wait_for(lambda: "Directory" in term.text() and "synced" in term.text()), term.text()
        desk = desk_app(service)
        async with desk.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "ring")
            users = await service.people.window(None, limit=50)
            caller = next(u for u in users if u.phoneNum)
            done = await asyncio.to_thread(ring, caller.phoneNum, "--name", "来客 太郎")
            assert (done.returncode, done.stdout.strip()) == (0, "rang 1 TUI"), done.stderr
            assert await wait_for(pilot, lambda: caller.fullname in card_text(desk))
            assert "Ringing" not in term.text() and "来客 太郎" not in term.text()
            assert len(list((tmp_path / "run").glob("ring-*.sock"))) == 1  # the desk's own
