"""Desk-phone directories over real HTTP, parsed with ElementTree as a phone would."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlparse

from corpdir.service.identify import dialable  # noqa: F401 - the numbers are the directory's as stored
from corpdir.spec.phone_fields import CONTACT_PHONE_FIELDS, USER_PHONE_FIELDS

LABELS = {"Ext", "Office", "Company mobile", "Mobile", "Personal mobile", "Company", "Division"}


def _directory_numbers(gateway) -> set[str]:
    """Every dialable number of every user and shared contact, as the directory stores it."""
    users = gateway.call(gateway.service.people.window(None, limit=10_000))
    contacts = gateway.call(gateway.service.contacts.window("SHARED", limit=10_000))
    numbers = {getattr(u, f) for u in users for f in USER_PHONE_FIELDS if f != "faxNum" and getattr(u, f)}
    return numbers | {getattr(c, f) for c in contacts for f in CONTACT_PHONE_FIELDS if f != "faxNum" and getattr(c, f)}


def _xml(gateway, path: str) -> ET.Element:
    answer = gateway.get(f"{gateway.base}{path}")
    assert answer.status_code == 200, answer.status_code
    assert answer.headers["content-type"] == "text/xml; charset=utf-8"
    assert answer.content.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    return ET.fromstring(answer.content)


def test_yealink_directory_lists_everyone_with_labelled_numbers_of_their_own(gateway):
    root = _xml(gateway, "/yealink/directory.xml")
    assert root.tag == "YealinkIPPhoneDirectory"
    entries = root.findall("DirectoryEntry")
    shown = {t.text for e in entries for t in e.findall("Telephone")}
    assert shown == _directory_numbers(gateway)  # all of them, and none the directory does not hold
    assert {t.get("label") for e in entries for t in e.findall("Telephone")} <= LABELS
    user = gateway.call(gateway.service.people.window(None, limit=1))[0]
    found = _xml(gateway, f"/yealink/directory.xml?q={user.fullnameKana.split()[0]}")
    assert any(e.findtext("Name").startswith(user.fullname) for e in found.findall("DirectoryEntry"))
    assert len(found.findall("DirectoryEntry")) < len(entries)


def test_yealink_phonebook_groups_people_by_division_path(gateway):
    root = _xml(gateway, "/yealink/phonebook.xml")
    assert root.tag == "YealinkIPPhoneBook"
    menus = {m.get("Name"): m.findall("Unit") for m in root.findall("Menu")}
    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=1000)) if u.divisions and u.extensionNum)
    path = next(name for name in menus if name.endswith(user.divisions[0].divisionName)
                and any(u.get("Phone1") == user.extensionNum for u in menus[name]))
    assert " › " in path  # the whole path, so two divisions of one name stay apart
    unit = next(u for u in menus[path] if u.get("Phone1") == user.extensionNum)
    assert unit.get("Name").startswith(user.fullname)
    assert unit.get("Phone2") in {user.companyMobileNum or "", user.mobileNum or "", user.personalMobileNum or ""}


def test_cisco_directory_pages_of_at_most_32_with_next_and_prev(gateway):
    seen: list[tuple[str, str]] = []
    url, pages, back = f"{gateway.base}/cisco/directory.xml", 0, None
    while url:
        root = ET.fromstring(gateway.get(url).content)
        assert root.tag == "CiscoIPPhoneDirectory"
        entries = root.findall("DirectoryEntry")
        assert 0 < len(entries) <= 32
        seen += [(e.findtext("Name"), e.findtext("Telephone")) for e in entries]
        keys = {k.findtext("Name"): k.findtext("URL") for k in root.findall("SoftKeyItem")}
        assert keys["Dial"] == "SoftKey:Dial" and keys["Exit"] == "SoftKey:Exit"
        assert ("Prev" in keys) == (pages > 0)
        if pages == 1:
            back = keys["Prev"]
        url, pages = keys.get("Next"), pages + 1
    assert pages > 2
    yealink = _xml(gateway, "/yealink/directory.xml").findall("DirectoryEntry")
    every_row = [(f"{e.findtext('Name')} {t.get('label')}", t.text) for e in yealink for t in e.findall("Telephone")]
    assert seen == every_row  # each number once, in reading order, labelled, across the pages
    first_again = ET.fromstring(gateway.get(back).content)
    assert parse_qs(urlparse(back).query)["start"] == ["0"]
    assert [e.findtext("Telephone") for e in first_again.findall("DirectoryEntry")] == [n for _, n in seen[:len(first_again.findall("DirectoryEntry"))]]


def test_cisco_search_input_leads_to_matching_entries(gateway):
    root = _xml(gateway, "/cisco/search.xml")
    assert root.tag == "CiscoIPPhoneInput"
    action, param = root.findtext("URL"), root.find("InputItem").findtext("QueryStringParam")
    user = gateway.call(gateway.service.people.window(None, limit=1))[0]
    found = ET.fromstring(gateway.get(action, params={param: user.fullname.split()[0]}).content)
    names = [e.findtext("Name") for e in found.findall("DirectoryEntry")]
    assert names and all(n.startswith(user.fullname.split()[0]) for n in names)


def test_snom_and_grandstream(gateway):
    snom = _xml(gateway, "/snom/directory.xml")
    assert snom.tag == "SnomIPPhoneDirectory" and 0 < len(snom.findall("DirectoryEntry")) <= 50
    # Snom documents SoftKeyItem as Name, Label, Url; a Telephone with a sign in it is dialled without the domain
    assert any(k.findtext("Label") == "Next" and k.findtext("Url") for k in snom.findall("SoftKeyItem"))
    assert all({c.tag for c in k} == {"Name", "Label", "Url"} for k in snom.findall("SoftKeyItem"))
    assert all(e.findtext("Telephone").lstrip("+").isdigit() for e in snom.findall("DirectoryEntry"))
    book = _xml(gateway, "/grandstream/phonebook.xml")
    assert book.tag == "AddressBook"
    numbers = {p.findtext("phonenumber") for c in book.findall("Contact") for p in c.findall("Phone")}
    assert numbers == _directory_numbers(gateway)
    phones = [p for c in book.findall("Contact") for p in c.findall("Phone")]
    assert {p.get("type") for p in phones} == {"Work", "Mobile"}  # of the documented Work/Home/Mobile/Fax/Other
    assert {p.findtext("accountindex") for p in phones} == {"0"}  # 0-based: the first account, not the second
    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=1000)) if u.extensionNum)
    contact = next(c for c in book.findall("Contact") if any(p.findtext("phonenumber") == user.extensionNum for p in c.findall("Phone")))
    assert f"{contact.findtext('LastName')} {contact.findtext('FirstName')}" == user.fullname.replace("\u3000", " ")


def test_ascii_directories_are_ascii(gateway):
    for path in ("/yealink/directory.xml", "/yealink/phonebook.xml", "/cisco/directory.xml", "/snom/directory.xml",
                 "/grandstream/phonebook.xml"):
        body = gateway.get(f"{gateway.base}{path}?ascii=1").content
        assert body.isascii(), path
        ET.fromstring(body)
