"""The gateway's own HTTP server, spoken to on a raw socket where a client library would
hide what matters (keep-alive, pipelining, framing, refusals), and `corpdir gateway`
itself run as a process (uvloop, signals)."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from urllib.parse import quote

import httpx
import httptools

from corpdir.phone import digits

from .conftest import TOKEN


class Replies:
    """Responses read off one connection, in order (httptools' own response parser)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.done: list[dict] = []
        self.parser = httptools.HttpResponseParser(self)
        self.current: dict = {}
        self.closed = False

    def on_message_begin(self) -> None:
        self.current = {"headers": {}, "body": b""}

    def on_header(self, name: bytes, value: bytes) -> None:
        self.current["headers"][name.decode().lower()] = value.decode()

    def on_body(self, body: bytes) -> None:
        self.current["body"] += body

    def on_message_complete(self) -> None:
        self.current["status"] = self.parser.get_status_code()
        self.done.append(self.current)

    def read(self, count: int) -> list[dict]:
        while len(self.done) < count and not self.closed:
            data = self.sock.recv(65536)
            if not data:
                self.closed = True
                break
            self.parser.feed_data(data)
        return self.done[:count]

    def wait_closed(self) -> bool:
        while not self.closed:
            data = self.sock.recv(65536)
            if not data:
                self.closed = True
            else:
                self.parser.feed_data(data)
        return self.closed


def _connect(gateway) -> tuple[socket.socket, Replies]:
    sock = socket.create_connection(("127.0.0.1", gateway.port), timeout=30)
    return sock, Replies(sock)


def _get(path: str, *extra: str) -> bytes:
    return "\r\n".join([f"GET /t/{TOKEN}{path} HTTP/1.1", "Host: pbx.test", *extra, "", ""]).encode()


def _someone(gateway):
    return next(u for u in gateway.call(gateway.service.people.window(None, limit=100)) if u.phoneNum)


def test_pipelined_requests_are_answered_in_order_on_one_connection(gateway):
    """A caller name (answered by the server itself), a desk-phone page (by the app), the
    JSON answer and an unknown number, sent in one write: four answers, in that order,
    the connection kept open."""
    user = _someone(gateway)
    number = digits(user.phoneNum)
    sock, replies = _connect(gateway)
    with sock:
        sock.sendall(_get(f"/cid?number={number}") + _get("/cisco/search.xml") + _get(f"/cid.json?number={number}")
                     + _get("/cid?number=0399990000"))
        name, search, as_json, unknown = replies.read(4)
        assert name["status"] == 200 and name["body"].decode() == user.fullname
        assert ET.fromstring(search["body"]).tag == "CiscoIPPhoneInput"
        assert as_json["body"].startswith(b"{") and b'"found": true' in as_json["body"]
        assert unknown["status"] == 404 and unknown["body"] == b""
        # the same connection answers again later (keep-alive)
        sock.sendall(_get(f"/cid.kv?number={number}"))
        (kv,) = replies.read(5)[4:]
        assert kv["status"] == 200 and kv["body"].startswith(b"name=")


def test_connection_close_and_http_1_0_end_the_connection_after_the_answer(gateway):
    user = _someone(gateway)
    for request in (_get(f"/cid?number={digits(user.phoneNum)}", "Connection: close"),
                    f"GET /t/{TOKEN}/cid?number={digits(user.phoneNum)} HTTP/1.0\r\n\r\n".encode()):
        sock, replies = _connect(gateway)
        with sock:
            sock.sendall(request)
            assert replies.wait_closed()
            assert [r["body"].decode() for r in replies.done] == [user.fullname]


def test_malformed_and_oversized_requests_are_4xx_with_empty_bodies(gateway):
    for request, status in ((b"NOT HTTP AT ALL\r\n\r\n", 400),
                            (_get("/cid?number=1", "X-Big: " + "a" * 40_000), 431),
                            (b"GET /" + b"a" * 40_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414)):
        sock, replies = _connect(gateway)
        with sock:
            sock.sendall(request)
            assert replies.wait_closed()
            assert [(r["status"], r["body"]) for r in replies.done] == [(status, b"")]


def test_a_connection_that_sends_half_a_request_or_nothing_is_closed(make_gateway):
    """A PBX that opened a connection and went silent, or a half-sent request (slowloris),
    does not hold the connection: closed after the idle time, with no answer."""
    gateway = make_gateway(idle_seconds=0.3)
    for sent in (b"", f"GET /t/{TOKEN}/cid?number=1 HTTP/1.1\r\nHost: x\r\n".encode()):
        sock, replies = _connect(gateway)
        with sock:
            sock.sendall(sent)
            assert replies.wait_closed() and replies.done == []


def test_refusals_on_the_fast_path_match_the_app(gateway, make_gateway):
    """Caller-ID answered by the server itself checks the token, basic auth and the
    allow-list exactly as the app does for every other path: empty bodies."""
    user = _someone(gateway)
    number = digits(user.phoneNum)
    for path in (f"/cid?number={number}", "/cisco/search.xml"):
        assert gateway.get(f"{gateway.origin}/t/wrong{path}").status_code == 404
        missing = gateway.get(f"{gateway.origin}{path}")
        assert missing.status_code == 401 and missing.content == b"" and "basic" in missing.headers["www-authenticate"].lower()
    walled = make_gateway(allow=["10.0.0.0/8"])
    for path in (f"/cid?number={number}", "/cisco/search.xml"):
        refused = walled.get(f"{walled.base}{path}")
        assert refused.status_code == 403 and refused.content == b""


def test_a_streamed_search_is_chunked_and_head_has_no_body(gateway):
    user = _someone(gateway)
    family = user.fullname.split()[0]
    sock, replies = _connect(gateway)
    with sock:
        sock.sendall(_get(f"/yealink/directory.xml?q={quote(family)}"))
        (found,) = replies.read(1)
        assert found["headers"].get("transfer-encoding") == "chunked"
        names = [e.findtext("Name") for e in ET.fromstring(found["body"]).iter("DirectoryEntry")]
        assert any(user.fullname in n for n in names)
    sock = socket.create_connection(("127.0.0.1", gateway.port), timeout=30)
    with sock:  # HEAD then GET, pipelined: read raw, as a parser told of the HEAD would
        sock.sendall(f"HEAD /t/{TOKEN}/cisco/search.xml HTTP/1.1\r\nHost: x\r\n\r\n".encode() + _get("/health"))
        data = b""
        while not data.endswith(b"\r\n\r\nok"):
            data += sock.recv(65536)
        head, rest = data.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 200") and b"content-length: 0" not in head.lower()
        assert rest.startswith(b"HTTP/1.1 200")  # no body after the HEAD answer to be misread as the next


def _start_gateway(port: int, *flags: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """`corpdir gateway` on ``port`` (the embedded demo, no background sync): the process
    and its first line, the banner with the URL to type into a PBX."""
    process = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "gateway", "--port", str(port), *flags,
                                "--sync-every", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    return process, process.stdout.readline()


def _wait_healthy(process: subprocess.Popen, url: str) -> httpx.Response:
    for _ in range(3000):
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            assert process.poll() is None, process.stderr.read()
            time.sleep(0.01)  # the port opens once pykakasi's dictionaries are loaded
    raise AssertionError(f"{url} never answered")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_corpdir_gateway_serves_until_sigterm(tmp_path):
    """The command as a PBX's administrator runs it (embedded demo tenant, its own event
    loop and signal handling): it answers, and SIGTERM ends it cleanly."""
    port = _free_port()
    process, banner = _start_gateway(port, "--token", TOKEN)
    try:
        assert f"127.0.0.1:{port}/t/{TOKEN}/" in banner
        assert _wait_healthy(process, f"http://127.0.0.1:{port}/t/{TOKEN}/health").text == "ok"
        answer = httpx.get(f"http://127.0.0.1:{port}/t/{TOKEN}/cid.json?number=0399990000", timeout=5)
        assert answer.json()["found"] is False
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0


def test_corpdir_gateway_without_a_token_makes_one_and_keeps_it(tmp_path):
    """A first `corpdir gateway` with no --token (as README's first try does) makes a token,
    keeps it 0600 in the data folder, prints the URL with it and serves there; the next start
    uses the same token, so the PBX's settings stay valid."""
    env = {"CORPDIR_DATA_DIR": str(tmp_path / "data")}
    tokens = []
    for _ in range(2):
        port = _free_port()
        process, banner = _start_gateway(port, env=env)
        try:
            assert f"127.0.0.1:{port}/t/" in banner, process.stderr.read() if process.poll() is not None else banner
            token = banner.split("/t/", 1)[1].split("/", 1)[0]
            assert _wait_healthy(process, f"http://127.0.0.1:{port}/t/{token}/health").text == "ok"
            tokens.append(token)
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(30) == 0
    stored = tmp_path / "data" / "gateway-token"
    assert tokens[0] == tokens[1] == stored.read_text().strip()
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
