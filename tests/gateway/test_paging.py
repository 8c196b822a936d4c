"""Phones that page: every page within its model's limits, Next then Prev back to the very
same page on every page, searches past one screen, and people of one name told apart."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlparse

from corpdir.service.backend import backend_of


def _walk(gateway, url: str, key: str = "URL") -> list[tuple[str, bytes, dict[str, str]]]:
    """Every page from ``url`` by Next: (url, body, soft keys by name)."""
    pages = []
    while url:
        body = gateway.get(url).content
        root = ET.fromstring(body)
        keys = {k.findtext("Label") or k.findtext("Name"): k.findtext(key) for k in root.findall("SoftKeyItem")}
        pages.append((url, body, keys))
        url = keys.get("Next")
        assert len(pages) < 1000
    return pages


def _rows(body: bytes) -> list[tuple[str, str]]:
    return [(e.findtext("Name"), e.findtext("Telephone")) for e in ET.fromstring(body).findall("DirectoryEntry")]


def _round_trips(gateway, pages, key: str) -> None:
    """Next from each page, then Prev, shows that page again, entry for entry."""
    for (url, body, keys), (_, following, next_keys) in zip(pages, pages[1:]):
        back = gateway.get(next_keys["Prev"]).content
        assert _rows(back) == _rows(body), url


def test_cisco_pages_fit_the_byte_budget_and_prev_undoes_next_on_every_page(gateway):
    pages = _walk(gateway, f"{gateway.base}/cisco/directory.xml")
    assert len(pages) > 3
    for url, body, _ in pages:
        assert len(body) <= 4000, (url, len(body))  # older models refuse a larger XML object
        assert 0 < len(_rows(body)) <= 32
    _round_trips(gateway, pages, "URL")
    small = _walk(gateway, f"{gateway.base}/cisco/directory.xml?bytes=2000")
    assert all(len(body) <= 2000 for _, body, _ in small) and len(small) > len(pages)
    assert [r for _, b, _ in small for r in _rows(b)] == [r for _, b, _ in pages for r in _rows(b)]  # same rows, smaller pages
    assert all(parse_qs(urlparse(keys["Next"]).query)["bytes"] == ["2000"] for _, _, keys in small[:-1])


def test_snom_pages_round_trip_and_search_goes_past_one_page(gateway):
    pages = _walk(gateway, f"{gateway.base}/snom/directory.xml", "Url")
    assert len(pages) > 2 and all(0 < len(_rows(b)) <= 50 for _, b, _ in pages)
    _round_trips(gateway, pages, "Url")
    company, count = _busiest_company(gateway)
    found = _walk(gateway, f"{gateway.base}/snom/directory.xml?q={company}", "Url")
    names = [n for _, b, _ in found for n, _ in _rows(b)]
    assert len(found) > 1 and len(names) >= count  # every number of every contact of it, over pages


def _busiest_company(gateway) -> tuple[str, int]:
    """The shared-folder company with the most numbers listed, and how many rows they take."""
    contacts = gateway.call(gateway.service.contacts.window("SHARED", limit=10_000))
    rows: dict[str, int] = {}
    for c in contacts:
        if c.companyName:
            rows[c.companyName] = rows.get(c.companyName, 0) + sum(
                1 for f in ("phoneNum", "mobileNum", "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum")
                if getattr(c, f, None))
    company = max(rows, key=rows.get)
    assert rows[company] > 50, rows[company]
    return company, rows[company]


def test_cisco_search_beyond_32_pages_with_next(gateway):
    company, count = _busiest_company(gateway)
    first = gateway.get(f"{gateway.base}/cisco/directory.xml", params={"q": company}).content
    pages = _walk(gateway, f"{gateway.base}/cisco/directory.xml?q={company}")
    assert len(pages) > 1
    prompt = ET.fromstring(first).findtext("Prompt")
    total = sum(len(_rows(b)) for _, b, _ in pages)
    assert total >= count and prompt.startswith("1-")
    _round_trips(gateway, pages, "URL")


def people_of_one_name(gateway, code: str = "SAME", kana: str = "やまだ たろう") -> None:
    """Three 山田 太郎 (read ``kana``) with numbers 03-5555-0700..02: one in 総務部 › 3課, two
    in 営業部 › 3課; ``code`` keeps their divisions' codes apart from others'."""
    client = backend_of(gateway.admin).client
    parents = [gateway.call(client.create_division(divisionCode=f"{code}{i}", divisionName=name))
               for i, name in enumerate(("営業部", "総務部"))]
    third = [gateway.call(client.create_division(divisionCode=f"{code}3{i}", divisionName="3課",
                                                 parentDivisionId=p.divisionId)) for i, p in enumerate(parents)]
    for i, division in enumerate((*third, third[0])):
        gateway.call(client.create_user(loginId=f"{code.lower()}-yamada{i}", fullname="山田 太郎", fullnameKana=kana,
                                        phoneNum=f"03-5555-07{i:02d}", divisionIds=[division.divisionId]))
    gateway.call(gateway.service.sync.run())


def test_people_of_one_name_in_divisions_of_one_name_are_told_apart(gateway):
    people_of_one_name(gateway)
    yealink = ET.fromstring(gateway.get(f"{gateway.base}/yealink/directory.xml", params={"q": "やまだ たろう"}).content)
    names = [e.findtext("Name") for e in yealink.findall("DirectoryEntry") if e.findtext("Name").startswith("山田 太郎")]
    assert len(names) == 3 and len(set(names)) == 3, names  # three people, three different lines
    assert "山田 太郎 (総務部 › 3課)" in names  # the path's tail that tells them apart
    assert sum("営業部 › 3課, 03-5555-07" in n for n in names) == 2  # same name, same division: their number
    cisco = ET.fromstring(gateway.get(f"{gateway.base}/cisco/directory.xml", params={"q": "山田 太郎"}).content)
    shown = {e.findtext("Name") for e in cisco.findall("DirectoryEntry")}
    assert {f"{n} Office" for n in names} <= shown


def test_yealink_search_returns_every_match_past_200(gateway):
    """Yealink shows what one search answer holds (it does not page): a cut at 200 hid the rest."""
    client = backend_of(gateway.admin).client
    for i in range(230):
        gateway.call(client.create_user(loginId=f"shiken{i}", fullname=f"試験 {i}号", fullnameKana=f"しけん {i}ごう",
                                        phoneNum=f"03-5556-{i:04d}"))
    gateway.call(gateway.service.sync.run())
    found = ET.fromstring(gateway.get(f"{gateway.base}/yealink/directory.xml", params={"q": "しけん"}).content)
    shown = {e.findtext("Name") for e in found.findall("DirectoryEntry")}
    assert {f"試験 {i}号" for i in range(230)} <= shown
