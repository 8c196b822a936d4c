"""External contacts (X1-X8): people outside the company, and their business cards."""

from __future__ import annotations

from typing import Any, AsyncIterator, Mapping

from corpdir.client._args import merge
from corpdir.client._base import BaseClient
from corpdir.spec import Page
from corpdir.spec.contact import BusinessCardCreated, BusinessCardForm, Contact, ContactCreate, ContactEdit, ContactQuery


class ContactsResource(BaseClient):
    """X1-X8: external contacts and their business-card images."""

    async def list_contacts(self, query: ContactQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[Contact]:
        """X1: one page of external contacts (pages 0..19 only; see iter_contacts)."""
        return await self._call("X1", query=merge(query, params))

    async def create_contact(self, contact: ContactCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> Contact:
        """X2: create a contact (folderId and fullname required)."""
        return await self._call("X2", body=merge(contact, fields))

    async def edit_contact(
        self,
        contact_id: int,
        changes: ContactEdit | Mapping[str, Any] | None = None,
        *,
        original: Contact | Mapping[str, Any] | None = None,
        edited: Contact | Mapping[str, Any] | None = None,
    ) -> Contact:
        """X3: change contact fields (the folder cannot be changed)."""
        return await self._edit("X3", {"contactId": contact_id}, changes, original, edited)

    async def delete_contact(self, contact_id: int) -> None:
        """X4: delete a contact (its card image too)."""
        await self._call("X4", path={"contactId": contact_id})

    async def create_contact_from_card(
        self, image: bytes, form: BusinessCardForm | Mapping[str, Any] | None = None, /, **fields: Any
    ) -> BusinessCardCreated:
        """X5: create a contact from a business-card image (form: directory, folderNum, ...)."""
        return await self._call("X5", query=merge(form, fields), upload=image)

    async def get_card_image(self, contact_id: int) -> bytes:
        """X6: the stored business-card image as JPEG bytes."""
        return await self._call("X6", path={"contactId": contact_id})

    async def put_card_image(self, contact_id: int, image: bytes) -> None:
        """X7: replace the business-card image with a JPEG image."""
        await self._call("X7", path={"contactId": contact_id}, upload=image)

    async def delete_card_image(self, contact_id: int) -> None:
        """X8: delete the business-card image."""
        await self._call("X8", path={"contactId": contact_id})

    def iter_contacts(self, query: ContactQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[Contact]:
        """Every contact matching ``query`` (X1), however many: split by update time."""
        return self.paginate("X1", query, **params)
