"""The routing profile (default = http-contract.md, TOML overrides) and error mapping."""

from __future__ import annotations

import httpx
import pytest

from corpdir import client as C
from corpdir.client import RoutingError, RoutingProfile
from corpdir.client.errors import error_from_response, trim_text
from corpdir.spec import OPERATIONS

from .faults import HTML_502

CONTRACT = """U1 GET /users|U2 POST /users|U3 GET /users/{userId}|U4 PATCH /users/{userId}|U5 DELETE /users/{userId}
U6 GET /users/{userId}/photo|U7 PUT /users/{userId}/photo|U8 DELETE /users/{userId}/photo|U9 GET /users/{userId}/profile
U10 PATCH /users/{userId}/profile|U11 PATCH /destinations|D1 GET /divisions|D2 POST /divisions
D3 GET /divisions/{divisionId}|D4 PATCH /divisions/{divisionId}|D5 DELETE /divisions/{divisionId}|X1 GET /contacts
X2 POST /contacts|X3 PATCH /contacts/{contactId}|X4 DELETE /contacts/{contactId}|X5 POST /contacts/business-cards
X6 GET /contacts/{contactId}/business-card|X7 PUT /contacts/{contactId}/business-card
X8 DELETE /contacts/{contactId}/business-card|F1 GET /folders|P1 GET /personal-folders|P2 POST /personal-folders
P3 PATCH /personal-folders/{folderNum}|N1 POST /phone-numbers/identify|H1 GET /me/incoming-calls|H2 POST /me/incoming-calls
H3 PATCH /me/incoming-calls/{incomingCallHistoryId}|H4 GET /me/outgoing-calls|H5 POST /me/outgoing-calls
H6 PATCH /me/outgoing-calls/{outgoingCallHistoryId}|L1 POST /locations/spots"""


def test_default_profile_is_the_http_contract():
    rows = [r.split() for r in CONTRACT.replace("\n", "|").split("|")]
    p = RoutingProfile.default()
    assert {code: (p.route(code).method, p.route(code).path) for code in OPERATIONS} == {c: (m, path) for c, m, path in rows}
    assert p.auth_header == "Authorization" and p.auth_value("k") == "Bearer k"
    assert p.upload("U7").kind == "raw" and p.upload("X7").content_type == "image/jpeg"
    assert p.upload("X5").kind == "multipart" and p.upload("X5").file_field == "businessCardImage"
    assert p.encode_query({"select": ["a", "b"], "firstLayer": True, "page": 0}) == [
        ("select", "a"), ("select", "b"), ("firstLayer", "true"), ("page", "0")]


async def test_toml_overrides_routes_and_auth(tmp_path, clock):
    f = tmp_path / "routing.toml"
    f.write_text('[auth]\nheader = "X-API-Key"\nscheme = ""\n[encoding]\narrays = "comma"\n'
                 '[routes.U3]\nmethod = "post"\npath = "/people/{userId}/read"\n')
    p = RoutingProfile.from_toml(f)
    assert p.route("U3").method == "POST" and p.route("U3").path == "/people/{userId}/read"
    assert p.route("U4").path == "/users/{userId}"  # the rest stays the contract's
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/read"):
            return httpx.Response(200, json={"userId": 3})
        return httpx.Response(200, json={"hasMore": False, "items": []})

    async with C.DirectoryClient(C.ConnectionConfig(routing_file=f, base_url="http://127.0.0.1/api", api_key="key-1"),
                                 transport=httpx.MockTransport(handler)) as c:
        assert (await c.get_user(3)).userId == 3
        await c.list_users(select=["userId", "fullname"])
    assert seen[0].method == "POST" and seen[0].url.path == "/api/people/3/read"
    assert seen[0].headers["x-api-key"] == "key-1" and "authorization" not in seen[0].headers
    assert seen[1].url.query == b"select=userId%2Cfullname"


@pytest.mark.parametrize("text,error", [
    ('[routes.Z9]\npath="/x"', "not an operation code"),
    ('[routes.U3]\npath="/users/{id}"', "placeholders"),
    ('[routes.U3]\nmethod="FETCH"', "not an HTTP method"),
    ('[encoding]\narrays="json"', "arrays"),
    ('[uploads.U1]\nkind="raw"', "not an upload"),
    ('[surprise]\n', "unknown sections"),
    ('not toml', "cannot read"),
])
def test_bad_profiles_are_refused(tmp_path, text, error):
    f = tmp_path / "r.toml"
    f.write_text(text)
    with pytest.raises(RoutingError, match=error):
        RoutingProfile.from_toml(f)


def _error(status: int, body: bytes | dict, **headers: str) -> C.ApiError:
    kw = {"json": body} if isinstance(body, dict) else {"content": body}
    return error_from_response(httpx.Response(status, headers=headers, **kw), "U3")


