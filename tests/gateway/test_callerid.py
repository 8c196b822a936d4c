"""Caller-ID over real HTTP, with the URLs each PBX generates, read the way each reads them."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from corpdir.phone import digits

from .conftest import PASSWORD, USER
from corpdir.service.backend import backend_of


def _someone(gateway, *fields: str):
    """A cached user with all of ``fields`` (their record as the service returned it)."""
    for user in gateway.call(gateway.service.people.window(None, limit=1000)):
        if all(getattr(user, f) for f in fields):
            return user
    raise AssertionError(f"no demo user with {fields}")


def freepbx_url(gateway, number: str) -> str:
    """FreePBX 'CallerID Lookup Sources', type HTTP: http://user:pass@host:port/path?query with
    [NUMBER] replaced by the caller's number (see README: host, port, user, password, path, query)."""
    query = "number=[NUMBER]".replace("[NUMBER]", number)
    return f"http://{quote(USER, safe='')}:{quote(PASSWORD, safe='')}@127.0.0.1:{gateway.port}/cid?{query}"


def test_freepbx_with_basic_auth_in_the_url_gets_the_name_as_the_whole_body(gateway):
    user = _someone(gateway, "phoneNum")
    answer = gateway.get(freepbx_url(gateway, digits(user.phoneNum)))
    assert answer.status_code == 200
    assert answer.text == user.fullname  # CURL() sets CALLERID(name) to the whole body
    assert answer.headers["x-corpdir-answer"] == "cache"


def test_wrong_or_missing_credentials_get_an_empty_body_never_a_message(gateway):
    user = _someone(gateway, "phoneNum")
    wrong = freepbx_url(gateway, digits(user.phoneNum)).replace(quote(PASSWORD, safe=""), "nope")
    for url in (wrong, f"{gateway.origin}/cid?number={digits(user.phoneNum)}",
                f"{gateway.origin}/t/not-the-token/cid?number={digits(user.phoneNum)}"):
        answer = gateway.get(url)
        assert answer.status_code in (401, 404)
        assert answer.content == b""  # a PBX would show any text as the caller's name


def test_freeswitch_sends_digits_only_and_gets_the_name(gateway):
    user = _someone(gateway, "companyMobileNum")
    e164_digits = "81" + digits(user.companyMobileNum)[1:]  # mod_cidlookup strips everything but digits
    answer = gateway.get(f"{gateway.base}/cid?number={e164_digits}")
    body = answer.text
    name = body if body and body != " " else None  # mod_cidlookup: empty or " " is no name
    assert name == user.fullname


def test_every_form_a_pbx_sends_finds_the_same_person(gateway):
    user = _someone(gateway, "phoneNum", "extensionNum")
    national = digits(user.phoneNum)
    forms = ["+81" + national[1:], "81" + national[1:], national, "0" + national, "9" + national,
             user.phoneNum, f"sip:{national}@pbx.example", quote("+81 " + user.phoneNum[1:])]
    for form in forms:
        assert gateway.get(f"{gateway.base}/cid?number={form}").text == user.fullname, form
    assert gateway.get(f"{gateway.base}/cid?number={user.extensionNum}").text == user.fullname


def test_an_unknown_number_is_an_empty_body_each_consumer_reads_as_no_name(gateway):
    answer = gateway.get(f"{gateway.base}/cid?number=0399990000")
    assert answer.status_code == 404 and answer.content == b""
    # Superfecta's regular-expression source: curl with FAILONERROR, so a 404 is '' and (.*) matches ''
    body = "" if answer.status_code >= 400 else answer.text
    assert re.search("(.*)", body).group(1) == ""
    assert answer.headers["x-corpdir-answer"] in ("unknown", "late")


def asterisk_hash(body: str) -> dict[str, str]:
    """func_curl with CURLOPT(hashcompat)=yes: trim, split on '&' then '=', percent-decode
    (ast_uri_decode: '%XX' only; '+' stays '+')."""
    fields = {}
    for piece in body.strip().split("&"):
        name, _, value = piece.partition("=")
        fields[unquote(name)] = unquote(value)
    return fields


def test_asterisk_hashcompat_gets_name_company_division_type_and_id(gateway):
    user = _someone(gateway, "phoneNum", "divisions")
    body = gateway.get(f"{gateway.base}/cid.kv?number={digits(user.phoneNum)}").text
    fields = asterisk_hash(body)
    assert fields["name"] == user.fullname
    assert fields["type"] == "person" and fields["id"] == f"user:{user.userId}"
    assert fields["division"].endswith(user.divisions[0].divisionName)
    assert "›" in fields["division"] or fields["division"] == user.divisions[0].divisionName
    contact = gateway.call(gateway.service.contacts.window("SHARED", limit=1))[0]
    fields = asterisk_hash(gateway.get(f"{gateway.base}/cid.kv?number={digits(contact.phoneNum)}").text)
    assert fields["name"] == contact.fullname and fields["company"] == contact.companyName
    assert fields["id"] == f"contact:{contact.contactId}"


