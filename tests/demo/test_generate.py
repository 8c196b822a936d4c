"""The demo tenant: deterministic, the documented size, and valid against the spec.

The key guarantee is ``test_*_pass_spec_validation``: every generated record, turned into
the request body that would create it, passes ``corpdir.spec.validate_body``. If it did
not, the server could not load its own demo.
"""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
from collections import Counter
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from faker.providers.person.ja_JP import Provider as FakerPerson
from PIL import Image

from corpdir.phone import match_key
from corpdir.server.demo import DEMO_KEYS, DemoTenant, default_contacts, generate_tenant
from corpdir.spec import validate_body
from corpdir.spec.usertype import not_settable_fields

KATAKANA = re.compile(r"[\u30A0-\u30FF ]+")  # katakana, ー, ・ and the space between family and given name


@pytest.fixture(scope="module")
def tenant() -> DemoTenant:
    return generate_tenant(500, seed=1)


# --- request bodies: the records without their response-only and storage-side keys ----

def user_body(user: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in user.items() if k not in ("userId", "collaborations") and v is not None}
    if user["collaborations"]:
        body["chatSettingList"] = [{"chatSettingSeq": c["chatSettingSeq"], "chatAccountId": c["chatAccountId"]}
                                   for c in user["collaborations"]]
    return body


def division_body(division: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in division.items() if k != "divisionId" and v is not None}


CONTACT_STORAGE_KEYS = {"contactId", "ownerUserId", "ocrStatus", "ocrType", "ocrResult", "registeredUserId",
                        "registeredAt", "updatedAt"}


def contact_body(contact: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in contact.items() if k not in CONTACT_STORAGE_KEYS}


def call_body(call: dict[str, Any], id_key: str) -> dict[str, Any]:
    return {k: v for k, v in call.items() if k not in (id_key, "ownerUserId") and v is not None}


# --- determinism -----------------------------------------------------------------------

def test_same_seed_gives_an_identical_tenant() -> None:
    assert generate_tenant(80, seed=7, contacts=150) == generate_tenant(80, seed=7, contacts=150)


def test_different_seed_gives_a_different_tenant() -> None:
    a, b = generate_tenant(60, seed=7, contacts=100), generate_tenant(60, seed=8, contacts=100)
    assert [u["fullname"] for u in a.users] != [u["fullname"] for u in b.users]
    assert a.photos != b.photos and a.reference_time != b.reference_time


def test_output_does_not_depend_on_string_hashing() -> None:
    """Set iteration order changes with PYTHONHASHSEED; the tenant must not."""
    code = ("import hashlib; from corpdir.server.demo import generate_tenant; "
            "print(hashlib.sha256(repr(generate_tenant(40, seed=3, contacts=80)).encode()).hexdigest())")
    here = hashlib.sha256(repr(generate_tenant(40, seed=3, contacts=80)).encode()).hexdigest()
    other_seed = "1" if sys.flags.hash_randomization == 0 else "0"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={"PYTHONHASHSEED": other_seed, "PATH": "/usr/bin:/bin"})
    assert result.stdout.strip() == here


# --- sizes -----------------------------------------------------------------------------

def test_default_size(tenant: DemoTenant) -> None:
    assert len(tenant.users) == 500
    assert len(tenant.contacts) == 2000
    assert 30 <= len(tenant.divisions) <= 50
    types = Counter(u["userType"] for u in tenant.users)
    assert types["REGULAR_USER"] > 400 and types["REGISTRATION_ONLY_USER"] > 10 and types["FACILITY"] >= 3
    assert len(tenant.photos) == len({u for u in tenant.photos}) > 300
    assert len(tenant.cards) == 500


def test_default_contact_count() -> None:
    assert default_contacts(500) == 2000
    assert default_contacts(100) == 400
    assert default_contacts(1000) == 2000
    assert default_contacts(100_000) == 100_000


def test_ids_are_dense_and_ordered(tenant: DemoTenant) -> None:
    assert [u["userId"] for u in tenant.users] == list(range(1, 501))
    assert [c["contactId"] for c in tenant.contacts] == list(range(1, 2001))
    assert [d["divisionId"] for d in tenant.divisions] == list(range(1, len(tenant.divisions) + 1))
    assert [c["incomingCallHistoryId"] for c in tenant.incoming_calls] == list(range(1, len(tenant.incoming_calls) + 1))
    assert [c["outgoingCallHistoryId"] for c in tenant.outgoing_calls] == list(range(1, len(tenant.outgoing_calls) + 1))


