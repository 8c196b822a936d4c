"""External contacts: the address books of the demo company, and their folders.

Contacts belong to external companies made from name pools (株式会社高橋建設, 若葉電子
合同会社 ...) with a reading, a domain, a head office and a main number; a company's
people share its main number, fax and addresses and have direct lines in the same
block, which is what caller-ID lookup meets in real life. Shared folders hold customers
(取引先), partners (協力会社), suppliers (仕入先) and government offices (官公庁);
personal folders belong to the key users and to some other employees.

A few contacts are deliberate duplicates of another (same fullname, companyName and
email1, registered twice, often in another folder and with one field changed), so the
``identified`` merge of X1 has something to merge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from corpdir.server.demo import names as N
from corpdir.server.demo.names import City, Pools, Triple
from corpdir.server.demo.numbers import NumberPlan, alternative_form

Record = dict[str, Any]

SHARED_FOLDERS: tuple[str, ...] = ("取引先", "協力会社", "仕入先", "官公庁")
CUSTOMERS, PARTNERS, SUPPLIERS, GOVERNMENT = 1, 2, 3, 4
PERSONAL_FOLDER_BASE = 101  # personal folderNums follow the shared ones, unique in the tenant
KEY_USER_FOLDERS: tuple[tuple[str, ...], ...] = (
    ("個人の取引先",),  # admin
    ("来客予定", "よく使う番号", "出入り業者"),  # reception
    ("担当顧客", "展示会で名刺交換"),  # noapi
)
OTHER_FOLDER_NAMES = ("担当顧客", "名刺", "重要", "展示会", "前任者からの引継ぎ", "個人用")
CONTACT_COMMENTS = ("展示会で名刺交換", "紹介による面談", "年賀状送付先", "請求書送付先", "技術窓口",
                    "見積依頼の窓口", "担当者交代予定")


@dataclass(slots=True)
class Company:
    name: str
    kana: str
    english: str
    domain: str
    city: City
    main: str
    fax: str | None
    hq: dict[str, str]
    office: dict[str, str] | None
    folder: int
    government: bool
    emails: dict[str, int]  # mail local parts handed out, for unique addresses within the company
    division_numbers: dict[str, str]


@dataclass
class AddressBooks:
    shared_folders: list[Record]
    personal_folders: list[Record]
    contacts: list[Record]
    card_contact_ids: list[int]
    companies: list[Company]


def _address(rng: random.Random, pools: Pools, city: City) -> dict[str, str]:
    town = rng.choice(pools.towns)
    return {
        "zipCode": f"{city.zip3}-{rng.randrange(10_000):04d}",
        "address1": f"{city.prefecture}{city.city}{town}{rng.randrange(1, 6)}丁目{rng.randrange(1, 30)}番{rng.randrange(1, 20)}号",
        "address2": f"{town}{rng.choice(pools.buildings)}ビル {rng.randrange(1, 15)}F",
    }


def build_companies(count: int, rng: random.Random, pools: Pools, numbers: NumberPlan) -> list[Company]:
    """``count`` private companies (each stem + category once) and the government offices."""
    surnames: list[Triple] = list(dict.fromkeys(pools.surnames))  # distinct, in first-seen order
    stems = surnames + [Triple(t.kanji, t.kana, t.roman.capitalize()) for t in N.COMPANY_STEMS]
    combos = [(s, c) for s in stems for c in N.COMPANY_CATEGORIES]
    rng.shuffle(combos)
    companies: list[Company] = []
    for stem, category in combos[:count]:
        form, before, english_form = rng.choice(N.LEGAL_FORMS)
        core = stem.kanji + category.kanji
        name = f"{form}{core}" if before else f"{core}{form}"
        roman = stem.roman.lower()
        city = N.CITIES[0] if rng.random() < 0.5 else rng.choice(N.CITIES)
        main = numbers.landline(city.area_code)
        office_city = rng.choice(N.CITIES) if rng.random() < 0.3 else None
        r = rng.random()
        folder = CUSTOMERS if r < 0.6 else (PARTNERS if r < 0.88 else SUPPLIERS)
        companies.append(Company(
            name=name, kana=stem.kana + category.kana,
            english=f"{stem.roman.capitalize()} {category.roman.replace('-', ' ').title()} {english_form}",
            domain=f"{roman}-{category.roman}.example", city=city, main=main,
            fax=numbers.near(main) if rng.random() < 0.7 else None,
            hq=_address(rng, pools, city), office=_address(rng, pools, office_city) if office_city else None,
            folder=folder, government=False, emails={}, division_numbers={},
        ))
    for office in N.GOVERNMENT:
        city = N.CITIES[1] if "大阪" in office.kanji else (N.CITIES[7] if "横浜" in office.kanji else N.CITIES[0])
        main = numbers.landline(city.area_code)
        companies.append(Company(
            name=office.kanji, kana=office.kana, english=office.roman.upper(), domain=f"{office.roman}.go.example",
            city=city, main=main, fax=numbers.near(main), hq=_address(rng, pools, city), office=None,
            folder=GOVERNMENT, government=True, emails={}, division_numbers={},
        ))
    return companies


def _position(rng: random.Random) -> str:
    x = rng.random()
    for position, weight in N.CONTACT_POSITIONS:
        x -= weight
        if x < 0:
            return position
    return ""


class _ContactMaker:
    def __init__(self, rng: random.Random, pools: Pools, numbers: NumberPlan) -> None:
        self.rng = rng
        self.pools = pools
        self.numbers = numbers

    def make(self, contact_id: int, company: Company, folder: tuple[str, int], owner: int | None) -> Record:
        rng = self.rng
        r = rng.random
        person = self.pools.person(rng)
        division = rng.choice(N.GOVERNMENT_DIVISIONS if company.government else N.CONTACT_DIVISIONS)
        record: Record = {
            "contactId": contact_id,
            "folderId": {"directory": folder[0], "folderNum": folder[1]},
            "ownerUserId": owner,
            "companyName": company.name,
            "companyNameKana": company.kana,
            "companyDelegatedPhoneNum": company.main,
            "companyUrl": f"https://www.{company.domain}/",
            "headquartersLocation": dict(company.hq),
            "divisionName": division.kanji,
            "divisionNameKana": division.kana,
            "fullname": person.fullname,
            "fullnameKana": person.fullname_kana,
            "fullnameAlphabet": person.fullname_alphabet,
        }
        if company.office is not None:
            record["officeLocation"] = dict(company.office)
        position = _position(rng)
        if position:
            record["position"] = position
        if r() < 0.4:
            number = company.division_numbers.get(division.kanji)
            if number is None:
                number = company.division_numbers[division.kanji] = self.numbers.near(company.main)
            record["divisionDelegatedPhoneNum"] = number
        if r() < 0.05:
            record["divisionUrl"] = f"https://www.{company.domain}/{division.roman.lower().replace(' ', '-')}/"
        if r() < 0.8:
            phone = self.numbers.near(company.main)
            record["phoneNum"] = alternative_form(phone, rng) if r() < 0.08 else phone
        if r() < 0.45:
            mobile = self.numbers.mobile()
            record["companyMobileNum"] = alternative_form(mobile, rng) if r() < 0.08 else mobile
        if r() < 0.02:
            record["personalMobileNum"] = self.numbers.mobile()
        if r() < 0.03:
            record["mobileNum"] = self.numbers.mobile()
        if company.fax and r() < 0.5:
            record["faxNum"] = company.fax
        if r() < 0.9:
            local = person.slug
            n = company.emails.get(local, 0) + 1
            company.emails[local] = n
            record["email1"] = f"{local}{n if n > 1 else ''}@{company.domain}"
        if r() < 0.05:
            record["email2"] = f"{person.first.roman.lower()}{rng.randrange(100, 1000)}@mail.example"
        if r() < 0.02:
            record["webUrl"] = f"https://www.{company.domain}/staff/{person.last.roman.lower()}"
        if r() < 0.08:
            record["comment"] = rng.choice(CONTACT_COMMENTS)
        if r() < 0.04:
            record["remarks"] = f"{company.english} / {person.fullname_alphabet}"[:500]
        return record


def _personal_folders(rng: random.Random, reference: datetime, key_user_ids: tuple[int, ...],
                      other_owners: list[int]) -> list[Record]:
    folders: list[Record] = []

    def add(owner: int, name: str, score: int) -> None:
        folders.append({
            "ownerUserId": owner,
            "folderNum": PERSONAL_FOLDER_BASE + len(folders),
            "folderName": name,
            "sortScore": score,
            "createdAt": reference - timedelta(days=rng.randrange(30, 900), seconds=rng.randrange(86_400)),
        })

    for owner, names in zip(key_user_ids, KEY_USER_FOLDERS):
        for i, name in enumerate(names):
            add(owner, name, (len(names) - i) * 10)
    for owner in other_owners:
        add(owner, rng.choice(OTHER_FOLDER_NAMES), rng.choice((0, 0, 10, 100)))
    return folders


def build_address_books(count: int, rng: random.Random, pools: Pools, numbers: NumberPlan, reference: datetime,
                        key_user_ids: tuple[int, ...], regular_user_ids: list[int], registrars: list[int],
                        card_limit: int) -> AddressBooks:
    shared = [{"folderNum": i, "folderName": name} for i, name in enumerate(SHARED_FOLDERS, 1)]
    candidates = [u for u in regular_user_ids if u not in key_user_ids]
    other_owners = sorted(rng.sample(candidates, min(len(candidates), max(5, len(regular_user_ids) // 20), 2000)))
    personal = _personal_folders(rng, reference, key_user_ids, other_owners)
    personal_refs = [(f["folderNum"], f["ownerUserId"]) for f in personal]
    key_personal = [ref for ref in personal_refs if ref[1] in key_user_ids]

    companies = build_companies(max(30, min(1500, count // 12)), rng, pools, numbers)
    private = [c for c in companies if not c.government]
    government = [c for c in companies if c.government]
    duplicates = max(5, count // 50) if count >= 20 else 0
    base = count - duplicates
    maker = _ContactMaker(rng, pools, numbers)
    contacts: list[Record] = []
    n_private = len(private)
    for cid in range(1, base + 1):
        if rng.random() < 0.04:
            company = rng.choice(government)
        else:
            company = private[int(n_private * rng.random() ** 1.7)]  # a few big customers, a long tail
        x = rng.random()
        if x < 0.08:
            # Key users' personal folders get a real share, so their books are not empty.
            num, owner = rng.choice(key_personal) if rng.random() < 0.3 else rng.choice(personal_refs)
            contacts.append(maker.make(cid, company, ("PERSONAL", num), owner))
        else:
            contacts.append(maker.make(cid, company, ("SHARED", company.folder), None))

    with_email = [c for c in contacts if "email1" in c]
    for cid in range(base + 1, count + 1):
        original = rng.choice(with_email)
        copy = {k: (dict(v) if isinstance(v, dict) else v) for k, v in original.items()}
        copy["contactId"] = cid
        if rng.random() < 0.6:  # registered again by someone else, in their own book
            num, owner = rng.choice(personal_refs)
            copy["folderId"] = {"directory": "PERSONAL", "folderNum": num}
            copy["ownerUserId"] = owner
        if rng.random() < 0.5:  # and one detail differs: a new mobile, or a promotion
            copy["companyMobileNum"] = numbers.mobile()
        else:
            copy["position"] = rng.choice(("部長", "課長", "次長", "マネージャー"))
        contacts.append(copy)

    # Time stamps: updatedAt distinct to the millisecond, registeredAt not after it.
    span_ms = 3 * 365 * 86_400_000
    offsets = rng.sample(range(60_000, span_ms), len(contacts))
    card_ids = sorted(rng.sample(range(1, len(contacts) + 1), min(card_limit, len(contacts))))
    card_set = set(card_ids)
    for contact, offset in zip(contacts, offsets):
        updated = reference - timedelta(milliseconds=offset)
        contact["updatedAt"] = updated
        contact["registeredAt"] = updated if rng.random() < 0.5 else updated - timedelta(
            seconds=rng.randrange(1, 400 * 86_400))
        owner = contact["ownerUserId"]
        contact["registeredUserId"] = owner if owner is not None else rng.choice(registrars)
        if contact["contactId"] in card_set:
            machine = rng.random() < 0.7
            contact["ocrType"] = "MACHINE" if machine else "OPERATOR"
            contact["ocrStatus"] = "SENDING" if rng.random() < 0.03 else "CAN_SEND"
            contact["ocrResult"] = "FAILURE" if rng.random() < 0.05 else "SUCCESS"
        else:
            contact["ocrType"] = "NONE"
            contact["ocrStatus"] = "CAN_SEND"
            contact["ocrResult"] = None
    return AddressBooks(shared, personal, contacts, card_ids, companies)
