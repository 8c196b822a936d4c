"""Hostile directory text through every command-line surface, as a terminal would get it:
real `corpdir` processes, the raw bytes they write checked for ESC, C1, bidi and invisible
characters (tests/hostile_text.py)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from corpdir.cache.store import CacheStore
from corpdir.paths import Profile
from corpdir.text import printable
from hostile_text import HOSTILE, assert_inert

KEY = "demo-reception"
OFFLINE = "http://127.0.0.1:9/v1"  # nothing listens: only the cache can answer
NUMBERS = {name: f"03-5555-{i:04d}" for i, name in enumerate(HOSTILE)}


def hostile_users() -> list[dict]:
    return [{"userId": 7000 + i, "fullname": value, "fullnameKana": "テスト", "position": value,
             "phoneNum": NUMBERS[name], "divisions": [{"divisionId": 5, "divisionName": value}]}
            for i, (name, value) in enumerate(HOSTILE.items())]


@pytest.fixture
def hostile_cache():
    store = CacheStore(Profile(OFFLINE, KEY).cache_path())
    store.put_users(hostile_users())
    store.mark_synced("users", time.time())
    store.close()


def corpdir(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CORPDIR_BASE_URL": OFFLINE, "CORPDIR_API_KEY": KEY}
    return subprocess.run([sys.executable, "-m", "corpdir.cli", *args], capture_output=True, env=env, timeout=120)


def test_lookup_lines_are_inert(hostile_cache):
    result = corpdir("lookup", "--offline", *NUMBERS.values())
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    lines = result.stdout.decode().splitlines()
    assert len(lines) == len(HOSTILE)  # no \r or newline in a name splits an answer
    assert "abc<U+202E>dcba.exe" in lines[list(HOSTILE).index("bidi")]


def test_lookup_json_escapes_c1_bidi_and_invisible_characters_but_keeps_the_data(hostile_cache):
    result = corpdir("lookup", "--offline", "--json", *NUMBERS.values())
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [a["items"][0]["displayName"] for a in answers] == list(HOSTILE.values())


@pytest.mark.parametrize("fmt", ["csv", "vcard"])
def test_export_files_keep_no_control_bidi_or_invisible_character(hostile_cache, tmp_path, fmt):
    path = tmp_path / f"out.{fmt}"
    result = corpdir("export", "users", "--from", "cache", "--format", fmt, "-o", str(path))
    assert result.returncode == 0, result.stderr
    data = path.read_bytes()
    if fmt == "csv":  # the file's first three bytes are its byte order mark (for Excel), not directory text
        assert data.startswith(b"\xef\xbb\xbf")
        data = data[3:]
    assert_inert(data)
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(data.decode())))
        assert sorted(r["fullname"] for r in rows) == sorted(printable(v, keep_newlines=True) for v in HOSTILE.values())
        assert {r["fullname"] for r in rows} >= {"[red]x[/red][reverse]rev[/reverse]", "abc<U+202E>dcba.exe"}
    else:
        import vobject

        names = sorted(card.fn.value for card in vobject.readComponents(data.decode()))
        assert names == sorted(printable(v, keep_newlines=True) for v in HOSTILE.values())


def in_terminal(*args: str) -> bytes:
    """`corpdir ARGS` with its standard output and error on a pseudo-terminal: what a person's
    terminal would receive, byte for byte."""
    import pty
    import tty

    env = {**os.environ, "CORPDIR_BASE_URL": OFFLINE, "CORPDIR_API_KEY": KEY, "COLUMNS": "100", "TERM": "xterm"}
    leader, follower = pty.openpty()
    tty.setraw(follower)  # the program's own bytes, without the terminal's \n -> \r\n
    proc = subprocess.Popen([sys.executable, "-m", "corpdir.cli", *args], stdin=subprocess.DEVNULL, stdout=follower,
                            stderr=follower, env=env)
    os.close(follower)
    received = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(leader)
    assert proc.wait(timeout=120) == 0, received[-2000:]
    return received


@pytest.mark.parametrize("fmt", ["csv", "vcard"])
def test_export_to_a_terminal_prints_like_lookup(hostile_cache, fmt):
    shown = in_terminal("export", "users", "--from", "cache", "--format", fmt)
    assert_inert(shown)
    assert "abc<U+202E>dcba.exe".encode() in shown
    if fmt == "csv":  # one line per record: no newline or \r from a name splits or overwrites one
        assert shown.count(b"\n") == len(HOSTILE) + 1


def test_export_to_a_file_from_a_terminal_shows_a_progress_bar(hostile_cache, tmp_path):
    shown = in_terminal("export", "users", "--from", "cache", "-o", str(tmp_path / "out.csv"))
    assert b"exporting users" in shown and f"{len(HOSTILE)}/{len(HOSTILE)}".encode() in shown
    assert f"{len(HOSTILE)} users written to".encode() in shown


class Hostile500(BaseHTTPRequestHandler):
    """A service whose every answer is a 500 with hostile text in the spec's error object."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        message = HOSTILE["link"] + HOSTILE["osc52"] + HOSTILE["bidi"] + HOSTILE["c1"] + "\nsecond line"
        body = json.dumps({"error": {"status": "INTERNAL", "message": message}}).encode()
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_a_failed_sync_quotes_the_service_literally_and_inertly():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile500)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {**os.environ, "CORPDIR_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}/v1",
               "CORPDIR_API_KEY": KEY, "CORPDIR_MAX_RETRIES": "0", "TERM": "xterm", "COLUMNS": "300"}
        result = subprocess.run([sys.executable, "-m", "corpdir.cli", "sync", "--quiet"], capture_output=True, env=env,
                                timeout=120)
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 2
    assert b"sync failed" in result.stderr and b"[link=file:///etc/passwd]x[/link]" in result.stderr
    assert_inert(result.stderr)
