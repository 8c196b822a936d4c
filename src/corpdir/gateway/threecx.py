"""The 3CX CRM template (``templates/corpdir-3cx.xml``, kept in the repository), served with
this gateway's URL filled in as the GatewayUrl parameter's default.

A gateway that admits by token serves the token path as the URL and needs no
authentication. One reached with HTTP basic auth (``--user``) serves the template with
``Authentication Type="Basic"`` and two more parameters, the user (filled in) and the
password (left for the administrator to type into 3CX, never served): 3CX sends them
with every lookup, where a URL without credentials would get 401 on every call.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from importlib.resources import files

TEMPLATE = files("corpdir.gateway") / "templates" / "corpdir-3cx.xml"
GENERAL = "General Configuration"


def template(gateway_url: str, basic_user: str | None = None) -> bytes:
    """The template for ``gateway_url``; ``basic_user``: the gateway's basic-auth user when
    the URL carries no token (None: no authentication)."""
    root = ET.fromstring(TEMPLATE.read_bytes())
    parameters = root.find("Parameters")
    assert parameters is not None
    for parameter in parameters.iter("Parameter"):
        if parameter.get("Name") == "GatewayUrl":
            parameter.set("Default", gateway_url)
    if basic_user is not None:
        ET.SubElement(parameters, "Parameter", Name="GatewayUser", Type="String", Parent=GENERAL, Editor="String",
                      Title="Gateway user (corpdir gateway --user):", Default=basic_user)
        ET.SubElement(parameters, "Parameter", Name="GatewayPassword", Type="Password", Parent=GENERAL,
                      Editor="String", Title="Gateway password:", Default="")
        authentication = root.find("Authentication")
        assert authentication is not None
        authentication.set("Type", "Basic")
        ET.SubElement(authentication, "Value").text = "[GatewayUser]:[GatewayPassword]"
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
