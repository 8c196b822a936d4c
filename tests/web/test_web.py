"""`corpdir web`: textual-serve on 127.0.0.1 serving the read-only app to a browser.

The last test drives a real headless Chromium (Debian's ``chromium-headless-shell``, which
.ci/run installs) over the DevTools protocol; it is skipped only where no Chromium is
installed."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from corpdir.commands import web
from service_fixtures import demo_tenant
from ssh_helpers import DEMO_SIZE, Screen, demo_home_env, prepare_demo_home


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


def start_web(home: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    """`corpdir web` as a real process on a free 127.0.0.1 port; returns it and the page URL it printed."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "web", "--port", str(port), *extra],
                               env=demo_home_env(home), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, start_new_session=True)
    line = process.stdout.readline()  # the server prints its address first; '' if it died
    assert "open http://" in line, f"corpdir web printed {line!r}"
    return process, line.split("open ", 1)[1].split()[0].rstrip("/")


def stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def served(tmp_path):
    """`corpdir web` on the small demo tenant: the page URL, with its per-start token."""
    prepare_demo_home(tmp_path)
    process, url = start_web(tmp_path)
    yield url
    stop(process)


async def _get_page(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    for _ in range(300):  # bounded: the server starts in well under this
        try:
            async with session.get(url) as response:
                return response.status, await response.text()
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.1)
    raise AssertionError(f"nothing listening at {url}")


def listening_addresses(port: int) -> set[str]:
    """The local addresses with a TCP socket listening on ``port`` (from /proc/net)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:  # LISTEN
                raw = bytes.fromhex(address)
                words = [raw[i:i + 4][::-1] for i in range(0, len(raw), 4)]  # each 32-bit word is host-endian
                found.add(socket.inet_ntop(socket.AF_INET if len(raw) == 4 else socket.AF_INET6, b"".join(words)))
    return found


async def test_the_page_is_served_and_its_socket_runs_the_read_only_app(served):
    async with aiohttp.ClientSession() as session:
        status, page = await _get_page(session, served + "/")
        assert status == 200
        assert listening_addresses(urlsplit(served).port) == {"127.0.0.1"}  # loopback only: no authentication
        assert "textual.js" in page and "/ws" in page  # textual-serve's page: xterm.js and its websocket

        screen = Screen(100, 30)
        async with session.ws_connect(served.replace("http:", "ws:") + "/ws?width=100&height=30",
                                      origin=origin_of(served)) as ws:
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


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


async def _ws_refusal(session: aiohttp.ClientSession, url: str, **headers) -> int:
    """The HTTP status a websocket handshake to ``url`` is refused with (fails if it is accepted)."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        async with session.ws_connect(url, headers=headers):
            pass
    return refused.value.status


async def test_the_app_is_reached_only_through_the_printed_address_from_its_own_page(served):
    """A page elsewhere in the user's browser cannot drive the app."""
    origin = origin_of(served)
    socket_url = served.replace("http:", "ws:") + "/ws?width=80&height=24"
    async with aiohttp.ClientSession() as session:
        assert (await _get_page(session, served + "/"))[0] == 200
        # without the per-start token there is nothing to find: not the page, not the socket
        for path in ("/", "/ws", "/static/js/textual.js"):
            async with session.get(origin + path) as response:
                assert response.status == 404, path
        assert await _ws_refusal(session, origin.replace("http:", "ws:") + "/ws", Origin=origin) == 404
        # a foreign page (or none) may not open the socket, even with the token
        assert await _ws_refusal(session, socket_url, Origin="https://evil.example") == 403
        assert await _ws_refusal(session, socket_url, Origin="http://127.0.0.1:1") == 403
        assert await _ws_refusal(session, socket_url) == 403
        # DNS rebinding: a name that resolves here but is not this server's is refused
        async with session.get(served + "/", headers={"Host": f"rebind.example:{urlsplit(served).port}"}) as response:
            assert response.status == 421


async def test_the_page_loads_nothing_from_outside(served):
    async with aiohttp.ClientSession() as session:
        async with session.get(served + "/") as response:
            page = await response.text()
            policy = response.headers["Content-Security-Policy"]
    assert "googleapis" not in page and "@font-face" in page  # the font textual-serve ships, not a web font
    external = [url for url in re_urls(page) if not url.startswith(origin_of(served)) and not url.startswith("ws:")]
    assert external == [], external
    assert "default-src 'self'" in policy and "font-src 'self'" in policy


def re_urls(page: str) -> list[str]:
    import re

    return [m for m in re.findall(r'(?:src|href)\s*=\s*"([^"]+)"', page) + re.findall(r'url\("([^"]+)"\)', page)
            if "://" in m]


async def test_sessions_beyond_the_cap_are_refused(tmp_path):
    prepare_demo_home(tmp_path)
    process, url = start_web(tmp_path, "--max-sessions", "1")
    try:
        socket_url = url.replace("http:", "ws:") + "/ws?width=80&height=24"
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(socket_url, origin=origin_of(url)) as first:
                await first.receive(timeout=60)  # the first session's app is running and painting
                assert await _ws_refusal(session, socket_url, Origin=origin_of(url)) == 503
            # the first one closed: its place is free again
            for _ in range(200):  # bounded: the server notices the close within moments
                try:
                    async with session.ws_connect(socket_url, origin=origin_of(url)) as again:
                        await again.receive(timeout=60)
                        break
                except aiohttp.WSServerHandshakeError as refused:
                    assert refused.status == 503
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("the freed session was never offered again")
    finally:
        stop(process)


