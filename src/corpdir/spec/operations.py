"""The operation table: every operation code of spec section 4 with its HTTP route
(http-contract.md), permission range, models and rate-limit cost. One table, read by the
server (routing, checks), the client (one method per row) and the UI.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, Mapping

from pydantic import BaseModel, ValidationError

from corpdir.spec import calls, contact, division, folder, identify, location, profile, user
from corpdir.spec.common import Page, QueryModel, RequestModel
from corpdir.spec.errors import SpecViolation, details_from
from corpdir.spec.variants import Variant, get_variant


class Permission(StrEnum):
    """Permission ranges of spec section 5 and http-contract.md."""

    NONE = "none stated"
    USER_MANAGEMENT = "user management"
    DIVISION_MANAGEMENT = "division management"
    FOLDER_VIEW = "viewing rights on the folder"
    FOLDER_EDIT = "editing rights on the folder"
    LOCATION_ADMIN = "location-service administration"
    OWN_RECORDS = "the caller's own records"
    OWN_PROFILE_OR_USER_MANAGEMENT = "own profile, or user management for another user's"


BodyKind = Literal["json", "jpeg", "multipart", None]
ResponseKind = type[BaseModel] | Literal["jpeg", None]


@dataclass(frozen=True)
class Operation:
    code: str
    name: str  # the client method
    purpose: str
    method: str
    path: str
    success: int
    permission: Permission
    query: type[QueryModel] | None = None
    body: type[RequestModel] | None = None
    body_kind: BodyKind = None
    response: Any = None  # a model, Page[model], "jpeg", or None (no body)
    tokens: int = 1
    path_params: tuple[str, ...] = ()
    reads_only: bool = False  # sent with a body (POST) but changes nothing: N1

    @property
    def is_write(self) -> bool:
        """True when the operation may change the directory. N1 is a POST that only
        reads (the numbers travel in the body): safe to repeat, allowed when read-only."""
        return self.method not in ("GET", "HEAD") and not self.reads_only

    @property
    def is_list(self) -> bool:
        return isinstance(self.response, type) and issubclass(self.response, Page)


def _op(code: str, name: str, purpose: str, method: str, path: str, success: int, permission: Permission, **kw: Any) -> Operation:
    params = tuple(part[1:-1] for part in path.split("/") if part.startswith("{"))
    if kw.get("body") is not None and "body_kind" not in kw:
        kw["body_kind"] = "json"
    return Operation(code, name, purpose, method, path, success, permission, path_params=params, **kw)


P = Permission
OPERATIONS: dict[str, Operation] = {op.code: op for op in [
    _op("U1", "list_users", "List users", "GET", "/users", 200, P.NONE, query=user.UserQuery, response=Page[user.User]),
    _op("U2", "create_user", "Create user", "POST", "/users", 201, P.USER_MANAGEMENT, body=user.UserCreate, response=user.User),
    _op("U3", "get_user", "Get one user", "GET", "/users/{userId}", 200, P.NONE, response=user.User),
    _op("U4", "edit_user", "Edit user", "PATCH", "/users/{userId}", 200, P.USER_MANAGEMENT, body=user.UserEdit, response=user.User),
    _op("U5", "delete_user", "Delete user (photo too)", "DELETE", "/users/{userId}", 204, P.USER_MANAGEMENT),
    _op("U6", "get_photo", "Get face photo", "GET", "/users/{userId}/photo", 200, P.NONE, query=user.PhotoQuery, response="jpeg"),
    _op("U7", "put_photo", "Replace face photo", "PUT", "/users/{userId}/photo", 204, P.USER_MANAGEMENT, body_kind="jpeg"),
    _op("U8", "delete_photo", "Delete face photo", "DELETE", "/users/{userId}/photo", 204, P.USER_MANAGEMENT),
    _op("U9", "get_profile", "Get profile", "GET", "/users/{userId}/profile", 200, P.NONE, response=profile.Profile),
    _op("U10", "edit_profile", "Edit profile", "PATCH", "/users/{userId}/profile", 200, P.OWN_PROFILE_OR_USER_MANAGEMENT, body=profile.ProfileEdit, response=profile.Profile),
    _op("U11", "edit_destinations", "Edit destinations in bulk", "PATCH", "/destinations", 200, P.USER_MANAGEMENT, body=user.DestinationsEdit, response=user.DestinationsResult, tokens=10),
    _op("D1", "list_divisions", "List divisions", "GET", "/divisions", 200, P.NONE, query=division.DivisionQuery, response=Page[division.Division]),
    _op("D2", "create_division", "Create division", "POST", "/divisions", 201, P.DIVISION_MANAGEMENT, body=division.DivisionCreate, response=division.Division),
    _op("D3", "get_division", "Get division", "GET", "/divisions/{divisionId}", 200, P.NONE, response=division.Division),
    _op("D4", "edit_division", "Edit division", "PATCH", "/divisions/{divisionId}", 200, P.DIVISION_MANAGEMENT, body=division.DivisionEdit, response=division.Division),
    _op("D5", "delete_division", "Delete division (and descendants)", "DELETE", "/divisions/{divisionId}", 204, P.DIVISION_MANAGEMENT),
    _op("X1", "list_contacts", "List external contacts", "GET", "/contacts", 200, P.FOLDER_VIEW, query=contact.ContactQuery, response=Page[contact.Contact]),
    _op("X2", "create_contact", "Create contact", "POST", "/contacts", 201, P.FOLDER_EDIT, body=contact.ContactCreate, response=contact.Contact),
    _op("X3", "edit_contact", "Edit contact", "PATCH", "/contacts/{contactId}", 200, P.FOLDER_EDIT, body=contact.ContactEdit, response=contact.Contact),
    _op("X4", "delete_contact", "Delete contact (card image too)", "DELETE", "/contacts/{contactId}", 204, P.FOLDER_EDIT),
    _op("X5", "create_contact_from_card", "Create contact from a card image", "POST", "/contacts/business-cards", 201, P.NONE, query=contact.BusinessCardForm, body_kind="multipart", response=contact.BusinessCardCreated, tokens=10),
    _op("X6", "get_card_image", "Get card image", "GET", "/contacts/{contactId}/business-card", 200, P.FOLDER_VIEW, response="jpeg"),
    _op("X7", "put_card_image", "Replace card image", "PUT", "/contacts/{contactId}/business-card", 204, P.FOLDER_EDIT, body_kind="jpeg"),
    _op("X8", "delete_card_image", "Delete card image", "DELETE", "/contacts/{contactId}/business-card", 204, P.FOLDER_EDIT),
    _op("F1", "list_folders", "List shared and personal folders", "GET", "/folders", 200, P.NONE, query=folder.FolderQuery, response=Page[folder.Folder]),
    _op("P1", "list_personal_folders", "List personal folders", "GET", "/personal-folders", 200, P.OWN_RECORDS, query=folder.PersonalFolderQuery, response=Page[folder.PersonalFolder]),
    _op("P2", "create_personal_folder", "Create personal folder", "POST", "/personal-folders", 201, P.OWN_RECORDS, body=folder.PersonalFolderCreate, response=folder.PersonalFolder),
    _op("P3", "edit_personal_folder", "Edit personal folder", "PATCH", "/personal-folders/{folderNum}", 200, P.OWN_RECORDS, body=folder.PersonalFolderEdit, response=folder.PersonalFolder),
    _op("N1", "identify_numbers", "Identify contacts from phone numbers", "POST", "/phone-numbers/identify", 200, P.NONE, body=identify.IdentifyRequest, response=identify.IdentifyResult, tokens=10, reads_only=True),
    _op("H1", "list_incoming_calls", "List own incoming history", "GET", "/me/incoming-calls", 200, P.OWN_RECORDS, query=calls.CallQuery, response=Page[calls.IncomingCall]),
    _op("H2", "create_incoming_call", "Add incoming record", "POST", "/me/incoming-calls", 201, P.OWN_RECORDS, body=calls.IncomingCallCreate, response=calls.IncomingCall),
    _op("H3", "edit_incoming_call", "Edit incoming record", "PATCH", "/me/incoming-calls/{incomingCallHistoryId}", 200, P.OWN_RECORDS, body=calls.IncomingCallEdit, response=calls.IncomingCall),
    _op("H4", "list_outgoing_calls", "List own outgoing history", "GET", "/me/outgoing-calls", 200, P.OWN_RECORDS, query=calls.CallQuery, response=Page[calls.OutgoingCall]),
    _op("H5", "create_outgoing_call", "Add outgoing record", "POST", "/me/outgoing-calls", 201, P.OWN_RECORDS, body=calls.OutgoingCallCreate, response=calls.OutgoingCall),
    _op("H6", "edit_outgoing_call", "Edit outgoing record", "PATCH", "/me/outgoing-calls/{outgoingCallHistoryId}", 200, P.OWN_RECORDS, body=calls.OutgoingCallEdit, response=calls.OutgoingCall),
    _op("L1", "register_spots", "Register spot information per location tag in bulk", "POST", "/locations/spots", 200, P.LOCATION_ADMIN, body=location.SpotsRequest, response=location.SpotsResult, tokens=10),
]}

BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS.values()}


def _context(variant: str | Variant, extra: Mapping[str, Any] | None) -> dict[str, Any]:
    return {"variant": get_variant(variant), **(extra or {})}


def validate_body(
    code: str, data: Any, *, variant: str | Variant = "C", json: bool = False, context: Mapping[str, Any] | None = None
) -> RequestModel:
    """Validate an operation's request body as ``variant``; raise SpecViolation with the details.

    ``json=True`` parses raw JSON text/bytes strictly (wrong JSON types are INVALID_TYPE).
    ``context`` may carry server state, e.g. ``{"user_type": "FACILITY"}`` for U4.
    """
    op = OPERATIONS[code]
    assert op.body is not None, f"{code} has no JSON body"
    ctx = _context(variant, context)
    try:
        if json:
            model = op.body.model_validate_json(data, strict=True, context=ctx)
        elif isinstance(data, op.body):
            model = op.body.model_validate(data.model_dump(exclude_unset=True), context=ctx)
        else:
            model = op.body.model_validate(data, context=ctx)
    except ValidationError as exc:
        raise SpecViolation(details_from(exc)) from None
    if extra := model.rule_violations(ctx):
        raise SpecViolation(extra)
    return model


def validate_query(code: str, params: Mapping[str, Any] | QueryModel, *, variant: str | Variant = "C") -> QueryModel:
    """Validate an operation's query parameters (or X5 form fields) as ``variant``."""
    op = OPERATIONS[code]
    assert op.query is not None, f"{code} takes no query"
    if isinstance(params, QueryModel):
        params = params.model_dump(exclude_unset=True)
    try:
        return op.query.model_validate(dict(params), context=_context(variant, None))
    except ValidationError as exc:
        raise SpecViolation(details_from(exc)) from None
