"""Dialing through the desk phone's action URI (Yealink ``/servlet?key=number=...``, Snom
``/command.htm?number=...``): a small HTTP server on 127.0.0.1 stands in for the phone's
web server and records what it is asked, with its login when the phone has one. The
number is dialled as digits (full-width input folded); a phone that refuses the login or
cannot be reached is an error the receptionist reads on screen, never a crash."""

from __future__ import annotations

import asyncio
import base64
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from call_helpers import cards, desk_app, feed_ready
from corpdir.calls.dialers import DialFailed, build_dialer
from corpdir.calls.ring_socket import ring
from corpdir.config import CallsConfig
from tests.calls.conftest import free_port
from tui_helpers import Notifications, wait_for

LOGIN = ("admin", "s3cret-pw")


class DeskPhoneWeb:
    """A phone's web server: answers 200 to an authorised GET (401 with a Basic challenge
    otherwise, as a Yealink or Snom with a login does) and keeps every request line."""

    def __init__(self, login: tuple[str, str] | None = None) -> None:
        self.requests: list[tuple[str, str | None]] = []  # (path with query, Authorization)
        expected = "Basic " + base64.b64encode(":".join(login).encode()).decode() if login else None
        phone = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                authorization = self.headers.get("Authorization")
                phone.requests.append((self.path, authorization))
                if expected and authorization != expected:
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="Gigabit Color IP Phone"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = b"<html>OK</html>"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def yealink():
    phone = DeskPhoneWeb(LOGIN)
    yield phone
    phone.stop()


def yealink_dialer(port: int, password: str = LOGIN[1]) -> dict:
    return {"kind": "action_uri", "url": f"http://127.0.0.1:{port}/servlet?key=number={{number}}&outgoing_uri=201@pbx.example",
            "username": LOGIN[0], "password": password}


def dialer(config: dict):  # noqa: ANN201
    return build_dialer(CallsConfig(ring_socket=False, dialer=config).dialer)


async def test_yealink_gets_the_digits_of_a_full_width_number_with_its_login(yealink):
    await dialer(yealink_dialer(yealink.port)).dial("０３－１２３４－５６７８")
    [(path, authorization)] = yealink.requests
    assert path == "/servlet?key=number=0312345678&outgoing_uri=201@pbx.example"
    assert authorization == "Basic " + base64.b64encode(b"admin:s3cret-pw").decode()


async def test_snom_without_a_login_gets_an_international_number_with_its_plus():
    phone = DeskPhoneWeb()
    try:
        config = {"kind": "action_uri", "url": f"http://127.0.0.1:{phone.port}/command.htm?number={{number}}&outgoing_uri=201@pbx"}
        await dialer(config).dial("+81 (3) 1234-5678 内線")
        assert phone.requests == [("/command.htm?number=%2B81312345678&outgoing_uri=201@pbx", None)]
    finally:
        phone.stop()


async def test_a_wrong_password_is_refused_with_a_reason_that_does_not_show_it(yealink):
    with pytest.raises(DialFailed) as refused:
        await dialer(yealink_dialer(yealink.port, password="wrong-pw")).dial("0312345678")
    message = str(refused.value)
    assert "refused the login (HTTP 401)" in message and f"127.0.0.1:{yealink.port}" in message
    assert "wrong-pw" not in message and "s3cret" not in message


async def test_call_back_and_f5_dial_through_the_phone_and_an_unreachable_phone_is_told(service, yealink):
    notes = Notifications()
    app = desk_app(service, dialer=yealink_dialer(yealink.port))
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        assert await feed_ready(pilot, "ring")
        assert (await asyncio.to_thread(ring, {"number": "０３－５７００－２２２２"}))[0] == 1
        assert await wait_for(pilot, lambda: bool(cards(app)))
        await pilot.press("f9", "b")  # call back from the card
        assert await wait_for(pilot, lambda: notes.said("Calling 0357002222 via desk phone"), tries=300)
        assert yealink.requests[-1][0] == "/servlet?key=number=0357002222&outgoing_uri=201@pbx.example"

        assert await wait_for(pilot, lambda: getattr(app.screen, "selected", None) is not None)
        person = app.screen.selected  # the Directory's highlighted row
        await pilot.press("f5")  # F5 on any screen: the selected person's first number, the extension first
        wanted = "".join(c for c in (person.extensionNum or person.phoneNum) if c.isdigit())
        assert await wait_for(pilot, lambda: yealink.requests[-1][0].startswith(f"/servlet?key=number={wanted}&"), tries=300)

        yealink.stop()  # the phone is switched off: nothing listens on its port any more
        await pilot.press("f9", "b")
        said = f"Could not call 0357002222: the desk phone at 127.0.0.1:{yealink.port} refused the connection"
        assert await wait_for(pilot, lambda: notes.said(said), tries=300)
        assert app.is_running and len(cards(app)) == 1  # the card is still there to try again


def test_the_dialer_needs_number_in_its_url():
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as refused:
        CallsConfig(ring_socket=False, dialer={"kind": "action_uri", "url": f"http://127.0.0.1:{free_port()}/servlet?key=OK"})
    assert "dialer.action_uri.url" in str(refused.value)
