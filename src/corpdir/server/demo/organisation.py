"""The demo company's shape: its division tree and tenant-level settings.

The tree is what a Japanese manufacturer's directory looks like, so the division tree
screen has something real to show: 本社 > 営業本部 > 第一営業部 > 1課 (four levels) and,
at larger sizes, regional branches 大阪支社 > 営業部 > 1課 (three levels). Every leaf is
at depth 3 or 4. The tree grows with the tenant: about 40 divisions at 500 users,
about 1,000 at 100,000 (more departments per 本部, more 課 per 部, more branches), so a
big tenant also has a big tree to page through.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Iterator

from corpdir.server.demo.names import (
    BRANCH_CITIES, CUSTOM_COLUMNS, HEAD_OFFICE_CITY, INTRANET, SECTION_KANA, City, Triple, kana_number, kanji_number,
)
from corpdir.server.demo.numbers import NumberPlan


@dataclass(slots=True)
class Unit:
    """A division while the tenant is being built (the record plus what people need)."""

    division_id: int
    parent: Unit | None
    name: Triple
    code: str
    kind: str  # sales / tech / admin / factory / planning / reception: picks posts and skills
    city: City
    depth: int
    children: list[Unit] = field(default_factory=list)
    phone: str | None = None

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def path(self) -> list[Unit]:
        unit, out = self, []
        while unit is not None:
            out.append(unit)
            unit = unit.parent
        return out[::-1]


@dataclass(frozen=True)
class Headquarters:
    """A 本部 of the head office and how its departments are named."""

    name: Triple
    code: str
    kind: str
    fixed: tuple[Triple, ...]  # departments every tenant has, in order
    numbered: Triple  # stem of further departments: 第N{stem}部


HEADQUARTERS: tuple[Headquarters, ...] = (
    Headquarters(Triple("営業本部", "エイギョウホンブ", "Sales Division"), "SLS", "sales", (),
                 Triple("営業", "エイギョウ", "Sales")),
    Headquarters(Triple("技術本部", "ギジュツホンブ", "Engineering Division"), "TEC", "tech",
                 (Triple("開発部", "カイハツブ", "Development Department"),
                  Triple("品質保証部", "ヒンシツホショウブ", "Quality Assurance Department"),
                  Triple("設計部", "セッケイブ", "Design Department"),
                  Triple("研究開発部", "ケンキュウカイハツブ", "Research and Development Department")),
                 Triple("開発", "カイハツ", "Development")),
    Headquarters(Triple("管理本部", "カンリホンブ", "Administration Division"), "ADM", "admin",
                 (Triple("総務部", "ソウムブ", "General Affairs Department"),
                  Triple("情報システム部", "ジョウホウシステムブ", "Information Systems Department"),
                  Triple("人事部", "ジンジブ", "Human Resources Department"),
                  Triple("経理部", "ケイリブ", "Accounting Department"),
                  Triple("法務部", "ホウムブ", "Legal Department")),
                 Triple("業務", "ギョウム", "Operations")),
    Headquarters(Triple("製造本部", "セイゾウホンブ", "Manufacturing Division"), "MFG", "factory",
                 (Triple("生産管理部", "セイサンカンリブ", "Production Control Department"),
                  Triple("調達部", "チョウタツブ", "Procurement Department"),
                  Triple("物流部", "ブツリュウブ", "Logistics Department")),
                 Triple("製造", "セイゾウ", "Manufacturing")),
    Headquarters(Triple("経営企画本部", "ケイエイキカクホンブ", "Corporate Planning Division"), "PLN", "planning",
                 (Triple("経営企画部", "ケイエイキカクブ", "Corporate Planning Department"),
                  Triple("広報部", "コウホウブ", "Public Relations Department"),
                  Triple("事業開発部", "ジギョウカイハツブ", "Business Development Department")),
                 Triple("事業", "ジギョウ", "Business")),
)

RECEPTION = Triple("受付", "ウケツケ", "Reception Desk")
GENERAL_AFFAIRS_SECTIONS = (
    Triple("総務課", "ソウムカ", "General Affairs Section"), RECEPTION,
    Triple("施設管理課", "シセツカンリカ", "Facilities Section"), Triple("文書課", "ブンショカ", "Records Section"),
)
BRANCH_DEPARTMENTS = (
    (Triple("営業部", "エイギョウブ", "Sales Department"), "SLS", "sales"),
    (Triple("業務部", "ギョウムブ", "Operations Department"), "OPS", "admin"),
)
HEAD_OFFICE = Triple("本社", "ホンシャ", "Head Office")


@dataclass
class Organisation:
    units: list[Unit]  # parents before children, in id order
    head_office: Unit
    reception: Unit
    it_department: Unit
    first_sales_section: Unit

    def records(self) -> list[dict[str, Any]]:
        """The divisions, each sibling group scored in the order it was built (本社 before
        the branches, 第一営業部 before 第二, 1課 before 2課)."""
        roots = [u for u in self.units if u.parent is None]
        score = sort_scores(roots)
        for unit in self.units:
            score.update(sort_scores(unit.children))
        return [division_record(u, score[id(u)]) for u in self.units]


def sort_scores(siblings: list[Unit]) -> dict[int, int]:
    """sortScore by sibling (by ``id``): a higher score is listed first (docs/divisions.md),
    so the first of n gets n * 10, the last 10 (gaps of 10 leave room to insert one)."""
    return {id(u): (len(siblings) - i) * 10 for i, u in enumerate(siblings)}


def division_target(size: int) -> int:
    """About 40 divisions at 500 users, growing sub-linearly (about 960 at 100,000)."""
    return max(20, round(40 * (size / 500) ** 0.6))


def _departments(hq: Headquarters) -> Iterator[tuple[Triple, str]]:
    n = 0
    for t in hq.fixed:
        n += 1
        yield t, f"D{n:02d}"
    k = 0
    while True:
        k += 1
        n += 1
        stem = hq.numbered
        yield (Triple(f"第{kanji_number(k)}{stem.kanji}部", f"ダイ{kana_number(k)}{stem.kana}ブ",
                      f"{stem.roman} Department {k}"), f"D{n:02d}")


def _section(n: int) -> Triple:
    return Triple(f"{n}課", SECTION_KANA[n], f"Section {n}")


def build_organisation(size: int, rng: random.Random, numbers: NumberPlan) -> Organisation:
    target = division_target(size)
    sections = min(9, max(1, round(math.sqrt(target / 60) + 1)))
    branch_size = 1 + len(BRANCH_DEPARTMENTS) + sections + min(2, sections)
    branches = min(len(BRANCH_CITIES), max(0, (target - 40) // 60))
    # Departments are dealt out to the 本部 in turn (sales first), each with its 課.
    departments = max(2 * len(HEADQUARTERS),
                      round((target - 1 - len(HEADQUARTERS) - branches * branch_size) / (1 + sections)))

    units: list[Unit] = []

    def add(parent: Unit | None, name: Triple, code: str, kind: str, city: City) -> Unit:
        unit = Unit(len(units) + 1, parent, name, code, kind, city, 1 if parent is None else parent.depth + 1)
        if parent is not None:
            parent.children.append(unit)
        units.append(unit)
        return unit

    # Breadth-first, so every parent precedes its children and ids grow level by level.
    head = add(None, HEAD_OFFICE, "HQ", "planning", HEAD_OFFICE_CITY)
    branch_roots = [
        add(None, Triple(f"{c.branch.kanji}支社", f"{c.branch.kana}シシャ", f"{c.branch.roman} Branch"),
            f"BR-{c.branch.roman.upper()}", "sales", c)
        for c in BRANCH_CITIES[:branches]
    ]
    hq_units = [add(head, hq.name, f"HQ-{hq.code}", hq.kind, HEAD_OFFICE_CITY) for hq in HEADQUARTERS]
    dept_units: list[Unit] = []
    generators = [_departments(hq) for hq in HEADQUARTERS]
    for hq, hq_unit, gen in zip(HEADQUARTERS, hq_units, generators):
        count = departments // len(HEADQUARTERS) + (1 if HEADQUARTERS.index(hq) < departments % len(HEADQUARTERS) else 0)
        for _ in range(count):
            name, code = next(gen)
            dept_units.append(add(hq_unit, name, f"{hq_unit.code}-{code}", hq.kind, HEAD_OFFICE_CITY))
    for root in branch_roots:
        for name, code, kind in BRANCH_DEPARTMENTS:
            dept_units.append(add(root, name, f"{root.code}-{code}", kind, root.city))
    reception = None
    for dept in dept_units:
        if dept.name.kanji == "総務部" and dept.parent is not None and dept.parent.parent is head:
            names = GENERAL_AFFAIRS_SECTIONS[: max(2, min(sections, len(GENERAL_AFFAIRS_SECTIONS)))]
        elif dept.parent is not None and dept.parent.parent is None and dept.parent is not head:
            names = tuple(_section(n) for n in range(1, (sections if dept.kind == "sales" else min(2, sections)) + 1))
        else:
            names = tuple(_section(n) for n in range(1, sections + 1))
        for i, name in enumerate(names, 1):
            kind = "reception" if name is RECEPTION else dept.kind
            unit = add(dept, name, f"{dept.code}-S{i}", kind, dept.city)
            if name is RECEPTION:
                reception = unit
    assert reception is not None

    # Representative numbers: the head office's is the company's main number; every
    # department and branch has one, a few sections too.
    head.phone = numbers.landline(HEAD_OFFICE_CITY.area_code)
    for unit in units[1:]:
        if not unit.is_leaf or unit is reception or rng.random() < 0.15:
            unit.phone = numbers.landline(unit.city.area_code)

    it_department = next(u for u in dept_units if u.name.kanji == "情報システム部")
    first_sales = next(u for u in dept_units if u.code == "HQ-SLS-D01").children[0]
    return Organisation(units, head, reception, it_department, first_sales)


def division_record(unit: Unit, sort_score: int) -> dict[str, Any]:
    """The division as the spec names its fields (divisionId and parentDivisionId included)."""
    record: dict[str, Any] = {
        "divisionId": unit.division_id,
        "parentDivisionId": unit.parent.division_id if unit.parent else None,
        "divisionCode": unit.code,
        "divisionName": unit.name.kanji,
        "divisionNameKana": unit.name.kana,
        "divisionNameAlphabet": unit.name.roman,
        "sortScore": sort_score,
    }
    if unit.phone:
        record["divisionPhoneNum"] = unit.phone
    if not unit.is_leaf:
        record["divisionUrl"] = f"{INTRANET}/divisions/{unit.code}"
    return record


def tenant_settings() -> dict[str, Any]:
    """Company-wide settings: contract date (after 2019-07-04, so ADMIN_IBASHO is
    effective), the tenant's custom profile columns and its telephony adapters."""
    return {
        "location_contract_date": date(2021, 4, 1),
        "custom_columns": [
            {"customColumnId": i, "customColumnTitle": title} for i, title in enumerate(CUSTOM_COLUMNS, 1)
        ],
        "cucm_adapters": [
            {"tenantCucmAdapterSettingsId": 1, "cucmAdapterName": "CUCM 本社クラスタ"},
            {"tenantCucmAdapterSettingsId": 2, "cucmAdapterName": "CUCM 西日本クラスタ"},
        ],
        "alpha_adapters": [
            {"tenantAlphaAdapterSettingsId": 1, "alphaAdapterName": "Alpha PBX 本社"},
        ],
    }
