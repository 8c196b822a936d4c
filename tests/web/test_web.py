"""`corpdir web`: textual-serve on 127.0.0.1 serving the read-only app to a browser."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys

import aiohttp
import pytest

from corpdir.commands import web
from ssh_helpers import Screen, demo_home_env, prepare_demo_home


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_served_command_is_read_only_unless_writes_are_allowed():
    assert web.app_command().endswith("-m corpdir.cli --read-only")
    assert "--read-only" not in web.app_command(allow_writes=True)
    from corpdir.cli import build_parser

    args = build_parser().parse_args(["web"])
    assert (args.host, args.port, args.allow_writes) == ("127.0.0.1", 8000, False)


@pytest.fixture
def served(tmp_path):
    """`corpdir web` as a real process on a free 127.0.0.1 port, on the small demo tenant."""
    prepare_demo_home(tmp_path)
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "web", "--port", str(port)], env=demo_home_env(tmp_path),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


async def _get_page(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    for _ in range(300):  # bounded: the server starts in well under this
        try:
            async with session.get(url) as response:
                return response.status, await response.text()
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.1)
    raise AssertionError(f"nothing listening at {url}")


async def test_the_page_is_served_and_its_socket_runs_the_read_only_app(served):
    async with aiohttp.ClientSession() as session:
        status, page = await _get_page(session, served + "/")
        assert status == 200
        assert "textual.js" in page and "/ws" in page  # textual-serve's page: xterm.js and its websocket

        screen = Screen(100, 30)
        async with session.ws_connect(served.replace("http:", "ws:") + "/ws?width=100&height=30") as ws:
            await ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while "read-only" not in screen.text() or "Directory" not in screen.text():
                assert loop.time() < deadline, screen.text()
                message = await ws.receive(timeout=max(0.1, deadline - loop.time()))
                if message.type == aiohttp.WSMsgType.BINARY:
                    screen.feed(message.data)
                elif message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    raise AssertionError(f"socket closed: {screen.text()}")
