"""`corpdir ldap-sync` against a real slapd: the phones' own filters find people, and after
users change on the service one more sync makes the tree agree with the cache exactly."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from corpdir import cli
from corpdir.phone import digits
from hostile_text import HOSTILE, assert_inert
from service_fixtures import LiveServer, make_server

from .slapd import BASE_DN, LDAPSEARCH, ROOT_DN, ROOT_PW, SLAPD, Slapd

pytestmark = pytest.mark.skipif(not (SLAPD and LDAPSEARCH and shutil.which("ldapadd")),
                                reason="needs OpenLDAP's slapd and ldap-utils (Debian: slapd ldap-utils)")
YEALINK_NAME = "(|(cn=%)(sn=%))"
YEALINK_NUMBER = "(|(telephoneNumber=%)(mobile=%))"


@pytest.fixture
def world(tmp_path, monkeypatch):
    live = LiveServer(make_server())
    monkeypatch.setenv("CORPDIR_BASE_URL", live.base_url)
    monkeypatch.setenv("CORPDIR_API_KEY", "demo-reception")
    slapd = Slapd(tmp_path / "slapd")
    secret = tmp_path / "bind-password"
    secret.write_text(ROOT_PW + "\n")
    yield live, slapd, secret
    slapd.stop()
    live.stop()


def ldap_sync(slapd, secret, capsys) -> str:
    code = cli.main(["ldap-sync", "--url", slapd.url, "--base-dn", BASE_DN, "--bind-dn", ROOT_DN,
                     "--password-file", str(secret), "--sync"])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def cached_entries():
    """What the cache holds, as the LDAP entries it should be."""
    from corpdir.config import load_settings
    from corpdir.gateway.ldap.entries import directory
    from corpdir.service.directory import DirectoryService
    from corpdir.service.phonebook import Phonebook

    async def read():
        service = DirectoryService.open(load_settings().service)
        phonebook = Phonebook(service)
        try:
            return await directory(phonebook, BASE_DN)
        finally:
            phonebook.close()
            await service.close()

    return asyncio.run(read())


def assert_tree_is_the_cache(slapd) -> None:
    tree = slapd.search("(objectClass=inetOrgPerson)")
    wanted = cached_entries()
    assert set(tree) == set(wanted)
    for dn, attrs in wanted.items():
        got = {k: sorted(v) for k, v in tree[dn].items()}
        assert got == {k: sorted(v) for k, v in attrs.items()}, dn


def admin(live):
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceConfig

    return DirectoryClient(ServiceConfig(base_url=live.base_url, api_key="demo-admin"))


def test_ldap_sync_serves_the_yealink_filters_and_sends_only_changes(world, capsys):
    live, slapd, secret = world
    first = ldap_sync(slapd, secret, capsys)
    tree = slapd.search("(objectClass=inetOrgPerson)")
    assert first.strip() == f"{len(tree)} added, 0 modified, 0 deleted, 0 unchanged" and len(tree) > 100
    assert_tree_is_the_cache(slapd)

    person = next(a for a in tree.values() if a["uid"][0].startswith("user-") and "telephoneNumber" in a and len(a["cn"]) > 1)
    kana = person["cn"][1]
    by_name = slapd.search(YEALINK_NAME.replace("%", kana.split()[0] + "*"), "displayName", "telephoneNumber", "mobile")
    assert person["displayName"][0] in {a["displayName"][0] for a in by_name.values()}  # found by its reading
    number = person["telephoneNumber"][0]
    by_number = slapd.search(YEALINK_NUMBER.replace("%", digits(number)), "displayName")
    assert [a["displayName"][0] for a in by_number.values()] == [person["displayName"][0]]  # hyphens or not

    async def change():
        client = admin(live)
        try:
            users = (await client.list_users(pageSize=100)).items
            renamed, gone = users[1], users[2]
            await client.edit_user(renamed.userId, {"fullname": "改名 一郎", "fullnameKana": "カイメイ イチロウ",
                                                    "mobileNum": "090-5555-0303"})
            await client.delete_user(gone.userId)
            made = await client.create_user(loginId="ldap.new", fullname="新人 二郎", fullnameKana="シンジン ジロウ",
                                            phoneNum="03-5555-0404")
            return renamed.userId, gone.userId, made.userId
        finally:
            await client.aclose()

    renamed, gone, made = asyncio.run(change())
    second = ldap_sync(slapd, secret, capsys)
    assert second.strip() == f"1 added, 1 modified, 1 deleted, {len(tree) - 2} unchanged"
    assert_tree_is_the_cache(slapd)
    after = slapd.search("(objectClass=inetOrgPerson)")
    assert after[f"uid=user-{renamed},{BASE_DN}"]["displayName"] == ["改名 一郎"]
    assert after[f"uid=user-{renamed},{BASE_DN}"]["mobile"] == ["090-5555-0303", "+819055550303", "819055550303"]  # as received
    assert f"uid=user-{gone},{BASE_DN}" not in after
    assert slapd.search(YEALINK_NUMBER.replace("%", "0355550404"), "displayName") == {
        f"uid=user-{made},{BASE_DN}": {"displayName": ["新人 二郎"]}}
    third = ldap_sync(slapd, secret, capsys)
    assert third.strip() == f"0 added, 0 modified, 0 deleted, {len(after)} unchanged"


def test_exported_ldif_loads_into_slapd_as_the_entries_ldap_sync_keeps(world, capsys, tmp_path):
    live, slapd, secret = world
    assert cli.main(["sync", "--quiet"]) == 0
    target = tmp_path / "phonebook.ldif"
    assert cli.main(["export", "--format", "ldif", "--base-dn", BASE_DN, "-o", str(target)]) == 0
    assert oct(target.stat().st_mode & 0o777) == "0o600"  # personal data
    text = target.read_text(encoding="utf-8")
    assert text.startswith(f"version: 1\ndn: {BASE_DN}\nobjectClass: top\nobjectClass: organizationalUnit\n")
    slapd.ldapadd(text)  # into a new base, as it is (its own base entry, base64 for kanji, folded lines)
    assert_tree_is_the_cache(slapd)
    capsys.readouterr()
    again = ldap_sync(slapd, secret, capsys)
    assert again.strip().startswith("0 added, 0 modified, 0 deleted")
    assert cli.main(["export", "--format", "ldif", "--phone", "03"]) == 2
    assert "nothing was exported" in capsys.readouterr().err


LDIF_TRICKS = {  # what would break or inject into LDIF (RFC 2849) if written as it stands
    "ldif_dn": "x\ndn: uid=evil,ou=phonebook,dc=example,dc=com",
    "ldif_change": "a\r\nchangetype: delete",
    "ldif_colon": ": a colon first",
    "ldif_lt": "<file:///etc/passwd",
    "ldif_space": " a space first",
}


def test_hostile_names_reach_ldif_and_slapd_as_inert_text(world, capsys, tmp_path):
    """Escapes, bidi, markup and LDIF's own syntax in names: the exported LDIF loads into
    slapd as exactly the cache's entries (nothing injected), every value a phone reads
    back is inert, and ldap-sync then finds nothing to change."""
    live, slapd, secret = world
    names = {k: v[:50] for k, v in {**HOSTILE, **LDIF_TRICKS}.items()}

    async def create() -> list[int]:
        client = admin(live)
        try:
            return [(await client.create_user(loginId=f"ldap.hostile{i}", fullname=name, fullnameKana=name,
                                              phoneNum=f"03-5555-{2000 + i}")).userId
                    for i, name in enumerate(names.values())]
        finally:
            await client.aclose()

    made = asyncio.run(create())
    assert cli.main(["sync", "--quiet"]) == 0
    target = tmp_path / "phonebook.ldif"
    assert cli.main(["export", "--format", "ldif", "--base-dn", BASE_DN, "-o", str(target)]) == 0
    slapd.ldapadd(target.read_text(encoding="utf-8"))
    assert_tree_is_the_cache(slapd)  # no entry injected, none lost
    tree = slapd.search("(objectClass=inetOrgPerson)")
    assert not any("evil" in dn for dn in tree)
    for user_id in made:
        attrs = tree[f"uid=user-{user_id},{BASE_DN}"]
        for values in attrs.values():
            for value in values:
                assert_inert(value)
        assert attrs["displayName"][0].strip() and "\n" not in attrs["displayName"][0]
    capsys.readouterr()
    again = ldap_sync(slapd, secret, capsys)
    assert again.strip().startswith("0 added, 0 modified, 0 deleted")