@pytest.mark.slow
def test_a_larger_tenant_is_consistent() -> None:
    big = generate_tenant(5000, seed=2)
    assert len(big.users) == 5000 and len(big.contacts) == default_contacts(5000)
    assert len(big.divisions) > 100
    _assert_unique_user_keys(big)
    assert len(big.photos) == 1000 and len(big.cards) == 500
    for user in big.users[::50]:
        validate_body("U2", user_body(user))
    for contact in big.contacts[::50]:
        validate_body("X2", contact_body(contact))


# --- the key guarantee: every record is a valid request ------------------------------

def test_users_pass_spec_validation(tenant: DemoTenant) -> None:
    for user in tenant.users:
        validate_body("U2", user_body(user))


def test_users_also_fit_the_narrower_variants(tenant: DemoTenant) -> None:
    """A and B lack groupware/gwsAccount but otherwise accept the same users."""
    for user in tenant.users:
        body = {k: v for k, v in user_body(user).items() if k not in ("groupware", "gwsAccount")}
        validate_body("U2", body, variant="A")
        validate_body("U2", body, variant="B")


def test_divisions_pass_spec_validation(tenant: DemoTenant) -> None:
    for division in tenant.divisions:
        validate_body("D2", division_body(division))
        validate_body("D2", division_body(division), variant="A")


def test_profiles_pass_spec_validation(tenant: DemoTenant) -> None:
    column_ids = {c["customColumnId"] for c in tenant.custom_columns}
    for user_id, profile in tenant.profiles.items():
        assert profile["selfUpdatedAt"].tzinfo is not None
        validate_body("U10", {k: v for k, v in profile.items() if k != "selfUpdatedAt"})
        assert {c["customColumnId"] for c in profile["customColumns"]} <= column_ids


def test_contacts_pass_spec_validation(tenant: DemoTenant) -> None:
    for contact in tenant.contacts:
        validate_body("X2", contact_body(contact))


def test_calls_pass_spec_validation(tenant: DemoTenant) -> None:
    for call in tenant.incoming_calls:
        validate_body("H2", call_body(call, "incomingCallHistoryId"))
    for call in tenant.outgoing_calls:
        validate_body("H5", call_body(call, "outgoingCallHistoryId"))


def test_personal_folders_pass_spec_validation(tenant: DemoTenant) -> None:
    for folder in tenant.personal_folders:
        validate_body("P2", {"folderName": folder["folderName"], "sortScore": folder["sortScore"]})


def test_users_carry_only_fields_their_type_may_set(tenant: DemoTenant) -> None:
    for user in tenant.users:
        set_fields = {k for k, v in user_body(user).items()}
        assert not set_fields & not_settable_fields(user["userType"]), user["loginId"]


# --- names -----------------------------------------------------------------------------

def test_kana_is_katakana(tenant: DemoTenant) -> None:
    for record in tenant.users + tenant.contacts:
        assert KATAKANA.fullmatch(record["fullnameKana"]), record["fullnameKana"]
    for division in tenant.divisions:
        assert KATAKANA.fullmatch(division["divisionNameKana"]), division["divisionNameKana"]
    for contact in tenant.contacts:
        assert KATAKANA.fullmatch(contact["companyNameKana"]), contact["companyNameKana"]


def test_kanji_kana_and_romaji_name_the_same_person(tenant: DemoTenant) -> None:
    """Each part of a person's name is one of Faker's consistent (kanji, kana, romaji) triples."""
    surnames = set(FakerPerson.last_name_pairs)
    given = set(FakerPerson.first_name_male_pairs) | set(FakerPerson.first_name_female_pairs)
    people = [u for u in tenant.users[3:] if u["userType"] != "FACILITY"] + tenant.contacts
    for record in people:
        last, first = record["fullname"].split(" ")
        last_kana, first_kana = record["fullnameKana"].split(" ")
        first_roman, last_roman = record["fullnameAlphabet"].split(" ")
        assert (last, last_kana, last_roman) in surnames, record["fullname"]
        assert (first, first_kana, first_roman) in given, record["fullname"]
    admin = tenant.users[0]
    assert (admin["fullname"], admin["fullnameKana"], admin["fullnameAlphabet"]) == ("佐藤 健一", "サトウ ケンイチ", "Kenichi Sato")


# --- organisation ----------------------------------------------------------------------

def test_division_tree_is_three_to_four_levels_deep(tenant: DemoTenant) -> None:
    depth: dict[int, int] = {}
    parents = set()
    for d in tenant.divisions:  # parents before children
        parent = d["parentDivisionId"]
        assert parent is None or parent in depth
        depth[d["divisionId"]] = 1 if parent is None else depth[parent] + 1
        parents.add(parent)
    leaves = [i for i in depth if i not in parents]
    assert max(depth.values()) == 4
    assert all(depth[i] in (3, 4) for i in leaves)
    assert len({d["divisionCode"] for d in tenant.divisions}) == len(tenant.divisions)
    names = [d["divisionName"] for d in tenant.divisions]
    assert {"本社", "営業本部", "第一営業部", "1課", "受付"} <= set(names)


