"""Every operation's method against the reference server in-process (variant C)."""

from __future__ import annotations

import io
import json
import typing

import httpx
import pytest
from PIL import Image

from corpdir.client import NotFound, OperationNotAvailable
from corpdir.spec import OPERATIONS, Page, get_variant
from corpdir.spec.user import UserEdit

from .conftest import KEY
from .server import make_server


def jpeg(color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(out, "JPEG")
    return out.getvalue()


def test_one_method_per_operation():
    from corpdir.client import DirectoryClient

    for op in OPERATIONS.values():
        method = getattr(DirectoryClient, op.name)
        assert method.__doc__ and method.__doc__.startswith(f"{op.code}:"), op.code
        # typed: the result is the spec's response model (bytes for images, None for deletes)
        returns = typing.get_type_hints(method)["return"]
        expected = bytes if op.response == "jpeg" else type(None) if op.response is None else op.response
        assert returns is expected, (op.code, returns, expected)


async def test_every_method_against_the_reference_server(clock, make_client):
    recorder, storage = make_server(KEY, clock, burst=10_000, rate=1000)
    c = make_client(httpx.ASGITransport(app=recorder))
    called: set[str] = set()

    def did(code: str) -> None:
        called.add(code)

    # divisions
    hq = await c.create_division(divisionCode="HQ", divisionName="Head office"); did("D2")
    sales = await c.create_division({"divisionCode": "SALES", "divisionName": "Sales", "parentDivisionId": hq.divisionId}); did("D2")
    assert (await c.get_division(sales.divisionId)).parentDivisionId == hq.divisionId; did("D3")
    assert (await c.edit_division(sales.divisionId, {"divisionNameKana": "セールス"})).divisionNameKana == "セールス"; did("D4")
    page = await c.list_divisions(firstLayer=True); did("D1")
    assert isinstance(page, Page) and [d.divisionId for d in page.items] == [hq.divisionId]

    # users, photo, profile, destinations
    u = await c.create_user(loginId="hanako", fullname="Hanako Sato", divisionIds=[sales.divisionId], extensionNum="1234"); did("U2")
    assert (await c.get_user(u.userId)).loginId == "hanako"; did("U3")
    edited = await c.edit_user(u.userId, UserEdit(position="Manager")); did("U4")
    assert edited.position == "Manager"
    assert [x.userId for x in (await c.list_users(loginIds=["hanako"])).items] == [u.userId]; did("U1")
    await c.put_photo(u.userId, jpeg()); did("U7")
    photo = await c.get_photo(u.userId); did("U6")
    assert photo[:2] == b"\xff\xd8"
    assert (await c.get_photo(u.userId, "THUMBNAIL"))[:2] == b"\xff\xd8"
    await c.delete_photo(u.userId); did("U8")
    with pytest.raises(NotFound):
        await c.get_photo(u.userId)
    profile = await c.edit_profile(u.userId, {"oneWord": "Hello", "skills": ["Python", "Python", "SQL"]}); did("U10")
    assert profile.skills == ["Python", "SQL"]
    assert (await c.get_profile(u.userId)).oneWord == "Hello"; did("U9")
    result = await c.edit_destinations([{"loginId": "hanako", "destinationId": 1, "destinationName": "Office"}]); did("U11")
    assert result.destinationsCount == 1

    # folders and contacts
    folders = await c.list_folders(); did("F1")
    shared = folders.items[0].folderId
    personal = await c.create_personal_folder(folderName="Clients"); did("P2")
    assert (await c.edit_personal_folder(personal.folderNum, {"sortScore": 5})).sortScore == 5; did("P3")
    assert [f.folderNum for f in (await c.list_personal_folders()).items] == [personal.folderNum]; did("P1")
    contact = await c.create_contact(folderId={"directory": shared.directory, "folderNum": shared.folderNum},
                                     fullname="Ichiro Suzuki", phoneNum="0312345678"); did("X2")
    assert (await c.edit_contact(contact.contactId, {"companyName": "ACME"})).companyName == "ACME"; did("X3")
    assert [x.contactId for x in (await c.list_contacts(fullname="Ichiro")).items] == [contact.contactId]; did("X1")
    await c.put_card_image(contact.contactId, jpeg("blue")); did("X7")
    assert (await c.get_card_image(contact.contactId))[:2] == b"\xff\xd8"; did("X6")
    await c.delete_card_image(contact.contactId); did("X8")
    created = await c.create_contact_from_card(jpeg("white"), directory="SHARED", folderNum=shared.folderNum, comment="met at expo"); did("X5")
    assert created.contactId > 0
    sent = recorder.last("POST")
    assert sent.headers["content-type"].startswith("multipart/form-data") and b'name="businessCardImage"' in sent.body

    # numbers, call histories, locations
    ident = await c.identify_numbers(["0312345678", "1234"]); did("N1")
    assert {i.phoneNum for i in ident.items} >= {"0312345678"}
    inc = await c.create_incoming_call(fromNum="0312345678", answered=False, calledAt="2024-05-01T09:00:00+09:00"); did("H2")
    assert (await c.edit_incoming_call(inc.incomingCallHistoryId, {"note": "call back"})).note == "call back"; did("H3")
    assert len((await c.list_incoming_calls(answered=False)).items) == 1; did("H1")
    out = await c.create_outgoing_call(toNum="1234", answered=True, duration=30, callingAt="2024-05-01T10:00:00Z"); did("H5")
    assert (await c.edit_outgoing_call(out.outgoingCallHistoryId, {"duration": 31})).duration == 31; did("H6")
    assert len((await c.list_outgoing_calls()).items) == 1; did("H4")
    spots = await c.register_spots([{"bleId": "aa:bb", "spotId": "lobby"}]); did("L1")
    assert spots.locationsCount == 1

    # deletes last
    await c.delete_contact(contact.contactId); did("X4")
    await c.delete_user(u.userId); did("U5")
    with pytest.raises(NotFound):
        await c.get_user(u.userId)
    await c.delete_division(hq.divisionId); did("D5")
    with pytest.raises(NotFound):
        await c.get_division(sales.divisionId)  # deleted with its parent

    assert called == set(OPERATIONS)
    assert recorder.statuses().count(429) == 0
    # JSON bodies are UTF-8 JSON; images raw JPEG
    put = next(s for s in recorder.seen if s.method == "PUT")
    assert put.headers["content-type"] == "image/jpeg" and put.body[:2] == b"\xff\xd8"
    patch = next(s for s in recorder.seen if s.method == "PATCH" and "divisions" in s.path)
    assert json.loads(patch.body) == {"divisionNameKana": "セールス"}


@pytest.mark.parametrize("variant,method,args", [
    ("A", "list_contacts", ()),
    ("A", "get_photo", (1,)),
    ("B", "edit_contact", (1, {"fullname": "x"})),
    ("B", "identify_numbers", (["1"],)),
])
async def test_operation_missing_from_variant_is_refused_without_request(variant, method, args, clock, make_client):
    recorder, _ = make_server(KEY, clock, variant=variant)
    c = make_client(httpx.ASGITransport(app=recorder), variant=variant)
    with pytest.raises(OperationNotAvailable, match=f"variant {variant}"):
        await getattr(c, method)(*args)
    assert recorder.seen == []


async def test_variant_a_serves_its_operations(clock, make_client):
    recorder, _ = make_server(KEY, clock, variant="A")
    c = make_client(httpx.ASGITransport(app=recorder), variant="A")
    d = await c.create_division(divisionCode="A1", divisionName="Alpha")
    assert d.childDivisionIds is None  # A has no childDivisionIds
    assert (await c.list_users()).items[0].userId == 1


def _dummy_args(method_name: str) -> list:
    """Arguments that get a call as far as the variant check (which comes first)."""
    import inspect

    from corpdir.client import DirectoryClient

    args = []
    for p in inspect.signature(getattr(DirectoryClient, method_name)).parameters.values():
        if p.name == "self" or p.default is not inspect.Parameter.empty or p.kind is p.VAR_KEYWORD:
            continue
        args.append({"image": jpeg(), "phone_nums": ["1"], "destinations": [], "locations": []}.get(p.name, 1))
    return args


MISSING_BY_VARIANT = [(v, op.code) for v in "AB" for op in OPERATIONS.values() if not get_variant(v).has(op.code)]


@pytest.mark.parametrize("variant,code", MISSING_BY_VARIANT, ids=[f"{v}-{c}" for v, c in MISSING_BY_VARIANT])
async def test_every_operation_a_variant_lacks_is_refused_without_request(variant, code, make_client):
    sent: list[httpx.Request] = []
    c = make_client(httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(500)), variant=variant)
    op = OPERATIONS[code]
    with pytest.raises(OperationNotAvailable, match=f"variant {variant}.*operation {code}"):
        await getattr(c, op.name)(*_dummy_args(op.name))
    if op.is_list:
        with pytest.raises(OperationNotAvailable):
            async for _ in c.paginate(code):
                pass
    assert sent == []


def test_variants_lack_what_section_9_says():
    a = {code for code in OPERATIONS if get_variant("A").has(code)}
    b = {code for code in OPERATIONS if get_variant("B").has(code)}
    assert a == {f"U{i}" for i in range(1, 6)} | {f"D{i}" for i in range(1, 6)}
    assert b == a | {"U6", "U7", "U8", "U9", "U10", "X1", "X2", "X5", "X6", "X7", "X8", "F1"}
    assert all(get_variant("C").has(code) for code in OPERATIONS) and len(OPERATIONS) == 36
