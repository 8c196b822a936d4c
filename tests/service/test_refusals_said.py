"""A write the key may not make is explained as a sentence that says what was refused and
which right it needs: the reception desk's key against the reference server's real 403s
(the spec's purposes, "Edit user" and "Delete contact (card image too)", read as labels:
"you may not edit user" was what the desk saw)."""

from __future__ import annotations

import pytest

from corpdir.client import PermissionDenied
from corpdir.service.backend import backend_of
from corpdir.service.messages import explain
from service_fixtures import make_server, make_service


@pytest.fixture
async def desk():
    service = make_service(make_server(), api_key="demo-reception")
    yield backend_of(service).client
    await service.close()


async def test_refused_writes_say_what_and_which_right(desk):
    someone = (await desk.list_users(pageSize=5)).items[-1]
    division = (await desk.list_divisions()).items[0]
    shared = next(c for c in (await desk.list_contacts(pageSize=100)).items if c.folderId and c.folderId.directory == "SHARED")
    refused = {
        "this key may not edit people. It needs user management.":
            lambda: desk.edit_user(someone.userId, {"position": "部長"}),
        "this key may not delete people. It needs user management.": lambda: desk.delete_user(someone.userId),
        "this key may not add people. It needs user management.": lambda: desk.create_user(loginId="x-new", fullname="新人 太郎"),
        "this key may not edit divisions. It needs division management.":
            lambda: desk.edit_division(division.divisionId, {"divisionNameAlphabet": "Renamed"}),
        "this key may not edit contacts in this folder.": lambda: desk.edit_contact(shared.contactId, {"fullname": "改名 花子"}),
    }
    for said, call in refused.items():
        with pytest.raises(PermissionDenied) as info:
            await call()
        text = explain(info.value)
        assert said in text, text
        assert text.startswith(info.value.summary + ": ")


async def test_a_key_without_api_use_is_told_it_may_not_list_people():
    """A read refused (demo-noapi: no API use at all) is not worded as a write or a filter."""
    service = make_service(make_server(), api_key="demo-noapi")
    try:
        with pytest.raises(PermissionDenied) as info:
            await backend_of(service).client.list_users(pageSize=5)
    finally:
        await service.close()
    text = explain(info.value)
    assert "may not list users" in text and "login ID" not in text, text

