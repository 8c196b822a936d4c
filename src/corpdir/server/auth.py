"""Who is calling and what they may do (http-contract.md, "Permission model").

A key belongs to one user. The caller's roles give the ranges: user management, division
management, shared-folder editing and location-service administration. Operation-level
ranges are checked before a request is parsed (403 API_PERMISSION_DENIED); resource-level
ones (someone else's folder, call record or profile) by the handlers
(403 RESOURCE_PERMISSION_DENIED).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import date
from typing import Any, Mapping

from corpdir.server.errors import ApiError, api_denied
from corpdir.spec.errors import ErrorStatus
from corpdir.spec.operations import Permission

USER_MANAGERS = frozenset({"ADMIN_COMPANY", "ADMIN_USER"})
DIVISION_MANAGERS = frozenset({"ADMIN_COMPANY", "ADMIN_DIVISION"})
SHARED_FOLDER_EDITORS = frozenset({"ADMIN_COMPANY", "ADMIN_COMMON_CONTACT"})
IBASHO_EFFECTIVE_FROM = date(2019, 7, 4)


@dataclass(frozen=True)
class Caller:
    user: Mapping[str, Any]
    location_contract_date: date | None = None

    @property
    def user_id(self) -> int:
        return int(self.user["userId"])

    @property
    def roles(self) -> frozenset[str]:
        return frozenset(self.user.get("roles") or ())

    @property
    def manages_users(self) -> bool:
        return bool(self.roles & USER_MANAGERS)

    @property
    def manages_divisions(self) -> bool:
        return bool(self.roles & DIVISION_MANAGERS)

    @property
    def edits_shared_folders(self) -> bool:
        return bool(self.roles & SHARED_FOLDER_EDITORS)

    @property
    def administers_locations(self) -> bool:
        if "ADMIN_COMPANY" in self.roles:
            return True
        contract = self.location_contract_date
        return "ADMIN_IBASHO" in self.roles and contract is not None and contract >= IBASHO_EFFECTIVE_FROM

    def may_edit_folder(self, directory: str, owner_id: int | None) -> bool:
        if directory == "SHARED":
            return self.edits_shared_folders
        return owner_id == self.user_id

    def may_view_folder(self, directory: str, owner_id: int | None) -> bool:
        return directory == "SHARED" or owner_id == self.user_id

    def check_operation(self, permission: Permission) -> None:
        """403 API_PERMISSION_DENIED when the operation is outside the caller's range."""
        allowed = {
            Permission.USER_MANAGEMENT: self.manages_users,
            Permission.DIVISION_MANAGEMENT: self.manages_divisions,
            Permission.LOCATION_ADMIN: self.administers_locations,
        }.get(permission, True)
        if not allowed:
            raise api_denied(f"this operation needs {permission.value}")


def api_key_from(headers: Mapping[str, str]) -> str | None:
    """``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer " and auth[7:].strip():
        return auth[7:].strip()
    return headers.get("x-api-key", "").strip() or None


def authenticate(storage: Any, key: str | None, user_id: int | None) -> Caller:
    """401 for a missing or unknown key (``user_id`` is the key's user, looked up by the
    pipeline before the rate limit) or a disabled user; 403 when the API is not allowed."""
    if not key:
        raise ApiError(ErrorStatus.UNAUTHENTICATED, "an API key is required (Authorization: Bearer <key>)")
    user = storage.get_user(user_id) if user_id is not None else None
    if user is None:
        raise ApiError(ErrorStatus.UNAUTHENTICATED, "the API key is not valid")
    if user.get("enabled") is False:
        raise ApiError(ErrorStatus.UNAUTHENTICATED, "the key's user is disabled")
    if not user.get("paapiAvailable"):
        raise api_denied("API use is not permitted for this user")
    return Caller(user, storage.location_contract_date())


class AllowList:
    """Caller addresses allowed (CIDR networks); empty allows everyone."""

    def __init__(self, networks: list[str]) -> None:
        self.networks = [ipaddress.ip_network(n, strict=False) for n in networks]

    def check(self, host: str | None) -> None:
        if not self.networks:
            return
        try:
            address = ipaddress.ip_address(host or "")
        except ValueError:
            address = None
        if address is None or not any(address in net for net in self.networks):
            raise ApiError(ErrorStatus.ACCESS_DENIED, "the caller's address is not allowed")
