"""The phonebook in a real slapd, searched as Yealink and Grandstream search it.

The exported LDIF is loaded with ``ldapadd`` into a new base; then every number of the
demo tenant, in every form a phone may have received it (as written, national, ``+81...``,
``81...``), is looked up with each phone's number filter and must find exactly the entry
caller-ID names (the person, the contact, the division, or the company for a line many
contacts carry); and every person is looked up by name prefix in kanji, katakana,
hiragana and romaji (family name first), while a given name typed in romaji finds nobody
by it. The sweep runs over one ldap3 connection (thousands of searches); representative
searches go through ``ldapsearch`` too, as a shell user would check.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import unicodedata

import jaconv
import phonenumbers
import pytest

from corpdir import cli
from service_fixtures import LiveServer, make_server

from .slapd import BASE_DN, LDAPSEARCH, SLAPD, Slapd

pytestmark = pytest.mark.skipif(not (SLAPD and LDAPSEARCH and shutil.which("ldapadd")),
                                reason="needs OpenLDAP's slapd and ldap-utils (Debian: slapd ldap-utils)")
# Each phone's documented filters; '%' is what the phone has (the number received, the name typed)
NUMBER_FILTERS = {"yealink": "(|(telephoneNumber=%)(mobile=%)(ipPhone=%))", "grandstream": "(|(telephoneNumber=%)(Mobile=%))"}
NAME_FILTER = "(|(cn=%)(sn=%))"  # both phones; matched as a prefix (the typed text, then '*')
STORED_AS_E164 = "+81-3-5555-0606"


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """slapd holding the exported phonebook, and the cache's entries the export came from."""
    tmp = tmp_path_factory.mktemp("ldap-phones")
    live = LiveServer(make_server())
    patch = pytest.MonkeyPatch()
    patch.setenv("CORPDIR_BASE_URL", live.base_url)
    patch.setenv("CORPDIR_API_KEY", "demo-reception")
    patch.setenv("CORPDIR_CACHE_DIR", str(tmp / "cache"))
    patch.setenv("CORPDIR_CONFIG", os.devnull)
    asyncio.run(_add_user_stored_as_e164(live))
    slapd = Slapd(tmp / "slapd")
    try:
        assert cli.main(["sync", "--quiet"]) == 0
        target = tmp / "phonebook.ldif"
        assert cli.main(["export", "--format", "ldif", "--base-dn", BASE_DN, "-o", str(target)]) == 0
        slapd.ldapadd(target.read_text(encoding="utf-8"))  # a new base: the file brings its own base entry
        yield slapd, _cached()
    finally:
        slapd.stop()
        live.stop()
        patch.undo()


async def _add_user_stored_as_e164(live) -> None:
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceConfig

    client = DirectoryClient(ServiceConfig(base_url=live.base_url, api_key="demo-admin"))
    try:
        await client.create_user(loginId="ldap.e164", fullname="青木 里美", fullnameKana="アオキ サトミ",
                                 fullnameAlphabet="Satomi Aoki", phoneNum=STORED_AS_E164)
    finally:
        await client.aclose()


def _cached():
    """(users and shared contacts as the cache holds them, the cached divisions)."""
    from corpdir.config import load_settings
    from corpdir.service.directory import DirectoryService
    from corpdir.service.phonebook import Phonebook

    async def read():
        service = DirectoryService.open(load_settings().service)
        phonebook = Phonebook(service)
        try:
            return await phonebook.entries(), [d for d, _ in await service.divisions.all()]
        finally:
            phonebook.close()
            await service.close()

    return asyncio.run(read())


def _searcher(slapd):
    import ldap3

    conn = ldap3.Connection(ldap3.Server(slapd.url, get_info=ldap3.NONE), auto_bind=True)

    def search(filter_: str) -> set[str]:
        conn.search(BASE_DN, filter_, search_scope=ldap3.LEVEL, attributes=["uid"])
        return {e.entry_dn.split(",")[0][4:] for e in conn.entries}

    return search


def _forms(number: str) -> list[str]:
    """What a phone may have received: the number as written, national, +81..., 81..."""
    parsed = phonenumbers.parse(number, "JP")
    e164 = phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
    return [number, "0" + str(parsed.national_number), e164, e164[1:]]