@pytest.mark.parametrize("http,status,cls", [
    (400, "INVALID_ARGUMENT", C.Invalid), (401, "UNAUTHENTICATED", C.Unauthenticated),
    (403, "RESOURCE_PERMISSION_DENIED", C.ResourcePermissionDenied), (403, "API_PERMISSION_DENIED", C.ApiPermissionDenied),
    (403, "ACCESS_DENIED", C.AccessDenied), (404, "NOT_FOUND", C.NotFound), (405, "METHOD_NOT_ALLOWED", C.MethodNotAllowed),
    (406, "NOT_ACCEPTABLE", C.NotAcceptable), (409, "CONFLICT", C.Conflict), (409, "ALREADY_EXISTS", C.AlreadyExists),
    (413, "PAYLOAD_TOO_LARGE", C.PayloadTooLarge), (415, "UNSUPPORTED_MEDIA_TYPE", C.UnsupportedMediaType),
    (422, "UNPROCESSABLE", C.Unprocessable), (429, "RESOURCE_EXHAUSTED", C.RateLimited),
    (500, "INTERNAL_SERVER_ERROR", C.ServerError), (503, "SERVICE_UNAVAILABLE", C.Unavailable),
])
def test_error_object_maps_by_status(http, status, cls):
    err = _error(http, {"error": {"status": status, "message": "m", "details": [{"field": "f", "code": "TOO_LONG", "description": "at most 5"}]}})
    assert type(err) is cls and err.http_status == http and err.status == status and err.operation == "U3"
    assert err.details[0].field == "f" and err.details[0].code == "TOO_LONG"
    assert "f: at most 5" in str(err) and f"HTTP {http}" in str(err)


def test_html_page_truncated_json_and_empty_bodies_never_crash():
    html = _error(502, HTML_502, **{"content-type": "text/html"})
    assert type(html) is C.ServerError and html.http_status == 502
    assert html.message == "502 Bad Gateway 502 Bad Gateway The proxy & gateway got an invalid response."
    assert "<" not in str(html) and "var x" not in str(html)
    assert type(_error(403, b"<html><body>Forbidden</body></html>")) is C.PermissionDenied
    cut = _error(404, b'{"error": {"status": "NOT_FO')
    assert type(cut) is C.NotFound and cut.message.startswith('{"error"')
    assert type(_error(503, b"")) is C.Unavailable
    assert type(_error(500, b"\xff\xfe\x00garbage")) is C.ServerError
    assert len(trim_text("x" * 10_000)) == 300
    assert _error(429, b"", **{"retry-after": "7"}).retry_after == 7
    # JSON in unexpected shapes: details not a list, error not an object, nesting past the parser's depth
    odd = _error(400, {"error": {"status": "INVALID_ARGUMENT", "message": "m", "details": 5}})
    assert type(odd) is C.Invalid and odd.details == []
    assert type(_error(400, {"error": {"status": "INVALID_ARGUMENT", "details": {"field": "x"}}})) is C.Invalid
    assert type(_error(404, {"error": ["x"]})) is C.NotFound
    assert type(_error(500, b"[" * 100_000)) is C.ServerError
    # a Retry-After that is no number of seconds is treated as absent
    assert _error(429, b"", **{"retry-after": "inf"}).retry_after is None
    assert _error(429, b"", **{"retry-after": "nan"}).retry_after is None


def test_messages_are_readable():
    err = _error(401, {"error": {"status": "UNAUTHENTICATED", "message": "credentials missing", "details": []}})
    assert str(err).startswith("The API key was not accepted; check the key in the settings: credentials missing")
    na = C.OperationNotAvailable("X3", "edit_contact", "B")
    assert str(na) == "This directory service (interface variant B) does not offer 'edit contact' (operation X3)."


async def test_toml_overrides_upload_encodings(tmp_path):
    """U7 as a multipart form with another field name; X5 as the raw image, its fields in the query."""
    f = tmp_path / "routing.toml"
    f.write_text('[uploads.U7]\nkind = "multipart"\nfile_field = "photo"\nfilename = "face.jpg"\n'
                 '[uploads.X5]\nkind = "raw"\n')
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("business-cards"):
            return httpx.Response(201, json={"contactId": 9})
        return httpx.Response(204)

    image = b"\xff\xd8\xff\xe0 a jpeg"
    async with C.DirectoryClient(C.ConnectionConfig(routing_file=f, base_url="http://127.0.0.1/v1", api_key="k"),
                                 transport=httpx.MockTransport(handler)) as c:
        await c.put_photo(3, image)
        assert (await c.create_contact_from_card(image, directory="SHARED", folderNum=1)).contactId == 9
    photo, card = seen
    assert photo.headers["content-type"].startswith("multipart/form-data")
    assert b'name="photo"; filename="face.jpg"' in photo.content and image in photo.content
    assert card.headers["content-type"] == "image/jpeg" and card.content == image
    assert dict(card.url.params) == {"directory": "SHARED", "folderNum": "1"}
