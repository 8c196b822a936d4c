"""A server or proxy that echoes the request's headers in its error page must not bring the
API key back into an exception, a log line or a message the user reads: a real HTTP server
on 127.0.0.1 answers 500 with every header it got (as HTML, as the spec's JSON error, in
the reason phrase), and the client's error holds '[redacted]' where the key was."""

from __future__ import annotations

import json
import logging
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from corpdir.client import ConnectionConfig, ConfigError, CorpdirError, DirectoryClient
from corpdir.service.messages import explain

KEY = "sk-live-Echo_Me/Back+9f3a"


class Echo(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        headers = "".join(f"{k}: {v}\n" for k, v in self.headers.items())
        style = self.path.rsplit("style=", 1)[-1] if "style=" in self.path else "html"
        if style == "json":
            body = json.dumps({"error": {"status": "INTERNAL", "message": f"upstream failed; request was:\n{headers}",
                                         "details": [{"field": "authorization", "code": "X",
                                                      "description": self.headers.get("Authorization", "")}]}}).encode()
            kind = "application/json"
        else:
            body = f"<html><body><h1>500</h1><pre>{headers}</pre><p>{self.path}</p></body></html>".encode()
            kind = "text/html"
        self.send_response(500, f"Bad {self.headers.get('Authorization', '')}")
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def echo():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def texts(exc: BaseException) -> str:
    return "\n".join([str(exc), repr(exc), explain(exc), "".join(traceback.format_exception(exc)),
                      *(f"{d.field} {d.code} {d.description}" for d in getattr(exc, "details", []))])


@pytest.mark.parametrize("style", ["html", "json"])
async def test_an_echoed_key_is_removed_from_the_error_and_the_logs(echo, style, caplog):
    caplog.set_level(logging.DEBUG)
    client = DirectoryClient(ConnectionConfig(base_url=echo, api_key=KEY, max_retries=1, retry_initial_delay=0.01,
                                            retry_max_delay=0.02))
    try:
        with pytest.raises(CorpdirError) as info:
            await client.list_users({"freeWords": [f"style={style}"]})
    finally:
        await client.aclose()
    said = texts(info.value) + "\n" + caplog.text
    assert "authorization" in said.lower() and "[redacted]" in said  # the page was quoted, the key was not
    for part in (KEY, KEY.replace("/", "%2F").replace("+", "%2B"), "Echo_Me"):
        assert part not in said


@pytest.mark.parametrize("url", ["http://user:pw@127.0.0.1:8765/v1", "https://admin@directory.example/v1"])
def test_a_base_url_with_a_user_or_password_is_refused(url):
    with pytest.raises(ConfigError) as info:
        DirectoryClient(ConnectionConfig(base_url=url, api_key=KEY))
    assert "user name or password" in str(info.value)
    assert "pw" not in str(info.value) and "admin" not in str(info.value)
