"""The 3CX CRM template: kept in the repository, served with this gateway's URL, and its
lookup scenario run as 3CX runs it (its URL, its rules, its JSON paths, its outputs)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from corpdir.gateway.threecx import TEMPLATE
from corpdir.phone import digits


def _path(data, path: str):
    for step in path.split("."):
        data = data[int(step)] if isinstance(data, list) else data.get(step)
        if data is None:
            return None
    return data


def run_lookup(template: ET.Element, parameters: dict[str, str], number: str, get) -> dict[str, str] | None:
    """3CX's REST lookup: fill [Parameters] and [Number] into the URL, GET, JSON; no match
    unless every rule's path has a value; variables by path; outputs by [Variable]."""
    scenario = next(s for s in template.iter("Scenario") if s.get("Id") == "")
    request = scenario.find("Request")
    assert request.get("RequestType") == "Get" and request.get("ResponseType") == "Json"
    url = re.sub(r"\[(\w+)\]", lambda m: number if m.group(1) == "Number" else parameters[m.group(1)], request.get("Url"))
    data = json.loads(get(url).content)
    if not all(_path(data, rule.text) not in (None, "") for rule in scenario.iter("Rule")):
        return None
    values = {v.get("Name"): str(_path(data, v.get("Path")) or "") for v in scenario.iter("Variable")}
    return {o.get("Type"): re.sub(r"\[(\w+)\]", lambda m: values[m.group(1)], o.get("Value")) for o in scenario.iter("Output")}


def test_served_template_finds_a_caller_with_the_fields_mapped(gateway):
    served = gateway.get(f"{gateway.base}/3cx.xml")
    assert served.status_code == 200
    template = ET.fromstring(served.content)
    kept = ET.fromstring(TEMPLATE.read_bytes())
    assert [s.get("Id") for s in template.iter("Scenario")] == [s.get("Id") for s in kept.iter("Scenario")]
    gateway_url = next(p.get("Default") for p in template.iter("Parameter") if p.get("Name") == "GatewayUrl")
    assert gateway_url == gateway.base
    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=100)) if u.companyMobileNum)
    out = run_lookup(template, {"GatewayUrl": gateway_url}, "+81" + digits(user.companyMobileNum)[1:], gateway.get)
    family, given = user.fullname.split(" ", 1)
    assert out["LastName"] == family and out["FirstName"] == given
    assert out["PhoneMobile"] == user.companyMobileNum and out["EntityId"] == f"user:{user.userId}"
    assert out["EntityType"] == "person"
    assert out["ContactUrl"] == user.contactDetailsUrl  # the directory's own page of the record
    contact = next(c for c in gateway.call(gateway.service.contacts.window("SHARED", limit=100)) if not c.webUrl)
    out = run_lookup(template, {"GatewayUrl": gateway_url}, digits(contact.phoneNum), gateway.get)
    assert out["CompanyName"] == contact.companyName and out["PhoneBusiness"] == contact.phoneNum
    page = gateway.get(out["ContactUrl"])  # no page of its own: the gateway's page of the record
    assert page.status_code == 200 and contact.fullname in page.text and contact.companyName in page.text


def test_unknown_number_is_no_match_for_3cx(gateway):
    template = ET.fromstring(TEMPLATE.read_bytes())
    assert run_lookup(template, {"GatewayUrl": gateway.base}, "0399990000", gateway.get) is None
