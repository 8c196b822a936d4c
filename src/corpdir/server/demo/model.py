"""What the demo generator hands to the reference server: one plain-data tenant.

The shape is agreed with ``Storage.load_tenant(tenant)``: records are dicts keyed by the
spec's own field names (so the server stores them without a translation table), plus the
few storage-side keys the spec has no request name for (ownerUserId, registeredUserId,
password in plain text). A key that is absent from a user dict means "unset".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

Record = dict[str, Any]


@dataclass(frozen=True)
class DemoKey:
    """A documented API key of the demo tenant, for the README and the server banner."""

    key: str
    user_id: int
    label: str
    description: str


DEMO_KEYS: tuple[DemoKey, ...] = (
    DemoKey(
        "demo-admin", 1, "admin",
        "loginId 'admin', password 'demo-admin-pass': company administrator (ADMIN_COMPANY); "
        "may create and edit users, divisions and shared contacts",
    ),
    DemoKey(
        "demo-reception", 2, "reception",
        "loginId 'reception', password 'demo-reception-pass': the reception desk (総務部 > 受付); "
        "no admin role, a busy call history and personal folders",
    ),
    DemoKey(
        "demo-noapi", 3, "noapi",
        "loginId 'noapi', password 'demo-noapi-pass': a sales user whose paapiAvailable is false, "
        "to show how the service refuses a user without API permission",
    ),
)
"""The three keys every demo tenant has, whatever its seed or size (user ids 1, 2, 3)."""


@dataclass
class DemoTenant:
    """A whole generated company, ready for ``Storage.load_tenant``.

    Ids are dense and start at 1 for every resource; lists are in id order, divisions
    parents-first. Datetimes are timezone-aware (JST), computed from ``reference_time``
    (derived from the seed), never from the wall clock.
    """

    company_name: str
    location_contract_date: date
    custom_columns: list[Record]
    cucm_adapters: list[Record]
    alpha_adapters: list[Record]
    divisions: list[Record]
    users: list[Record]
    api_keys: list[DemoKey]
    photos: dict[int, bytes]
    profiles: dict[int, Record]
    shared_folders: list[Record]
    personal_folders: list[Record]
    contacts: list[Record]
    cards: dict[int, bytes]
    incoming_calls: list[Record]
    outgoing_calls: list[Record]
    reference_time: datetime | None = None
    """'Now' for this tenant: call histories lie in the 30 days before it."""
    email_domain: str = ""
    """The demo company's mail domain (a reserved .example name)."""
