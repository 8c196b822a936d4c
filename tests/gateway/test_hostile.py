"""Hostile text from the directory (escapes, bidi, markup, '<', '&', ']]>') in every format."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from urllib.parse import unquote

from hostile_text import HOSTILE, assert_inert
from corpdir.service.backend import backend_of

EXTRA = {"xml": "<b>&amp;</b>]]><!--x", "quote": "O'Neil \"Q\" & <co>"}
PATHS = ("/yealink/directory.xml", "/yealink/phonebook.xml", "/cisco/directory.xml", "/snom/directory.xml",
         "/grandstream/phonebook.xml", "/cisco/search.xml", "/3cx.xml")


def test_every_format_keeps_hostile_names_inert(gateway):
    names = {k: v[:50] for k, v in {**HOSTILE, **EXTRA}.items()}
    division = gateway.call(backend_of(gateway.admin).client.create_division(divisionCode="HOSTILE", divisionName="<部>&]]>\u202e"))
    numbers = {}
    for i, (key, name) in enumerate(names.items()):
        number = f"03-5555-{1000 + i}"
        gateway.call(backend_of(gateway.admin).client.create_user(loginId=f"hostile{i}", fullname=name, phoneNum=number,
                                                      divisionIds=[division.divisionId]))
        numbers[key] = number
    gateway.call(gateway.service.sync.run())
    for key, number in numbers.items():
        for fmt in ("cid", "cid.kv", "cid.json"):
            for ascii in ("0", "1"):
                answer = gateway.get(f"{gateway.base}/{fmt}?number={number}&ascii={ascii}")
                assert answer.status_code == 200, (key, fmt)
                assert_inert(answer.content)
                if fmt == "cid":
                    assert "\n" not in answer.text and answer.text  # one line, never empty
                elif fmt == "cid.kv":
                    assert all("=" in p and "&" not in unquote(p.split("=", 1)[0]) for p in answer.text.split("&"))
                    assert len(answer.text.split("&")) == 5  # name, company, division, type, id: no field split off
                else:
                    body = answer.json()
                    assert_inert(json.dumps(body, ensure_ascii=False))
    for path in PATHS:
        for query in ("", "?ascii=1"):
            body = gateway.get(f"{gateway.base}{path}{query}").content
            assert_inert(body)
            root = ET.fromstring(body)  # well-formed: '<', '&' and ']]>' were escaped
            text = " ".join(root.itertext()) + " ".join(v for e in root.iter() for v in e.attrib.values())
            if path.startswith("/yealink/directory") and not query:
                assert names["xml"] in text and names["quote"] in text  # shown as the text it is
