"""What phones send and what goes wrong, over a raw socket where a client library would
tidy the request: raw UTF-8 in a query, a failing request's log line, a name XML forbids."""

from __future__ import annotations

import logging
import socket
import sqlite3
import xml.etree.ElementTree as ET

from corpdir.service.backend import backend_of

from .conftest import TOKEN


def _raw_get(gateway, target: bytes) -> tuple[int, bytes]:
    """One GET with ``target`` sent byte for byte (as a phone's firmware writes it)."""
    with socket.create_connection(("127.0.0.1", gateway.port)) as sock:
        sock.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: phone\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        out = b""
        while body:
            size, _, rest = body.partition(b"\r\n")
            n = int(size, 16)
            out, body = out + rest[:n], rest[n + 2:]
            if n == 0:
                break
        body = out
    return int(head.split(b" ")[1]), body


def test_a_search_typed_in_kana_arrives_unencoded_and_is_answered(gateway):
    """Yealink and Snom put what the user typed into the URL as raw UTF-8 bytes."""
    user = gateway.call(gateway.service.people.window(None, limit=1))[0]
    family = user.fullname.split()[0]
    for path in ("/yealink/directory.xml?q=", "/snom/directory.xml?q=", "/cisco/directory.xml?q="):
        status, body = _raw_get(gateway, f"/t/{TOKEN}{path}{family}".encode())
        assert status == 200, path
        names = [e.findtext("Name") for e in ET.fromstring(body).iter("DirectoryEntry")]
        assert any(n.startswith(user.fullname) for n in names), (path, names[:3])


def test_a_failing_request_is_logged_without_the_token(gateway, caplog, monkeypatch):
    def broken(kind, rid):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(gateway.app.gateway.phonebook, "entry", broken)
    with caplog.at_level(logging.ERROR, logger="corpdir.gateway"):
        status, body = _raw_get(gateway, f"/t/{TOKEN}/record/user/1".encode())
    assert status == 500 and body == b""
    assert "/record/user/1" in caplog.text  # the failure is logged...
    assert TOKEN not in caplog.text  # ...without what lets a reader of the log query the gateway


def test_an_id_beyond_sqlites_integers_is_nobody(gateway):
    assert _raw_get(gateway, f"/t/{TOKEN}/record/user/99999999999999999999999".encode()) == (404, b"")


def test_a_name_with_a_character_xml_forbids_leaves_every_directory_readable(gateway):
    client = backend_of(gateway.admin).client
    gateway.call(client.create_user(loginId="nonchar", fullname="青木\ufffe明美\uffff", phoneNum="03-5555-0999"))
    gateway.call(gateway.service.sync.run())
    for path in ("/yealink/directory.xml", "/yealink/phonebook.xml", "/cisco/directory.xml?q=0355550999",
                 "/snom/directory.xml?q=0355550999", "/grandstream/phonebook.xml", "/yealink/directory.xml?q=青木"):
        status, body = _raw_get(gateway, f"/t/{TOKEN}{path}".encode())
        assert status == 200, path
        root = ET.fromstring(body)  # well-formed: the strict parser takes it
        text = " ".join([*root.itertext(), *(v for e in root.iter() for v in e.attrib.values())])
        assert "青木\ufffd明美\ufffd" in text, path  # the rest of the name still shown


def test_metrics_count_lookups_by_answer_and_downloads_by_phone(gateway):
    from prometheus_client.parser import text_string_to_metric_families

    def samples() -> dict[tuple[str, tuple], float]:
        text = gateway.get(f"{gateway.base}/metrics").text
        return {(s.name, tuple(sorted(s.labels.items()))): s.value
                for family in text_string_to_metric_families(text) for s in family.samples}

    before = samples()
    user = gateway.call(gateway.service.people.window(None, limit=1))[0]
    for _ in range(3):
        gateway.get(f"{gateway.base}/cid?number={user.phoneNum}")
    gateway.get(f"{gateway.base}/cid?number=anonymous")
    gateway.get(f"{gateway.base}/cisco/directory.xml")
    after = samples()
    key = lambda name, **labels: (name, tuple(sorted(labels.items())))
    assert after[key("corpdir_gateway_lookups_total", answer="cache")] - before[key("corpdir_gateway_lookups_total", answer="cache")] == 3
    assert after[key("corpdir_gateway_lookups_total", answer="withheld")] == 1
    assert after[key("corpdir_gateway_directory_downloads_total", phone="cisco")] == 1
    assert ("corpdir_gateway_sync_age_seconds", ()) in after and ("corpdir_gateway_n1_seconds_count", ()) in after
    assert gateway.get(f"{gateway.origin}/metrics").status_code == 401  # behind the same access as everything


def test_accept_charset_gives_shift_jis_or_ascii_to_phones_that_prefer_it(gateway):
    user = gateway.call(gateway.service.people.window(None, limit=1))[0]
    for path in ("/cisco/directory.xml", "/snom/directory.xml", "/yealink/directory.xml", "/grandstream/phonebook.xml"):
        sjis = gateway.get(f"{gateway.base}{path}", headers={"Accept-Charset": "Shift_JIS, utf-8;q=0.5"})
        assert sjis.headers["content-type"] == "text/xml; charset=Shift_JIS", path
        assert sjis.content.startswith(b'<?xml version="1.0" encoding="Shift_JIS"?>')
        text = sjis.content.decode("shift_jis")  # every byte is Shift_JIS
        root = ET.fromstring(text.split("?>", 1)[1])
        assert user.fullname.split()[0] in " ".join(root.itertext()), path
        latin = gateway.get(f"{gateway.base}{path}", headers={"Accept-Charset": "iso-8859-1, utf-8;q=0.7"})
        assert latin.headers["content-type"] == "text/xml; charset=ISO-8859-1" and latin.content.isascii(), path
        ET.fromstring(latin.content)
        plain = gateway.get(f"{gateway.base}{path}", headers={"Accept-Charset": "utf-8, iso-8859-1;q=0.5"})
        assert plain.headers["content-type"] == "text/xml; charset=utf-8"
        assert user.fullname.split()[0].encode() in plain.content
