"""Users (U1-U11): the people of the directory, their face photos, profiles and whereabouts."""

from __future__ import annotations

from typing import Any, AsyncIterator, Mapping, Sequence

from corpdir.client._args import entries, get, merge
from corpdir.client._base import BaseClient
from corpdir.spec import ErrorDetail, Page
from corpdir.spec.enums import PhotoSize
from corpdir.spec.profile import Profile, ProfileEdit
from corpdir.spec.user import DestinationEntry, DestinationsResult, User, UserCreate, UserEdit, UserQuery


class UsersResource(BaseClient):
    """U1-U11: users, their photos and profiles, destinations."""

    async def list_users(self, query: UserQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[User]:
        """U1: one page of users (fields within the caller's permission range)."""
        return await self._call("U1", query=merge(query, params))

    async def create_user(self, user: UserCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> User:
        """U2: create a user (loginId and fullname required)."""
        return await self._call("U2", body=merge(user, fields))

    async def get_user(self, user_id: int) -> User:
        """U3: one user."""
        return await self._call("U3", path={"userId": user_id})

    async def edit_user(
        self,
        user_id: int,
        changes: UserEdit | Mapping[str, Any] | None = None,
        *,
        original: User | Mapping[str, Any] | None = None,
        edited: User | Mapping[str, Any] | None = None,
    ) -> User:
        """U4: change only the given fields (or the difference between ``original`` and
        ``edited``). With ``original`` the per-user-type field rules are checked locally
        against its userType, as the service does."""
        user_type = get(original, "userType")
        return await self._edit("U4", {"userId": user_id}, changes, original, edited, {"user_type": user_type} if user_type else None)

    async def delete_user(self, user_id: int) -> None:
        """U5: delete a user (and the face photo)."""
        await self._call("U5", path={"userId": user_id})

    async def get_photo(self, user_id: int, size: PhotoSize | str = PhotoSize.FULL) -> bytes:
        """U6: the face photo as JPEG bytes (``size`` FULL or THUMBNAIL)."""
        try:
            size = PhotoSize(size)
        except ValueError:
            raise self._invalid("U6", [ErrorDetail(field="size", code="INVALID_ENUM", description="must be one of 'FULL', 'THUMBNAIL'")]) from None
        return await self._call("U6", path={"userId": user_id}, query={"size": size.value}, validate=False)

    async def put_photo(self, user_id: int, image: bytes) -> None:
        """U7: replace the face photo with a JPEG image."""
        await self._call("U7", path={"userId": user_id}, upload=image)

    async def delete_photo(self, user_id: int) -> None:
        """U8: delete the face photo."""
        await self._call("U8", path={"userId": user_id})

    async def get_profile(self, user_id: int) -> Profile:
        """U9: a user's profile."""
        return await self._call("U9", path={"userId": user_id})

    async def edit_profile(
        self,
        user_id: int,
        changes: ProfileEdit | Mapping[str, Any] | None = None,
        *,
        original: Profile | Mapping[str, Any] | None = None,
        edited: Profile | Mapping[str, Any] | None = None,
    ) -> Profile:
        """U10: change profile fields; a list sent replaces the stored list."""
        return await self._edit("U10", {"userId": user_id}, changes, original, edited)

    async def edit_destinations(self, destinations: Sequence[DestinationEntry | Mapping[str, Any]]) -> DestinationsResult:
        """U11: set many users' destinations (whereabouts) at once, up to 10,000 entries."""
        return await self._call("U11", body={"destinations": entries(destinations)})

    def iter_users(self, query: UserQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[User]:
        """Every user matching ``query`` (U1)."""
        return self.paginate("U1", query, **params)