def _holders(entries, divisions) -> dict[str, set[str]]:
    """E.164 -> the uids caller-ID names for it: the users holding it, else the contacts
    holding it as their own, else the division whose own number it is, else the company
    line (a number written on contacts as the company's or division's)."""
    key = lambda n: phonenumbers.format_number(phonenumbers.parse(n, "JP"), phonenumbers.PhoneNumberFormat.E164)  # noqa: E731
    groups: dict[str, dict[str, set[str]]] = {"user": {}, "contact": {}, "division": {}, "company": {}}
    for e in entries:
        for field, number in e.numbers:
            if field == "faxNum" or len(number) < 6:
                continue
            group = "company" if field in ("companyDelegatedPhoneNum", "divisionDelegatedPhoneNum") else e.kind
            groups[group].setdefault(key(number), set()).add(f"{e.kind}-{e.id}" if group != "company" else "company")
    for d in divisions:
        if d.divisionPhoneNum:
            groups["division"].setdefault(key(d.divisionPhoneNum), set()).add(f"division-{d.divisionId}")
    out: dict[str, set[str]] = {}
    for group in ("user", "contact", "division", "company"):
        for number, uids in groups[group].items():
            out.setdefault(number, uids)
    return out


def test_every_number_in_every_form_finds_the_entry_caller_id_names(loaded):
    slapd, (entries, divisions) = loaded
    search = _searcher(slapd)
    holders = _holders(entries, divisions)
    stored = {n: number for e in entries for f, number in e.numbers if f != "faxNum" and len(number) >= 6
              for n in [_forms(number)[2]]}
    stored.update({_forms(d.divisionPhoneNum)[2]: d.divisionPhoneNum for d in divisions if d.divisionPhoneNum})
    assert len(holders) > 300 and {"user", "contact", "division", "company"} <= {
        next(iter(u)).split("-")[0] for u in holders.values()}
    single = 0
    for e164, uids in holders.items():
        for form in _forms(stored[e164]):
            for phone, pattern in NUMBER_FILTERS.items():
                found = search(pattern.replace("%", form))
                if uids == {"company"}:  # the line's one entry, named by number
                    assert len(found) == 1 and next(iter(found)).startswith("company-"), (phone, form, found)
                else:
                    assert found == uids, (phone, form, found, uids)
        single += len(uids) == 1
    assert single >= len(holders) - 5  # only a few numbers are held twice (a contact saved twice)


def test_a_number_stored_as_e164_is_found_by_what_each_phone_received(loaded):
    slapd, (entries, _) = loaded
    made = next(e for e in entries if dict(e.numbers).get("phoneNum") == STORED_AS_E164)
    for received in ("0355550606", "03-5555-0606", "+81355550606", "81355550606"):
        for pattern in NUMBER_FILTERS.values():
            found = slapd.search(pattern.replace("%", received), "displayName")  # ldapsearch, as a shell user checks
            assert found == {f"uid=user-{made.id},{BASE_DN}": {"displayName": ["青木 里美"]}}, received


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def test_every_person_is_found_by_name_in_each_script_and_romaji_family_first(loaded):
    slapd, (entries, _) = loaded
    search = _searcher(slapd)
    people = [e for e in entries if e.kana.strip() and e.alphabet.strip() and len(e.name.split()) == 2]
    assert len(people) > 100
    for e in people:
        uid = f"{e.kind}-{e.id}"
        family, reading = e.name.split()[0], " ".join(jaconv.hira2kata(unicodedata.normalize("NFKC", e.kana)).split())
        given_roman, family_roman = e.alphabet.split()[0], e.alphabet.split()[-1]  # the directory writes 'Satomi Aoki'
        for typed in (family, reading.split()[0], jaconv.kata2hira(reading.split()[0]), family_roman):
            assert uid in search(NAME_FILTER.replace("%", typed + "*")), (typed, e)
        readings = {f"{o.kind}-{o.id}": " ".join(jaconv.hira2kata(unicodedata.normalize("NFKC", o.kana)).split())
                    for o in entries}
        starting = {u for u, r in readings.items() if r.startswith(reading)}  # the one person, bar a namesake
        assert search(NAME_FILTER.replace("%", reading + "*")) == starting and uid in starting
        assert search(NAME_FILTER.replace("%", jaconv.kata2hira(reading) + "*")) == starting
        full_roman = search(NAME_FILTER.replace("%", f"{family_roman} {given_roman}*"))
        assert uid in full_roman and all(readings[u].startswith(reading.split()[0]) for u in full_roman if u in readings)
        if not _fold(family_roman).startswith(_fold(given_roman)):  # 'Sato*' must not find a Satomi
            assert uid not in search(NAME_FILTER.replace("%", given_roman + "*")), (given_roman, e)


def test_ldapsearch_finds_one_person_by_hiragana_and_by_romaji_family_name(loaded):
    slapd, (entries, _) = loaded
    made = next(e for e in entries if dict(e.numbers).get("phoneNum") == STORED_AS_E164)
    dn = f"uid=user-{made.id},{BASE_DN}"
    for typed in ("あおき さとみ*", "アオキ サトミ*", "Aoki Satomi*", "青木 里美*"):
        assert slapd.search(NAME_FILTER.replace("%", typed), "displayName") == {dn: {"displayName": ["青木 里美"]}}, typed
    assert dn not in slapd.search(NAME_FILTER.replace("%", "Satomi*"))  # her given name does not start her entry's names
