"""The users of the demo company and their profiles.

Three kinds of user, as the spec has them: employees (REGULAR_USER, most of the
company), registration-only users (temporary and contract staff who are in the
directory but do not log in) and facilities (会議室A, 応接室 ...). Each kind carries only
the fields its type may set (spec 2.4's per-type table, ``corpdir.spec.usertype``): a
facility has no mobile and no password, a registration-only user no roles or API
permission. The user dicts use the spec's field names; an absent key is an unset field.

Users 1-3 are the documented key users (``DEMO_KEYS``) with fixed names, so the README
can say who you are when you log in. The others get a head per division (本部長, 部長,
課長) and staff spread over the leaf divisions.

Values are also kept inside the narrower variants A and B where that costs nothing
(at most 2 divisionIds, anpiLoginId and bleId letters/digits/colon only, spCallSettings
up to SETTING_5), so one demo tenant serves all three variants.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from corpdir.server.demo import names as N
from corpdir.server.demo.names import Person, Pools, Rank, Triple
from corpdir.server.demo.numbers import NumberPlan, alternative_form, extensions
from corpdir.server.demo.organisation import Organisation, Unit

Record = dict[str, Any]


@dataclass(frozen=True)
class KeyUser:
    login_id: str
    password: str
    person: Person
    rank: Rank
    roles: tuple[str, ...]
    paapi: bool
    post: str


KEY_USERS: tuple[KeyUser, ...] = (
    KeyUser("admin", "demo-admin-pass",
            Person(Triple("佐藤", "サトウ", "Sato"), Triple("健一", "ケンイチ", "Kenichi")),
            N.SECTION_HEAD, ("ADMIN_COMPANY",), True, "社内システム担当"),
    KeyUser("reception", "demo-reception-pass",
            Person(Triple("鈴木", "スズキ", "Suzuki"), Triple("花子", "ハナコ", "Hanako")),
            N.STAFF, (), True, "受付"),
    KeyUser("noapi", "demo-noapi-pass",
            Person(Triple("田中", "タナカ", "Tanaka"), Triple("一郎", "イチロウ", "Ichiro")),
            N.LEAD, (), False, "法人営業担当"),
)

ADMIN_ROLE_SETS: tuple[tuple[str, ...], ...] = (
    ("ADMIN_USER", "ADMIN_DIVISION"),
    ("ADMIN_INTERNAL_CONTACT",),
    ("ADMIN_COMMON_CONTACT", "ADMIN_SIGMA_IMPORT"),
    ("ADMIN_CUCM", "ADMIN_DIAL_PICKUP"),
    ("ADMIN_ACTION_LOG", "ADMIN_INFORMATION"),
    ("ADMIN_IBASHO", "ADMIN_EX_BEACON"),
)
REGISTRATION_ONLY_POSITIONS = (("派遣社員", "Temporary Staff"), ("業務委託", "Contractor"), ("嘱託", "Part-time Adviser"))
COMMENTS = ("在宅勤務が多いため携帯へご連絡ください", "火曜・木曜は工場に常駐しています", "英語での対応可",
            "午前中は会議が多いです", "育児短時間勤務（9:00-16:00）", "急ぎの場合はチャットでご連絡ください")
ROOM_SPECIALS = (
    (Triple("大会議室", "ダイカイギシツ", "Large Meeting Room"), "room-large", "定員40名・プロジェクター2台"),
    (Triple("役員会議室", "ヤクインカイギシツ", "Executive Meeting Room"), "room-executive", "役員秘書経由で予約"),
    (Triple("応接室", "オウセツシツ", "Guest Reception Room"), "room-guest", "来客用・受付で鍵を受け取り"),
    (Triple("テレビ会議室", "テレビカイギシツ", "Video Conference Room"), "room-video", "Teams/Zoom端末あり"),
)


@dataclass
class People:
    users: list[Record]
    profiles: dict[int, Record]
    photo_user_ids: list[int]
    key_user_ids: tuple[int, int, int]
    registrars: list[int]  # users who register shared contacts (sales, general affairs)
    email_domain: str


def _facility_names(org: Organisation) -> list[tuple[Triple, str, str, Unit]]:
    """Rooms in the order they are handed out: the head office's, then each branch's."""
    general_affairs = org.reception.parent
    assert general_affairs is not None
    rooms: list[tuple[Triple, str, str, Unit]] = [(t, login, note, general_affairs) for t, login, note in ROOM_SPECIALS]
    for letter, kana in N.LETTER_KANA.items():
        rooms.append((Triple(f"会議室{letter}", f"カイギシツ{kana}", f"Meeting Room {letter}"),
                      f"room-{letter.lower()}", "", general_affairs))
    for floor in range(2, 10):
        for letter, kana in N.LETTER_KANA.items():
            rooms.append((Triple(f"{floor}F会議室{letter}", f"{N.FLOOR_KANA[floor]}カイギシツ{kana}",
                                 f"Meeting Room {floor}F-{letter}"), f"room-{floor}f-{letter.lower()}", "", general_affairs))
    branch_ops = [u for u in org.units if u.depth == 2 and u.parent is not None and u.parent.parent is None
                  and u.parent is not org.head_office and u.code.endswith("-OPS")]
    for ops in branch_ops:
        branch = ops.parent
        assert branch is not None
        for letter, kana in N.LETTER_KANA.items():
            rooms.append((Triple(f"{branch.name.kanji} 会議室{letter}", f"{branch.name.kana} カイギシツ{kana}",
                                 f"{branch.name.roman} Meeting Room {letter}"),
                          f"{branch.city.branch.roman.lower()}-room-{letter.lower()}", "", ops))
    return rooms


def _mac(rng: random.Random) -> str:
    # Locally administered unicast: never a real vendor's address.
    value = (rng.getrandbits(48) | (0x02 << 40)) & ~(0x01 << 40)
    raw = f"{value:012x}"
    return ":".join(raw[i:i + 2] for i in range(0, 12, 2))


def _maybe_alt(number: str, rng: random.Random) -> str:
    """About one number in twelve is written in another valid form."""
    return alternative_form(number, rng) if rng.random() < 0.08 else number


class _Builder:
    def __init__(self, rng: random.Random, pools: Pools, org: Organisation, numbers: NumberPlan,
                 reference: datetime) -> None:
        self.rng = rng
        self.pools = pools
        self.org = org
        self.numbers = numbers
        self.reference = reference
        self.slugs: dict[str, int] = {}
        self.users: list[Record] = []
        self.profiles: dict[int, Record] = {}
        self.domain = N.EMAIL_DOMAIN
        leaves = [u for u in org.units if u.is_leaf and u is not org.reception]
        # Sales sections are the biggest, as in a real sales company.
        self.staff_leaves = [u for u in leaves for _ in range(3 if u.kind == "sales" else 2)]
        self.all_leaves = leaves

    # -- shared pieces --------------------------------------------------------------
    def unique_slug(self, base: str) -> str:
        n = self.slugs.get(base, 0) + 1
        self.slugs[base] = n
        return base if n == 1 else f"{base}{n}"

    def next_id(self) -> int:
        return len(self.users) + 1

    def person_fields(self, person: Person) -> Record:
        return {
            "fullname": person.fullname,
            "fullnameKana": person.fullname_kana,
            "fullnameAlphabet": person.fullname_alphabet,
        }

    def divisions_for(self, unit: Unit) -> list[int]:
        ids = [unit.division_id]
        if self.rng.random() < 0.03:  # 兼務: a second division (variants A/B allow two)
            other = self.rng.choice(self.all_leaves)
            if other is not unit:
                ids.append(other.division_id)
        return ids

    # -- the three user types -------------------------------------------------------
    def regular(self, person: Person, unit: Unit, rank: Rank, ext: str, employee_num: str,
                key: KeyUser | None = None) -> Record:
        rng = self.rng
        r = rng.random
        slug = self.unique_slug(person.slug)
        login_id = key.login_id if key else slug
        email = f"{slug}@{self.domain}"
        uid = self.next_id()
        user: Record = {
            "userId": uid,
            "loginId": login_id,
            "password": key.password if key else None,
            "userType": "REGULAR_USER",
            "enabled": key is not None or r() >= 0.02,
            "forceLocalAuthentication": bool(key and "ADMIN_COMPANY" in key.roles),
            "initialPasswordForceChange": key is None and r() < 0.05,
            "sortScore": rank.score + rng.randrange(1_000_000),
            "level": rank.level,
            **self.person_fields(person),
            "employeeNum": employee_num,
            "divisionIds": [unit.division_id] if key else self.divisions_for(unit),
            "extensionNum": ext,
            "email1": email,
            "paapiAvailable": key.paapi if key else r() < 0.15,
            "forceRequestOperator": "DISABLE" if r() < 0.85 else ("SELECT" if r() < 0.85 else "FORCE"),
            "pbxFeatureAvailable": False,
            "thanksAvailable": r() < 0.6,
            "gotalkAvailable": r() < 0.3,
            "tenantCucmAdapterSettingsId": None,
            "tenantAlphaAdapterSettingsId": None,
            "collaborations": [],
        }
        if rank.position:
            user["position"] = rank.position
            user["positionAlphabet"] = rank.alphabet
        post = key.post if key else (rng.choice(N.POSTS[unit.kind]) if r() < 0.6 else None)
        if post:
            user["post"] = post
        if key and key.roles:
            user["roles"] = list(key.roles)
        if r() < 0.7 or key:
            user["phoneNum"] = _maybe_alt(self.numbers.landline(unit.city.area_code), rng)
        if r() < (0.9 if unit.kind == "sales" else 0.5) or key:
            user["companyMobileNum"] = _maybe_alt(self.numbers.mobile(), rng)
        if r() < 0.03:
            user["personalMobileNum"] = self.numbers.mobile()
        if r() < 0.04:
            user["mobileNum"] = self.numbers.mobile()
        if r() < 0.1:
            user["faxNum"] = self.numbers.landline(unit.city.area_code)
        if r() < 0.03:
            user["email2"] = f"{slug}.sub@{self.domain}"
        if r() < 0.1:
            user["comment"] = rng.choice(COMMENTS)
        if r() < 0.05:
            user["remarks"] = f"{self.reference.year - rng.randrange(1, 30)}年入社"
        if r() < 0.2:
            user["skill"] = "、".join(rng.sample(N.SKILLS[unit.kind], 2))
        if r() < 0.02:
            user["webUrl"] = f"{N.INTRANET}/people/{slug}"
        if r() < 0.4:
            chats = rng.sample(N.CHAT_CLIENTS, 1 if r() < 0.8 else 2)
            user["collaborations"] = [
                {"chatSettingSeq": seq, "clientName": client, "chatAccountId": f"{slug}@{client.split()[-1].lower()}"}
                for seq, client in sorted(chats)
            ]
        g = r()
        if g < 0.6:
            user["groupware"] = "M365"
            user["m365Account"] = email
        elif g < 0.7:
            user["groupware"] = "GWS"
            user["gwsAccount"] = email
        if r() < 0.5:
            user["pbxFeatureAvailable"] = True
            user["pbxPartition"] = f"PT_{unit.city.branch.roman.upper()}"
            user["pbxAccount"] = f"sip:{ext}@pbx.{self.domain}"
            if r() < 0.4:
                user["tenantCucmAdapterSettingsId"] = 1 if unit.city.area_code in ("03", "045", "044", "048", "043") else 2
                user["ctiPort"] = f"CSF{ext}"
                user["incomingPopupIosApns"] = r() < 0.5
            elif r() < 0.3:
                user["tenantAlphaAdapterSettingsId"] = 1
        if r() < 0.3:
            user["spCallSettings"] = ["DIRECT_CALL", f"SETTING_{rng.randrange(1, 6)}"]
        if r() < 0.1:
            user["iosPasyncLabel"] = f"{person.last.kanji}（{unit.name.kanji}）"[:25]
        if r() < 0.1:
            user["deviceId"] = f"D{rng.randrange(10**6, 10**7)}"
            user["deviceIdAcceptInitialize"] = r() < 0.5
        if r() < 0.5:
            user["anpiLoginId"] = f"anpi{employee_num}"
        if r() < 0.2:
            user["mobileMacAddress"] = _mac(rng)
        if r() < 0.4:
            user["pcMacAddress"] = _mac(rng)
        if r() < 0.1:
            user["bleId"] = f"ble:{rng.getrandbits(32):08x}"
        self.users.append(user)
        return user

    def registration_only(self, person: Person, unit: Unit, ext: str | None, employee_num: str) -> Record:
        rng = self.rng
        r = rng.random
        slug = self.unique_slug(person.slug)
        position, alphabet = rng.choice(REGISTRATION_ONLY_POSITIONS)
        user: Record = {
            "userId": self.next_id(),
            "loginId": slug,
            "password": None,
            "userType": "REGISTRATION_ONLY_USER",
            "sortScore": N.STAFF.score // 2 + rng.randrange(1_000_000),
            "level": 3,
            **self.person_fields(person),
            "employeeNum": employee_num,
            "position": position,
            "positionAlphabet": alphabet,
            "divisionIds": [unit.division_id],
            "tenantCucmAdapterSettingsId": None,
            "tenantAlphaAdapterSettingsId": None,
            "collaborations": [],
        }
        if ext:
            user["extensionNum"] = ext
        if r() < 0.5:
            user["post"] = rng.choice(N.POSTS[unit.kind])
        if r() < 0.7:
            user["email1"] = f"{slug}@{self.domain}"
        if r() < 0.3:
            user["companyMobileNum"] = _maybe_alt(self.numbers.mobile(), rng)
        if r() < 0.1:
            user["collaborations"] = [{"chatSettingSeq": 2, "clientName": "Microsoft Teams",
                                       "chatAccountId": f"{slug}@teams"}]
        if r() < 0.3:
            user["m365Account"] = f"{slug}@{self.domain}"
        if r() < 0.3:
            user["anpiLoginId"] = f"anpi{employee_num}"
        if r() < 0.05:
            user["mobileMacAddress"] = _mac(rng)
        if r() < 0.1:
            user["comment"] = f"契約期間: {self.reference.year}年{rng.randrange(1, 13)}月まで"
        self.users.append(user)
        return user

    def facility(self, name: Triple, login_id: str, note: str, unit: Unit, ext: str) -> Record:
        rng = self.rng
        user: Record = {
            "userId": self.next_id(),
            "loginId": login_id,
            "password": None,
            "userType": "FACILITY",
            "sortScore": rng.randrange(1_000, 100_000),
            "level": 5,
            "fullname": name.kanji,
            "fullnameKana": name.kana,
            "fullnameAlphabet": name.roman,
            "divisionIds": [unit.division_id],
            "extensionNum": ext,
            "email1": f"{login_id}@{self.domain}",
            "tenantCucmAdapterSettingsId": None,
            "tenantAlphaAdapterSettingsId": None,
            "collaborations": [],
        }
        if note:
            user["comment"] = note
        else:
            user["comment"] = f"定員{rng.choice((4, 6, 8, 10, 12, 20))}名" + ("・モニター有" if rng.random() < 0.6 else "")
        if rng.random() < 0.2:
            user["phoneNum"] = self.numbers.landline(unit.city.area_code)
        if rng.random() < 0.5:
            user["bleId"] = login_id.replace("-", ":")
        self.users.append(user)
        return user

    # -- profiles -------------------------------------------------------------------
    def profile(self, user: Record, unit: Unit, rich: bool) -> Record:
        rng = self.rng
        r = rng.random
        kind = unit.kind
        hire_year = self.reference.year - rng.randrange(0, 30)
        hired = date(hire_year, 4, 1)
        profile: Record = {
            "selfUpdatedAt": self.reference - timedelta(days=rng.randrange(1, 700), seconds=rng.randrange(86_400)),
            "customColumns": [
                {"customColumnId": 1, "customColumnValue": rng.choice(N.HOBBIES)},
                {"customColumnId": 2, "customColumnValue": rng.choice(N.PREFECTURES)},
                {"customColumnId": 3, "customColumnValue": f"{rng.randrange(2, 10)}F-{rng.choice('ABCD')}-{rng.randrange(1, 40):02d}"},
            ][: 3 if rich else rng.randrange(0, 4)],
        }
        one_word = rng.choice(N.ONE_WORDS)
        if one_word:
            profile["oneWord"] = one_word
        post = user.get("post")
        if post:
            where = " ".join(u.name.kanji for u in unit.path()[-2:])
            profile["jobDescription"] = f"{where}で{post}をしています。"
        if rich or r() < 0.5:
            profile["skills"] = rng.sample(N.SKILLS[kind], rng.randrange(1, 5))
            profile["toolTechnologies"] = rng.sample(N.TOOLS, rng.randrange(0, 5))
            profile["qualifications"] = rng.sample(N.QUALIFICATIONS, rng.randrange(0, 4))
        if rich or r() < 0.3:
            histories = [{"briefHistoryDate": hired, "briefHistoryText": "入社"}]
            year = hire_year
            for step in range(rng.randrange(0, 4)):
                year += rng.randrange(1, 6)
                if year >= self.reference.year:
                    break
                where = unit.name.kanji if step else (unit.parent.name.kanji if unit.parent else unit.name.kanji)
                histories.append({"briefHistoryDate": date(year, 4, 1), "briefHistoryText": f"{where}に配属"})
            profile["briefHistories"] = histories
            achievements = []
            for _ in range(rng.randrange(0, 3)):
                year = rng.randrange(hire_year, self.reference.year + 1)
                achievements.append({"achievementHistoryDate": date(year, rng.randrange(1, 13), 1),
                                     "achievementHistoryText": rng.choice(N.ACHIEVEMENTS)})
            profile["achievementHistories"] = sorted(achievements, key=lambda a: a["achievementHistoryDate"])
        if kind == "tech" and (rich or r() < 0.3):
            slug = user["loginId"]
            profile["externalLinks"] = [
                {"externalLinkUrl": f"https://git.{self.domain}/{slug}", "externalLinkTitle": "社内Git"},
                {"externalLinkUrl": f"https://blog.example.com/{slug.replace('.', '-')}", "externalLinkTitle": "技術ブログ"},
            ][: rng.randrange(1, 3)]
        self.profiles[user["userId"]] = profile
        return profile


def _heads(org: Organisation) -> list[tuple[Unit, Rank]]:
    """One head per division, top-down: 社長 and 取締役 at 本社, then 本部長, 支社長, 部長, 課長."""
    heads: list[tuple[Unit, Rank]] = [(org.head_office, N.PRESIDENT), (org.head_office, N.DIRECTOR),
                                      (org.head_office, N.DIRECTOR)]
    for unit in org.units[1:]:
        if unit is org.reception:
            continue
        if unit.parent is None:
            heads.append((unit, N.BRANCH_HEAD))
        elif unit.parent is org.head_office:
            heads.append((unit, N.DIVISION_HEAD))
        elif not unit.is_leaf:
            heads.append((unit, N.DEPT_HEAD))
        else:
            heads.append((unit, N.SECTION_HEAD))
    return heads


def build_people(size: int, rng: random.Random, pools: Pools, org: Organisation, numbers: NumberPlan,
                 reference: datetime, photo_limit: int) -> People:
    if size < 10:
        raise ValueError("a demo tenant needs at least 10 users")
    rooms = _facility_names(org)
    n_facility = min(size // 100 + 3, len(rooms))
    n_registration = round(size * 0.07)
    n_regular = size - n_facility - n_registration
    b = _Builder(rng, pools, org, numbers, reference)

    exts = extensions(n_regular + n_facility + n_registration, rng)
    ext_iter = iter(exts)
    emp = rng.sample(range(100_000, 1_000_000), n_regular + n_registration)
    emp_iter = iter(emp)

    key_units = (org.it_department.children[0], org.reception, org.first_sales_section)
    key_ids = []
    for key, unit in zip(KEY_USERS, key_units):
        user = b.regular(key.person, unit, key.rank, next(ext_iter), f"{next(emp_iter):06d}", key)
        b.profile(user, unit, rich=True)
        key_ids.append(user["userId"])

    regular_units: list[tuple[Unit, Rank]] = _heads(org)[: n_regular - len(KEY_USERS)]
    remaining = n_regular - len(KEY_USERS) - len(regular_units)
    for _ in range(remaining):
        unit = rng.choice(b.staff_leaves)
        regular_units.append((unit, _staff_rank(rng)))
    # A handful of reception staff beside the key user, so the desk is not one person.
    for i in range(min(3, remaining)):
        regular_units[-1 - i] = (org.reception, N.STAFF)

    admin_count = max(3, size // 200)
    admin_slots = set(rng.sample(range(len(regular_units)), min(admin_count, len(regular_units))))
    registrars: list[int] = list(key_ids[:2])
    for i, (unit, rank) in enumerate(regular_units):
        user = b.regular(pools.person(rng), unit, rank, next(ext_iter), f"{next(emp_iter):06d}")
        if i in admin_slots:
            user["roles"] = list(ADMIN_ROLE_SETS[i % len(ADMIN_ROLE_SETS)])
            user["gotalkLogDownloadAvailable"] = True
            user["paapiAvailable"] = True
        if unit.kind in ("sales", "reception") and len(registrars) < 200:
            registrars.append(user["userId"])
        if rng.random() < 0.9:
            b.profile(user, unit, rich=rng.random() < 0.3)

    for _ in range(n_registration):
        unit = rng.choice(b.staff_leaves)
        ext = next(ext_iter)
        user = b.registration_only(pools.person(rng), unit, ext if rng.random() < 0.6 else None,
                                   f"T{next(emp_iter):06d}")
        if rng.random() < 0.3:
            b.profile(user, unit, rich=False)

    for name, login_id, note, unit in rooms[:n_facility]:
        b.facility(name, login_id, note, unit, next(ext_iter))

    photo_ids = [u["userId"] for u in b.users
                 if u["userType"] == "REGULAR_USER" and (u["userId"] in key_ids or rng.random() < 0.85)][:photo_limit]
    return People(b.users, b.profiles, photo_ids, tuple(key_ids), registrars, b.domain)  # type: ignore[arg-type]


_STAFF_WEIGHTS = [w for _, w in N.STAFF_RANKS]
_STAFF_CUMULATIVE = [sum(_STAFF_WEIGHTS[: i + 1]) for i in range(len(_STAFF_WEIGHTS))]


def _staff_rank(rng: random.Random) -> Rank:
    x = rng.random()
    for (rank, _), edge in zip(N.STAFF_RANKS, _STAFF_CUMULATIVE):
        if x < edge:
            return rank
    return N.STAFF
