"""The deterministic demo tenant: a whole Japanese company, generated from a seed.

``generate_tenant()`` gives the reference server something worth browsing with no setup
(architecture.md, "the embedded default"): ~40 divisions, 500 users whose names read the
same in kanji, kana and romaji, photos, profiles, 2,000 external contacts with business
cards and deliberate duplicates, and call histories for the three documented API keys
(``DEMO_KEYS``). The same seed gives the same tenant, byte for byte, so screenshots,
snapshot tests and bug reports can rely on it; the size can go to 100,000 users and
100,000 contacts for load tests (photos and cards stay capped, they are the slow part).

Every record satisfies the interface's request validation (tests/demo checks each one
against ``corpdir.spec.validate_body``), so the server can load it without exceptions.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from corpdir.server.demo.calls import build_calls
from corpdir.server.demo.contacts import build_address_books
from corpdir.server.demo.images import business_card, face_photo
from corpdir.server.demo.model import DEMO_KEYS, DemoKey, DemoTenant, Record
from corpdir.server.demo.names import COMPANY_NAME, build_pools
from corpdir.server.demo.numbers import NumberPlan
from corpdir.server.demo.organisation import build_organisation, tenant_settings
from corpdir.server.demo.people import build_people
from corpdir.server.demo.randomness import DemoRandom

__all__ = ["DEMO_KEYS", "DemoKey", "DemoTenant", "default_contacts", "generate_tenant", "reference_time", "with_recent_calls"]

JST = timezone(timedelta(hours=9), "JST")
PHOTO_LIMIT = 1000
CARD_LIMIT = 500


def default_contacts(size: int) -> int:
    """Four contacts a user up to 2,000 in all, then one a user (500 -> 2,000; 100,000 -> 100,000)."""
    return min(4 * size, max(2000, size))


def reference_time(seed: int) -> datetime:
    """The tenant's 'now': a fixed evening in 2025, moved by the seed, never the wall clock."""
    return datetime(2025, 6, 2, 18, 30, tzinfo=JST) + timedelta(days=seed % 180)


def generate_tenant(size: int = 500, seed: int = 1, contacts: int | None = None) -> DemoTenant:
    """Build a demo tenant of ``size`` users and ``contacts`` external contacts from ``seed``."""
    if contacts is None:
        contacts = default_contacts(size)
    rng = DemoRandom(seed)
    reference = reference_time(seed)
    pools = build_pools(seed)
    numbers = NumberPlan(rng)

    org = build_organisation(size, rng, numbers)
    people = build_people(size, rng, pools, org, numbers, reference, PHOTO_LIMIT)
    regular_ids = [u["userId"] for u in people.users if u["userType"] == "REGULAR_USER"]
    books = build_address_books(contacts, rng, pools, numbers, reference, people.key_user_ids, regular_ids,
                                people.registrars, CARD_LIMIT)
    incoming, outgoing = build_calls(rng, reference, people.key_user_ids, people.users, books.contacts, numbers)

    photos = {uid: face_photo(seed, uid) for uid in people.photo_user_ids}
    english = {c.name: c.english for c in books.companies}
    by_id = {c["contactId"]: c for c in books.contacts} if books.card_contact_ids else {}
    cards = {cid: business_card(seed, by_id[cid], english[by_id[cid]["companyName"]])
             for cid in books.card_contact_ids}

    settings = tenant_settings()
    return DemoTenant(
        company_name=COMPANY_NAME,
        location_contract_date=settings["location_contract_date"],
        custom_columns=settings["custom_columns"],
        cucm_adapters=settings["cucm_adapters"],
        alpha_adapters=settings["alpha_adapters"],
        divisions=org.records(),
        users=people.users,
        api_keys=list(DEMO_KEYS),
        photos=photos,
        profiles=people.profiles,
        shared_folders=books.shared_folders,
        personal_folders=books.personal_folders,
        contacts=books.contacts,
        cards=cards,
        incoming_calls=incoming,
        outgoing_calls=outgoing,
        reference_time=reference,
        email_domain=people.email_domain,
    )


def with_recent_calls(tenant: DemoTenant, now: datetime) -> DemoTenant:
    """The tenant with its call histories moved by whole days so that they end in the day
    before ``now``, never after it, as a running demo should look: the desk's "missed, not yet called back", the
    30-day chart and "today" in the pop-up all count from today. The generator itself stays
    clock-free (same seed, same tenant); the embedded demo and `corpdir server --demo` apply
    this once, when they fill a new data directory."""
    if tenant.reference_time is None:
        return tenant
    shift = timedelta(days=(now - tenant.reference_time) // timedelta(days=1))  # whole days: weekdays stay weekdays' times
    if not shift:
        return tenant

    def moved(calls: list[Record], field: str) -> list[Record]:
        return [{**call, field: call[field] + shift} if call.get(field) else call for call in calls]

    return replace(tenant, incoming_calls=moved(tenant.incoming_calls, "calledAt"),
                   outgoing_calls=moved(tenant.outgoing_calls, "callingAt"), reference_time=tenant.reference_time + shift)
