"""Contacts (X1-X8) and their folders (F1, P1-P3): read from the cache at once, refreshed
from the API into it, written through the API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from corpdir.client.errors import ApiError
from corpdir.service.backend import given
from corpdir.service.windows import CacheWindow

if TYPE_CHECKING:
    from corpdir.cache.store_base import Cached
    from corpdir.service.backend import Backend, Fields
    from corpdir.service.image_cache import Images
    from corpdir.spec.contact import BusinessCardForm, Contact, ContactCreate, ContactEdit
    from corpdir.spec.folder import Folder, PersonalFolder, PersonalFolderCreate, PersonalFolderEdit


class Contacts:
    """``service.contacts``: contacts, shared folders and the caller's personal folders."""

    def __init__(self, backend: Backend, images: Images) -> None:
        self._b = backend
        self._images = images

    # -- contacts ----------------------------------------------------------------------------
    async def contact(self, contact_id: int) -> Cached[Contact] | None:
        return await self._b.cache.run(self._b.store.contact, contact_id)

    async def count(self, directory: str | None = None, folder_num: int | None = None) -> int:
        return await self._b.cache.run(self._b.store.count_contacts, directory, folder_num)

    async def window(self, directory: str | None = None, folder_num: int | None = None, *, offset: int = 0,
                     limit: int = 100) -> list[Contact]:
        return await self._b.cache.run(self._b.store.list_contacts, directory, folder_num, offset=offset, limit=limit)

    async def by_id(self, ids: Sequence[int]) -> list[Contact]:
        """Cached contacts in the order of ``ids`` (ones no longer cached are left out)."""
        return await self._b.cache.run(self._b.store.contacts, list(ids))

    def of_folder(self, directory: str | None = None, folder_num: int | None = None) -> CacheWindow[Contact]:
        """The contacts of a folder (of a directory, or all), as windows read from the cache."""
        store = self._b.store
        return CacheWindow(lambda: self.count(directory, folder_num),
                           lambda offset, limit: self.window(directory, folder_num, offset=offset, limit=limit),
                           lambda row: self._b.cache.run(store.contacts_row_offset, row, directory, folder_num))

    async def list_remote(self, *, limit: int = 500, **filters: object) -> list[Contact]:
        """X1 with its filters (fullname, companyName, phoneNum, email, updatedFrom/To,
        directory, folderNums, ocr*, identified ...); the answer refreshes the cache."""
        return await self._b.ask(self._b.take("X1", given(filters), limit), self._b.store.put_contacts)

    async def create(self, fields: ContactCreate | Fields) -> Contact:
        return await self._b.ask(self._b.client.create_contact(fields), self._keep)

    async def edit(self, original: Contact, edited: Contact | Fields | None = None, *,
                   changes: ContactEdit | Fields | None = None) -> Contact:
        b = self._b
        return await b.ask(b.edit(b.client.edit_contact, original.contactId, original, edited, changes), self._keep)

    def _keep(self, contact: Contact) -> None:
        self._b.store.put_contacts([contact])

    async def delete(self, contact: Contact) -> None:
        await self._b.ask(self._b.client.delete_contact(contact.contactId),
                          lambda _: self._b.store.delete_contacts([contact.contactId]))
        self._images.forget("card", contact.contactId)

    async def create_from_card(self, jpeg: bytes, form: BusinessCardForm | Fields) -> int:
        """X5: the contact is made by the service (text recognition); returns its id."""
        created = await self._b.api(self._b.client.create_contact_from_card(jpeg, form))
        return created.contactId

    # -- folders -----------------------------------------------------------------------------
    async def folders(self) -> list[Folder]:
        return await self._b.cache.run(self._b.store.folders)

    async def personal_folders(self) -> list[PersonalFolder]:
        return await self._b.cache.run(self._b.store.personal_folders)

    async def refresh_folders(self) -> list[Folder]:
        b = self._b
        if b.offers("F1"):
            await b.ask(b.take("F1", {}), b.store.put_folders)
        if b.offers("P1"):
            await b.ask(b.take("P1", {}), b.store.put_personal_folders)
        return await self.folders()

    async def folder_names(self) -> dict[tuple[str, int], str]:
        """Each folder's name by (directory, folderNum), as the cache knows them."""
        names = {(f.folderId.directory, f.folderId.folderNum): f.folderName for f in await self.folders()
                 if f.folderId is not None and f.folderName}
        names.update({("PERSONAL", f.folderNum): f.folderName for f in await self.personal_folders() if f.folderName})
        return names

    async def create_personal_folder(self, fields: PersonalFolderCreate | Fields) -> PersonalFolder:
        return await self._folders_changed(await self._b.api(self._b.client.create_personal_folder(fields)))

    async def edit_personal_folder(self, original: PersonalFolder, edited: PersonalFolder | Fields | None = None, *,
                                   changes: PersonalFolderEdit | Fields | None = None) -> PersonalFolder:
        b = self._b
        return await self._folders_changed(
            await b.edit(b.client.edit_personal_folder, original.folderNum, original, edited, changes))

    async def _folders_changed(self, folder: PersonalFolder) -> PersonalFolder:
        """The folder into the cache, and F1 read again so the folder lists are current."""
        b = self._b
        await b.cache.run(b.store.put_personal_folders, [folder])
        if b.offers("F1"):
            try:
                await b.ask(b.take("F1", {}), b.store.put_folders)
            except ApiError:
                pass  # the folder itself was written: the list shows it at the next refresh
        return folder