def test_larger_tenants_have_more_divisions() -> None:
    small = generate_tenant(100, seed=1, contacts=50)
    assert len(small.divisions) < 40


@pytest.mark.parametrize(("size", "contacts"), [(10, 0), (10, 3), (40, 25)])
def test_tiny_tenants_still_work(size: int, contacts: int) -> None:
    t = generate_tenant(size, seed=5, contacts=contacts)
    assert len(t.users) == size and len(t.contacts) == contacts
    assert [u["loginId"] for u in t.users[:3]] == ["admin", "reception", "noapi"]
    for user in t.users:
        validate_body("U2", user_body(user))
    for call in t.incoming_calls:
        validate_body("H2", call_body(call, "incomingCallHistoryId"))


def _assert_unique_user_keys(t: DemoTenant) -> None:
    for key in ("loginId", "email1", "extensionNum", "employeeNum"):
        values = [u[key] for u in t.users if u.get(key)]
        assert len(values) == len(set(values)), key


def test_login_ids_emails_extensions_and_employee_numbers_are_unique(tenant: DemoTenant) -> None:
    _assert_unique_user_keys(tenant)
    extensions = [u["extensionNum"] for u in tenant.users if u.get("extensionNum")]
    assert all(re.fullmatch(r"\d{4}", e) for e in extensions)
    assert all(u["email1"].endswith("@" + tenant.email_domain) for u in tenant.users if u.get("email1"))


def test_positions_admins_and_a_mix_of_phone_formats(tenant: DemoTenant) -> None:
    positions = Counter(u.get("position") for u in tenant.users)
    assert positions["部長"] >= 5 and positions["課長"] >= 10 and positions["主任"] >= 10
    assert 3 <= sum(1 for u in tenant.users if u.get("roles")) <= 10
    numbers = [u[f] for u in tenant.users for f in ("phoneNum", "companyMobileNum") if u.get(f)]
    assert any(n.startswith("+81-") for n in numbers)
    assert any(re.fullmatch(r"0\d{9,10}", n) for n in numbers)
    assert sum(bool(re.fullmatch(r"0\d0-\d{4}-\d{4}", n)) for n in numbers) > 100


# --- key users -------------------------------------------------------------------------

def test_documented_keys(tenant: DemoTenant) -> None:
    assert tenant.api_keys == list(DEMO_KEYS)
    by_key = {k.key: tenant.users[k.user_id - 1] for k in tenant.api_keys}
    admin, reception, noapi = by_key["demo-admin"], by_key["demo-reception"], by_key["demo-noapi"]
    assert (admin["loginId"], admin["password"]) == ("admin", "demo-admin-pass")
    assert "ADMIN_COMPANY" in admin["roles"]
    assert (reception["loginId"], reception["password"]) == ("reception", "demo-reception-pass")
    assert not reception.get("roles")
    division_names = {d["divisionId"]: d["divisionName"] for d in tenant.divisions}
    assert division_names[reception["divisionIds"][0]] == "受付"
    assert noapi["loginId"] == "noapi" and noapi["paapiAvailable"] is False
    assert admin["paapiAvailable"] is True and reception["paapiAvailable"] is True
    assert all(u["password"] is None for u in tenant.users[3:])
    assert all(k.description for k in DEMO_KEYS)


# --- contacts and folders --------------------------------------------------------------

def test_duplicates_exist_for_identified(tenant: DemoTenant) -> None:
    groups = Counter((c["fullname"], c["companyName"], c.get("email1")) for c in tenant.contacts if c.get("email1"))
    assert sum(1 for n in groups.values() if n > 1) >= 20


def test_contacts_refer_to_existing_folders_and_users(tenant: DemoTenant) -> None:
    shared = {f["folderNum"] for f in tenant.shared_folders}
    personal = {f["folderNum"]: f["ownerUserId"] for f in tenant.personal_folders}
    assert {f["folderName"] for f in tenant.shared_folders} >= {"取引先", "協力会社", "官公庁"}
    assert 2 in personal.values()  # the reception desk has its own books
    assert not shared & set(personal)
    user_ids = {u["userId"] for u in tenant.users}
    for c in tenant.contacts:
        folder = c["folderId"]
        if folder["directory"] == "SHARED":
            assert folder["folderNum"] in shared and c["ownerUserId"] is None
        else:
            assert personal[folder["folderNum"]] == c["ownerUserId"]
        assert c["registeredUserId"] in user_ids
    directories = Counter(c["folderId"]["directory"] for c in tenant.contacts)
    assert directories["PERSONAL"] > 50


