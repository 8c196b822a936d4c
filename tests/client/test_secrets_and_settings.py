"""The API key never shows (repr, str, logs, exceptions, tracebacks); settings sources."""

from __future__ import annotations

import logging
import sys
import traceback
import types
import warnings

import httpx
import pytest

from corpdir.client import ClientSettings, CorpdirError, DirectoryClient, InsecureTransportWarning, RoutingProfile

from .faults import FaultTransport
from .server import make_server

SECRET = "sk-test-SECRET123"


def _texts(exc: BaseException) -> str:
    return "\n".join([str(exc), repr(exc), "".join(traceback.format_exception(exc))])


@pytest.mark.parametrize("header", ["Authorization", "X-API-Key"])
async def test_key_never_appears(header, clock, make_client, caplog):
    recorder, _ = make_server(SECRET, clock)
    faulty = FaultTransport(httpx.ASGITransport(app=recorder))
    routing = RoutingProfile.default().merged({"auth": {"header": header, "scheme": "Bearer" if header == "Authorization" else ""}})
    caplog.set_level(logging.DEBUG)
    c = make_client(faulty, api_key=SECRET, routing=routing)
    assert (await c.get_user(1)).userId == 1
    got = recorder.seen[-1].headers
    assert got[header.lower()] == (f"Bearer {SECRET}" if header == "Authorization" else SECRET)
    errors: list[BaseException] = []
    faulty.add("reset_after", "html502", "connect_error_before", "connect_error_before", "connect_error_before",
               "connect_error_before", "connect_error_before")
    for call in (c.create_user(loginId="x", fullname="X"), c.create_user(loginId="y", fullname="Y"),
                 c.get_user(1), c.create_user(loginId="bad id", fullname=" "), c.get_user(99_999)):
        try:
            await call
        except CorpdirError as exc:
            errors.append(exc)
    assert len(errors) == 5
    wrong = make_client(httpx.ASGITransport(app=recorder), api_key="sk-test-SECRET123-wrong")
    with pytest.raises(CorpdirError) as info:
        await wrong.get_user(1)
    errors.append(info.value)
    for exc in errors:
        assert SECRET not in _texts(exc)
    assert SECRET not in repr(c) and SECRET not in str(c)
    assert caplog.records and "[redacted]" in caplog.text
    assert SECRET not in caplog.text


def test_settings_keep_key_secret(monkeypatch, tmp_path):
    monkeypatch.setenv("CORPDIR_API_KEY", SECRET)
    monkeypatch.setenv("CORPDIR_VARIANT", "B")
    monkeypatch.setenv("CORPDIR_CONCURRENCY", "3")
    s = ClientSettings()
    assert s.resolve_api_key().get_secret_value() == SECRET and s.variant == "B" and s.concurrency == 3
    assert SECRET not in repr(s) and SECRET not in str(s) and SECRET not in s.model_dump_json()


def test_key_from_file_and_keyring(monkeypatch, tmp_path):
    monkeypatch.delenv("CORPDIR_API_KEY", raising=False)
    keyfile = tmp_path / "key"
    keyfile.write_text(SECRET + "\n")
    assert ClientSettings(api_key_file=keyfile).resolve_api_key().get_secret_value() == SECRET
    fake = types.SimpleNamespace(get_password=lambda service, user: f"kr-{service}-{user}")
    monkeypatch.setitem(sys.modules, "keyring", fake)
    assert ClientSettings(keyring_service="corpdir").resolve_api_key().get_secret_value() == "kr-corpdir-api-key"
    monkeypatch.setitem(sys.modules, "keyring", None)  # not installed: no key, no crash
    assert ClientSettings(keyring_service="corpdir").resolve_api_key() is None


async def test_plain_http_to_remote_host_warns():
    with pytest.warns(InsecureTransportWarning):
        c = DirectoryClient(base_url="http://directory.example.com/v1", api_key="k")
    await c.aclose()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for url in ("http://127.0.0.1:8765/v1", "http://localhost/v1", "http://[::1]/v1", "https://directory.example.com"):
            await DirectoryClient(base_url=url, api_key="k").aclose()
        await DirectoryClient(base_url="http://embedded", api_key="k",
                              transport=httpx.ASGITransport(app=lambda *a: None)).aclose()