def test_json_answer_and_not_found(gateway):
    user = _someone(gateway, "companyMobileNum")
    found = gateway.get(f"{gateway.base}/cid.json?number={digits(user.companyMobileNum)}").json()
    assert found["found"] is True and found["name"] == user.fullname and found["phoneType"] == "Company mobile"
    assert found["phoneMobile"] == user.companyMobileNum and found["phoneBusiness"] == ""
    assert found["matches"][0]["id"] == f"user:{user.userId}"
    nobody = gateway.get(f"{gateway.base}/cid.json?number=0399990000")
    assert nobody.status_code == 200 and nobody.json()["found"] is False and nobody.json()["matches"] == []


def test_ascii_option_uses_the_alphabet_name_or_a_romanisation(gateway):
    user = _someone(gateway, "phoneNum", "fullnameAlphabet")
    answer = gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}&ascii=1")
    assert answer.text == user.fullnameAlphabet and answer.content.isascii()
    contact = gateway.call(gateway.service.contacts.window("SHARED", limit=1))[0]
    gateway.call(gateway.admin.contacts.edit(contact, changes={"fullnameAlphabet": ""}))
    gateway.call(gateway.service.sync.run(full=True))
    body = gateway.get(f"{gateway.base}/cid.kv?number={digits(contact.phoneNum)}&ascii=1").content
    assert body.isascii()
    fields = asterisk_hash(body.decode())
    family = contact.fullnameKana.split()[0]
    assert fields["name"].lower().startswith(_hepburn(family)), fields


def _hepburn(kana: str) -> str:
    import pykakasi

    return "".join(p["hepburn"] for p in pykakasi.kakasi().convert(kana)).lower()


def test_allow_list_refuses_other_addresses(make_gateway):
    closed = make_gateway(allow=["10.0.0.0/8"])
    user = _someone(closed, "phoneNum")
    answer = closed.get(f"{closed.base}/cid?number={digits(user.phoneNum)}")
    assert answer.status_code == 403 and answer.content == b""
    opened = make_gateway(allow=["127.0.0.0/8"])
    assert opened.get(f"{opened.base}/cid?number={digits(user.phoneNum)}").text == user.fullname



def test_a_divisions_own_main_number_is_answered_from_the_cache_by_its_path(gateway):
    """A division's main number (divisionPhoneNum) is named as the division, by its path
    (many divisions share a name such as '1課'), from the cache like any other number,
    where the reference server's N1 names the same division."""
    divisions = [d for d, _ in backend_of(gateway.service).store.all_divisions() if d.divisionPhoneNum]
    assert divisions, "the demo tenant gives divisions their own numbers"
    division = divisions[-1]  # a deep one: its path is longer than its name
    number = division.divisionPhoneNum
    [n1] = gateway.call(backend_of(gateway.service).client.identify_numbers([number])).items
    assert (n1.phoneNumContactType, n1.displayName) == ("SHARED_NUMBER", division.divisionName)  # the reference
    path = " › ".join(backend_of(gateway.service).store.division_paths([division.divisionId])[division.divisionId])

    answer = gateway.get(f"{gateway.base}/cid?number={digits(number)}")
    assert answer.status_code == 200 and answer.headers["x-corpdir-answer"] == "cache"
    assert answer.text == path and answer.text.endswith(division.divisionName)
    found = gateway.get(f"{gateway.base}/cid.json?number={number}").json()
    assert found["found"] is True and found["source"] == "cache" and found["type"] == "division"
    assert found["callerName"] == path and found["division"] == path and found["name"] == division.divisionName
    assert found["id"] == f"division:{division.divisionId}" and found["phoneBusiness"] == number
    assert found["url"] == (division.divisionUrl or "")  # its own web page, never a record page (it has none)
    fields = asterisk_hash(gateway.get(f"{gateway.base}/cid.kv?number={digits(number)}").text)
    assert fields["name"] == path and fields["type"] == "division"
    ascii_name = gateway.get(f"{gateway.base}/cid?number={digits(number)}&ascii=1")
    assert ascii_name.content.isascii() and ascii_name.text.count(" > ") == path.count(" › ")
