"""`corpdir export users` names divisions by their paths: the demo has many 1課, and a CSV
row or a vCard saying only '1課' does not say which. A user's vCard ORG is the company's
own name (as the service's N1 gives it) and then the division's path, one unit a level."""

from __future__ import annotations

import csv
import io

import vobject

from corpdir.commands.export import run_export
from cli.test_export import args
from service_fixtures import make_service, service_division_paths
from corpdir.service.backend import backend_of


async def _people_in_two_1ka(service):
    """Two users whose first divisions are both called 1課 (under different parents), and
    every division's path as the service's D1 gives it."""
    paths = await service_division_paths(backend_of(service).client)
    found = {}
    async for user in backend_of(service).client.iter_users():
        first = (user.divisions or [None])[0]
        if first is not None and paths[first.divisionId].endswith(" › 1課"):
            found.setdefault(paths[first.divisionId], user)
    assert len(found) >= 2, "the demo tenant has several divisions called 1課"
    return list(found.values())[:2], paths


async def test_csv_names_each_division_by_its_path(tmp_path):
    service = make_service()
    try:
        await service.sync.run()
        (one, other), paths = await _people_in_two_1ka(service)
        path = tmp_path / "people.csv"
        err = io.StringIO()
        assert await run_export(service, args("users", "-o", str(path)), io.StringIO(), err) == 0, err.getvalue()
    finally:
        await service.close()
    rows = {int(r["userId"]): r for r in csv.DictReader(path.open(encoding="utf-8-sig"))}
    for user in (one, other):
        assert rows[user.userId]["divisions"] == "; ".join(paths[d.divisionId] for d in user.divisions)
    assert rows[one.userId]["divisions"].split("; ")[0] != rows[other.userId]["divisions"].split("; ")[0]
    assert all(r["divisions"].split("; ")[0].endswith(" › 1課") for r in (rows[one.userId], rows[other.userId]))


async def test_a_users_vcard_org_is_the_company_and_the_division_path(tmp_path):
    service = make_service()
    try:
        await service.sync.run()
        (one, other), paths = await _people_in_two_1ka(service)
        number = one.extensionNum or one.phoneNum
        company = next(i.companyName for i in (await backend_of(service).client.identify_numbers([number])).items)
        assert company
        out = io.StringIO()
        assert await run_export(service, args("users", "--format", "vcard"), out, io.StringIO()) == 0
    finally:
        await service.close()
    cards = {c.uid.value: c for c in vobject.readComponents(out.getvalue())}
    for user in (one, other):
        org = cards[f"urn:corpdir:user:{user.userId}"].org.value
        assert org == [company, *paths[user.divisions[0].divisionId].split(" › ")]
        assert org[-1] == "1課"
    assert cards[f"urn:corpdir:user:{one.userId}"].org.value != cards[f"urn:corpdir:user:{other.userId}"].org.value
