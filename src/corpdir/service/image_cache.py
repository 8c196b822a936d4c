"""Face photos (U6-U8) and business-card images (X6-X8): read from the API once and kept
in a small memory cache (a list scrolled back and forth shows the same faces again), which
a replacement or a delete empties for that record."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Awaitable, Callable, Literal

from corpdir.client.errors import NotFound

if TYPE_CHECKING:
    from corpdir.service.backend import Backend
    from corpdir.spec.enums import PhotoSize

PHOTO_CACHE_SIZE = 64
ImageKind = Literal["photo", "card"]


class Images:
    """``service.images``: photos and card images, kept in memory."""

    def __init__(self, backend: Backend) -> None:
        self._b = backend
        self._kept: OrderedDict[tuple[ImageKind, int, str], bytes | None] = OrderedDict()

    async def photo(self, user_id: int, size: PhotoSize | str = "THUMBNAIL") -> bytes | None:
        """The face photo (None when the user has none)."""
        return await self._image(("photo", user_id, str(size)), lambda: self._b.client.get_photo(user_id, size), "U6")

    async def card(self, contact_id: int) -> bytes | None:
        """The business card's image (None when the contact has none)."""
        return await self._image(("card", contact_id, "FULL"), lambda: self._b.client.get_card_image(contact_id), "X6")

    async def _image(self, key: tuple[ImageKind, int, str], fetch: Callable[[], Awaitable[bytes]],
                     code: str) -> bytes | None:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        if not self._b.offers(code):
            return None
        try:
            data: bytes | None = await self._b.api(fetch())
        except NotFound:
            data = None
        self._kept[key] = data
        while len(self._kept) > PHOTO_CACHE_SIZE:
            self._kept.popitem(last=False)
        return data

    def forget(self, kind: ImageKind, rid: int) -> None:
        for key in [k for k in self._kept if k[0] == kind and k[1] == rid]:
            del self._kept[key]

    async def replace_photo(self, user_id: int, jpeg: bytes) -> None:
        await self._changed(self._b.client.put_photo(user_id, jpeg), "photo", user_id)

    async def delete_photo(self, user_id: int) -> None:
        await self._changed(self._b.client.delete_photo(user_id), "photo", user_id)

    async def replace_card(self, contact_id: int, jpeg: bytes) -> None:
        await self._changed(self._b.client.put_card_image(contact_id, jpeg), "card", contact_id)

    async def delete_card(self, contact_id: int) -> None:
        await self._changed(self._b.client.delete_card_image(contact_id), "card", contact_id)

    async def _changed(self, write: Awaitable[None], kind: ImageKind, rid: int) -> None:
        """``write`` sent; the record's kept images forgotten, so the next read asks again."""
        await self._b.api(write)
        self.forget(kind, rid)