def test_contact_times_are_aware_distinct_milliseconds(tenant: DemoTenant) -> None:
    updated = [c["updatedAt"] for c in tenant.contacts]
    assert len(set(updated)) == len(updated)
    for c in tenant.contacts:
        assert c["updatedAt"].tzinfo is not None and c["updatedAt"].microsecond % 1000 == 0
        assert c["registeredAt"] <= c["updatedAt"] <= tenant.reference_time


def test_ocr_fields(tenant: DemoTenant) -> None:
    for c in tenant.contacts:
        assert c["ocrStatus"] in ("CAN_SEND", "SENDING")
        if c["contactId"] in tenant.cards:
            assert c["ocrType"] in ("MACHINE", "OPERATOR") and c["ocrResult"] in ("SUCCESS", "FAILURE")
        else:
            assert c["ocrType"] == "NONE" and c["ocrResult"] is None


# --- images ----------------------------------------------------------------------------

def test_photos_and_cards_are_jpegs(tenant: DemoTenant) -> None:
    regular = {u["userId"] for u in tenant.users if u["userType"] == "REGULAR_USER"}
    assert set(tenant.photos) <= regular and {1, 2, 3} <= set(tenant.photos)
    for data in list(tenant.photos.values())[:50]:
        image = Image.open(io.BytesIO(data))
        assert image.format == "JPEG" and image.size == (256, 256)
    assert set(tenant.cards) <= {c["contactId"] for c in tenant.contacts}
    for data in list(tenant.cards.values())[:50]:
        image = Image.open(io.BytesIO(data))
        assert image.format == "JPEG"
        image.load()
    assert len(set(tenant.photos.values())) == len(tenant.photos)  # every avatar differs


# --- call histories --------------------------------------------------------------------

def test_call_histories_belong_to_key_users_and_mostly_known_numbers(tenant: DemoTenant) -> None:
    known = {match_key(n) for r in tenant.users + tenant.contacts for k, n in r.items()
             if isinstance(n, str) and (k.endswith("Num") or k == "extensionNum") and n}
    owners = {k.user_id for k in DEMO_KEYS}
    calls = [(c["fromNum"], c) for c in tenant.incoming_calls] + [(c["toNum"], c) for c in tenant.outgoing_calls]
    assert {c["ownerUserId"] for _, c in calls} == owners
    hits = sum(match_key(n) in known for n, _ in calls)
    assert 0.75 * len(calls) <= hits < len(calls)  # mostly known, some unknown
    reference: datetime = tenant.reference_time  # type: ignore[assignment]
    for c in tenant.incoming_calls:
        assert reference - timedelta(days=31) <= c["calledAt"] <= reference
        assert c["answered"] or c["duration"] == 0
        assert c["voicemail"] is None or not c["answered"]
    assert any(c["voicemail"] for c in tenant.incoming_calls)
    assert any(c["note"] for c in tenant.incoming_calls)
    assert sum(c["ownerUserId"] == 2 for c in tenant.incoming_calls) > 100  # the reception desk is busy


def test_tenant_settings(tenant: DemoTenant) -> None:
    assert tenant.location_contract_date > date(2019, 7, 4)
    assert len(tenant.custom_columns) == 3
    assert tenant.cucm_adapters and tenant.alpha_adapters
    adapter_ids = {a["tenantCucmAdapterSettingsId"] for a in tenant.cucm_adapters}
    assert {u["tenantCucmAdapterSettingsId"] for u in tenant.users} - {None} <= adapter_ids


def test_divisions_are_listed_in_the_order_the_company_counts_them():
    """sortScore: higher first (docs/divisions.md); the tree lists 本社 before the branches,
    第一営業部 before 第二 and 第三, 1課 before 2課."""
    from corpdir.cache.store import CacheStore
    from service_fixtures import demo_tenant

    store = CacheStore(":memory:")
    store.put_divisions(demo_tenant(3000).divisions)  # big enough for branches beside 本社
    names = lambda parent: [d.divisionName for d in store.child_divisions(parent)]  # noqa: E731
    top = store.child_divisions(None)
    assert names(None)[0] == "本社" and any(n.endswith("支社") for n in names(None)[1:])
    sales_hq = next(d for d in store.child_divisions(top[0].divisionId) if d.divisionName == "営業本部")
    departments = names(sales_hq.divisionId)
    assert departments[:3] == ["第一営業部", "第二営業部", "第三営業部"]
    first = store.child_divisions(sales_hq.divisionId)[0]
    assert names(first.divisionId)[:2] == ["1課", "2課"]
    store.close()
