"""The API key never shows (repr, str, logs, exceptions, tracebacks); settings sources."""

from __future__ import annotations

import logging
import re
import sys
import traceback
import types
import warnings

import httpx
import pytest

from corpdir.client import ConnectionConfig, CorpdirError, DirectoryClient, InsecureTransportWarning, RoutingProfile
from corpdir.config import SettingsError, load_settings

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
    s = load_settings().service
    assert s.resolve_api_key().get_secret_value() == SECRET and s.variant == "B" and s.concurrency == 3
    assert SECRET not in repr(s) and SECRET not in str(s) and SECRET not in s.model_dump_json()


def test_key_from_file_and_keyring(monkeypatch, tmp_path):
    monkeypatch.delenv("CORPDIR_API_KEY", raising=False)
    keyfile = tmp_path / "key"
    keyfile.write_text(SECRET + "\n")
    assert ConnectionConfig(api_key_file=keyfile).resolve_api_key().get_secret_value() == SECRET
    fake = types.SimpleNamespace(get_password=lambda service, user: f"kr-{service}-{user}")
    monkeypatch.setitem(sys.modules, "keyring", fake)
    assert ConnectionConfig(keyring_service="corpdir").resolve_api_key().get_secret_value() == "kr-corpdir-api-key"
    monkeypatch.setitem(sys.modules, "keyring", None)  # not installed: no key, no crash
    assert ConnectionConfig(keyring_service="corpdir").resolve_api_key() is None


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


@pytest.mark.parametrize("key", [SECRET + "\r\nX-Other: 1", "sk-tést-SECRET123", "sk-test-\nSECRET123", "sk-test\tSECRET123"])
async def test_a_key_http_cannot_carry_is_refused_at_once_without_showing_it(key):
    """A stray CR (a key file edited on Windows, an .env line) or a non-ASCII character would
    fail every request, and the HTTP library's error quotes the header value: key and all."""
    from corpdir.client import ConfigError

    sent: list[httpx.Request] = []
    with pytest.raises(ConfigError) as info:
        DirectoryClient(base_url="http://127.0.0.1/v1", api_key=key, transport=httpx.MockTransport(sent.append))
    assert "SECRET" not in _texts(info.value) and "API key" in str(info.value) and sent == []


async def test_key_whitespace_is_trimmed(monkeypatch):
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"userId": 1})

    monkeypatch.setenv("CORPDIR_API_KEY", f"  {SECRET}\r\n")  # e.g. from a file edited on Windows
    async with DirectoryClient(load_settings(service={"base_url": "http://127.0.0.1/v1"}).service, transport=httpx.MockTransport(answer)) as c:
        await c.get_user(1)
    assert seen[0].headers["authorization"] == f"Bearer {SECRET}"


async def test_key_not_in_a_rich_traceback_with_locals():
    """How Textual shows a crash: rich's traceback with every frame's local variables. A
    request reset by a real server on 127.0.0.1, key in the X-API-Key header (which httpx
    does not mask in its own reprs)."""
    import asyncio
    import io

    from rich.console import Console
    from rich.traceback import Traceback

    async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        writer.transport.abort()

    server = await asyncio.start_server(reset, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    routing = RoutingProfile.default().merged({"auth": {"header": "X-API-Key", "scheme": ""}})
    from corpdir.client import RetryPolicy

    try:
        async with DirectoryClient(base_url=f"http://127.0.0.1:{port}/v1", api_key=SECRET, routing=routing,
                                   retry=RetryPolicy(max_retries=1, initial_delay=0, max_delay=0)) as c:
            for call in (c.get_user(1), c.create_user(loginId="x", fullname="X")):
                with pytest.raises(CorpdirError) as info:
                    await call
                out = io.StringIO()
                exc = info.value
                Console(file=out, width=200).print(Traceback.from_exception(type(exc), exc, exc.__traceback__, show_locals=True))
                assert "Traceback" in out.getvalue() and SECRET not in out.getvalue()
    finally:
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize("url", ["127.0.0.1:8765/v1", "ftp://directory.example.com/v1", "https:///v1", "",
                                 "http://127.0.0.1:port/v1", f"http://127.0.0.1/v1?api_key={SECRET}"])
def test_unusable_base_url_is_refused_when_the_client_is_built(url):
    from corpdir.client import ConfigError

    with pytest.raises(ConfigError, match="address") as info:
        DirectoryClient(base_url=url or None, api_key="k", settings=ConnectionConfig(base_url=url))
    assert SECRET not in str(info.value)


def test_unreadable_key_sources_warn_and_give_no_key(monkeypatch, tmp_path, caplog):
    monkeypatch.delenv("CORPDIR_API_KEY", raising=False)
    caplog.set_level(logging.WARNING, "corpdir.client")
    assert ConnectionConfig(api_key_file=tmp_path / "missing").resolve_api_key() is None
    assert "cannot read the API key file" in caplog.text

    class NoKeyringError(RuntimeError):
        pass

    def no_backend(service: str, user: str) -> str:
        raise NoKeyringError("No recommended backend was available")

    monkeypatch.setitem(sys.modules, "keyring", types.SimpleNamespace(get_password=no_backend))
    assert ConnectionConfig(keyring_service="corpdir").resolve_api_key() is None
    assert "keyring could not be read (NoKeyringError)" in caplog.text


def test_settings_refuse_nonsense_numbers(monkeypatch):
    for name, value, said in (("CORPDIR_TIMEOUT", "0", "[service] timeout: Input should be greater than 0"),
                              ("CORPDIR_MAX_RETRIES", "-1", "[service] max_retries: Input should be greater than or equal to 0"),
                              ("CORPDIR_CONCURRENCY", "0", "[service] concurrency: Input should be greater than or equal to 1")):
        monkeypatch.setenv(name, value)
        with pytest.raises(SettingsError, match=re.escape(said)):
            load_settings()
        monkeypatch.delenv(name)


async def test_every_setting_from_the_environment_reaches_the_client(monkeypatch, tmp_path):
    routing = tmp_path / "routing.toml"
    routing.write_text('[auth]\nheader = "X-API-Key"\nscheme = ""\n')
    keyfile = tmp_path / "key.txt"
    keyfile.write_text(SECRET + "\r\n")
    for name, value in {"BASE_URL": "https://directory.example.com/api/v1/", "API_KEY_FILE": str(keyfile),
                        "VARIANT": "B", "ROUTING_FILE": str(routing), "TIMEOUT": "12.5", "CONNECT_TIMEOUT": "2",
                        "MAX_RETRIES": "7", "RETRY_INITIAL_DELAY": "0.1", "RETRY_MAX_DELAY": "3",
                        "MAX_RETRY_AFTER": "9", "CONCURRENCY": "3"}.items():
        monkeypatch.setenv(f"CORPDIR_{name}", value)
    monkeypatch.delenv("CORPDIR_API_KEY", raising=False)
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"userId": 1})

    async with DirectoryClient(load_settings().service) as c:
        assert c.base_url == "https://directory.example.com/api/v1" and c.variant.name == "B"
        assert c.routing.auth_header == "X-API-Key" and c._concurrency == 3
        assert (c.retry.max_retries, c.retry.initial_delay, c.retry.max_delay, c.retry.max_retry_after) == (7, 0.1, 3, 9)
        timeout = c._http.timeout
        assert (timeout.read, timeout.connect) == (12.5, 2)
        c._http._transport = httpx.MockTransport(answer)  # nothing leaves this machine
        await c.get_user(1)
    assert seen[0].headers["x-api-key"] == SECRET and str(seen[0].url) == "https://directory.example.com/api/v1/users/1"
