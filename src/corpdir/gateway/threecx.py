"""The 3CX CRM template (``templates/corpdir-3cx.xml``, kept in the repository), served with
this gateway's URL filled in as the GatewayUrl parameter's default."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from importlib.resources import files

TEMPLATE = files("corpdir.gateway") / "templates" / "corpdir-3cx.xml"


def template(gateway_url: str) -> bytes:
    root = ET.fromstring(TEMPLATE.read_bytes())
    for parameter in root.iter("Parameter"):
        if parameter.get("Name") == "GatewayUrl":
            parameter.set("Default", gateway_url)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
