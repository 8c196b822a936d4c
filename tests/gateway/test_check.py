"""`corpdir gateway --check` against a running gateway: every consumer's URL fetched once."""

from __future__ import annotations

from pydantic import SecretStr

from corpdir.config import GatewayConfig
from corpdir.gateway.check import CONSUMERS, base_urls, check
from corpdir.phone import digits

from .conftest import TOKEN


def test_check_fetches_every_consumers_url_and_shows_what_it_gets(gateway):
    user = gateway.call(gateway.service.people.window(None, limit=1))[0]
    lines: list[str] = []
    settings = GatewayConfig(port=gateway.port, token=SecretStr(TOKEN))
    assert check(settings, digits(user.phoneNum), lines.append)
    text = "\n".join(lines)
    assert text.count(" ok ") == len(CONSUMERS) and "FAILED" not in text
    assert f"shows '{user.fullname}'" in text and "CiscoIPPhoneDirectory" in text and "Crm" in text
    assert check(settings, "0399990000", lines.append)  # an unknown number: "no name", as every PBX reads it


def test_check_says_so_when_nothing_answers(gateway):
    lines: list[str] = []
    wrong = GatewayConfig(port=gateway.port, token=SecretStr("not-the-token"))
    assert not check(wrong, "0399990000", lines.append)
    assert "\n".join(lines).count("FAILED") == len(CONSUMERS)  # a PBX would get "no name" for every call
    assert "refused (unknown token)" in "\n".join(lines)


def test_an_ipv6_host_gives_urls_in_brackets():
    """`corpdir gateway --host ::1` printed BASE as http://::1:8765/t/...: no PBX, browser or
    `--check` itself could use it (every consumer FAILED)."""
    shown, fetched, _ = base_urls(GatewayConfig(host="::1", port=8765, token=SecretStr(TOKEN)))
    assert shown == fetched == f"http://[::1]:8765/t/{TOKEN}"
    shown, fetched, _ = base_urls(GatewayConfig(host="::", port=8765, token=SecretStr(TOKEN)))
    assert fetched == f"http://127.0.0.1:8765/t/{TOKEN}"  # all interfaces: asked on loopback