# -- a real browser ----------------------------------------------------------------------------
BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")


class DevTools:
    """Just enough of the Chrome DevTools protocol: call a method, wait for its answer."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    async def call(self, method: str, **params) -> dict:
        call_id = next(self.ids)
        await self.ws.send_json({"id": call_id, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=60)
            if message.get("id") == call_id:
                assert "error" not in message, message
                return message.get("result", {})

    async def evaluate(self, expression: str):
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def screen_text(self) -> str:
        # --disable-3d-apis: xterm.js draws with its DOM renderer, so the screen is readable text
        text = await self.evaluate("(document.querySelector('.xterm-rows') || {}).innerText || ''")
        return text.replace("\xa0", " ")

    async def wait_for_text(self, predicate, what: str) -> str:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120  # bounded, so a broken page fails instead of hanging
        while True:
            text = await self.screen_text()
            if predicate(text):
                return text
            assert loop.time() < deadline, f"{what}; the browser shows:\n{text}"
            await asyncio.sleep(0.2)

    async def type(self, text: str) -> None:
        for char in text:
            await self.call("Input.dispatchKeyEvent", type="keyDown", key=char, text=char)
            await self.call("Input.dispatchKeyEvent", type="keyUp", key=char)


@pytest.fixture
def chromium(tmp_path):
    """A headless Chromium with its DevTools port open on 127.0.0.1; skipped where none is installed."""
    path = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    if path is None:
        pytest.skip("no headless Chromium installed (.ci/run installs Debian's chromium-headless-shell)")
    profile = tmp_path / "chromium-profile"
    process = subprocess.Popen(
        [path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-3d-apis", "--no-first-run",
         "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={profile}",
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",  # nothing but this machine (the page asks for a web font)
         "--window-size=1200,800", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    port_file = profile / "DevToolsActivePort"
    try:
        for _ in range(600):  # bounded: Chromium writes it within a second or two
            if port_file.exists() and port_file.read_text().strip():
                break
            assert process.poll() is None, f"{path} exited with {process.returncode}"
            time.sleep(0.05)
        else:
            raise AssertionError(f"{path} opened no DevTools port")
        yield int(port_file.read_text().split()[0])
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)  # the browser and every helper process it started
            except ProcessLookupError:
                break
            try:
                process.wait(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue


async def test_a_headless_chromium_shows_the_read_only_app_and_searches(served, chromium):
    people = [u for u in demo_tenant(int(DEMO_SIZE)).users if u.get("fullname")]
    async with aiohttp.ClientSession() as session:
        assert (await _get_page(session, served + "/"))[0] == 200  # listening: the browser gets the page, not an error
        async with session.get(f"http://127.0.0.1:{chromium}/json/list") as response:
            page = next(t for t in await response.json() if t["type"] == "page")
        async with session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            browser = DevTools(ws)
            await browser.call("Page.enable")
            await browser.call("Page.navigate", url=served + "/")
            first = await browser.wait_for_text(
                lambda t: "read-only" in t and " people " in t and len([u for u in people if u["fullname"] in t]) >= 3,
                "the app's first screen, with people, never appeared")
            assert "Edit" not in first.splitlines()[-1]  # the footer offers no write key
            loaded = await browser.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
            assert loaded and all(name.startswith(origin_of(served)) for name in loaded), loaded  # nothing from outside

            # the search box takes the focus (its bindings leave the footer), then a romaji search
            target = next(u for u in reversed(people) if u.get("fullnameAlphabet") and u["fullname"] not in first)
            await browser.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
            await browser.type("/")
            await browser.wait_for_text(lambda t: "Sub-divs" not in t.splitlines()[-1], "the search box never took the focus")
            await browser.type(target["fullnameAlphabet"].lower())
            await browser.wait_for_text(lambda t: target["fullname"] in t and 'search "' in t,
                                        f"searching for {target['fullnameAlphabet']} never showed {target['fullname']}")


async def test_the_log_never_shows_the_token(tmp_path):
    """Its access log (on stdout, after the address) wrote the token, the only key to the
    app, into every request line."""
    prepare_demo_home(tmp_path)
    process, url = start_web(tmp_path)
    try:
        async with aiohttp.ClientSession() as session:
            assert (await _get_page(session, url + "/"))[0] == 200
            async with session.get(url + "/static/js/textual.js") as response:
                assert response.status == 200
            async with session.get(url + "/no-such-page?again=" + url) as response:
                assert response.status == 404
    finally:
        stop(process)
    token = urlsplit(url).path.strip("/")
    written = process.stdout.read()  # after the line with the address, which start_web read
    assert written.count("[token]") >= 4  # the page, the script, the wrong page and its query: logged, hidden
    assert token not in written
