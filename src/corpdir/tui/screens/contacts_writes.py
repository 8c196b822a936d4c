"""The Contacts screen's writes: new, edit and delete contacts, their business-card
images, a contact made from a card image, and personal folders; then the list, pane and
folder tree follow. The screen (:class:`corpdir.tui.screens.contacts.ContactsScreen`)
adds what it shows."""

from __future__ import annotations

from typing import Any

from textual import work

from corpdir.spec.contact import Contact
from corpdir.tui.screens.list_screen import SearchListScreen
from corpdir.tui.widgets.contact_detail import ContactDetail
from corpdir.tui.widgets.folder_tree import FolderScope, FolderTree
from corpdir.tui.widgets.virtual_list import VirtualList


class ContactsWrites(SearchListScreen):
    """The write actions of the Contacts screen (none offered on a read-only terminal)."""

    WRITES = frozenset({"new_contact", "edit", "delete", "from_card", "card_replace", "card_delete", "new_folder",
                        "edit_folder"})
    selected: Contact | None

    def _folder(self) -> tuple[str, int] | None:
        scope = self.browse.scope
        return (scope.directory, scope.folder_num) if scope.directory and scope.folder_num is not None else None

    def _after_write(self, contact: Contact | None = None) -> None:
        if contact is not None:
            self.selected = contact
            self.query_one(ContactDetail).contact = contact
        self.query_one("#contacts", VirtualList).reload()
        self.query_one(FolderTree).load()

    def action_new_contact(self) -> None:
        from corpdir.tui.forms.specs import contact_form
        from corpdir.tui.forms.writes import open_form

        open_form(self, contact_form(None, self._folder()), None, self.service.contacts.create,
                  lambda c: (self.notify(f"Created {c.fullname}", timeout=3), self._after_write(c)))

    def action_edit(self) -> None:
        contact = self.selected
        if contact is None:
            self.notify("Choose a contact first", severity="warning", timeout=2)
            return
        from corpdir.tui.forms.specs import contact_form
        from corpdir.tui.forms.writes import open_form

        open_form(self, contact_form(contact), contact, lambda changes: self.service.contacts.edit(contact, changes=changes),
                  lambda c: (self.notify(f"Saved {c.fullname}", timeout=3), self._after_write(c)))

    def action_delete(self) -> None:
        contact = self.selected
        if contact is None:
            return
        from corpdir.tui.forms.writes import confirm

        company = f" ({contact.companyName})" if contact.companyName else ""
        confirm(self, f"Delete {contact.fullname}{company}? The business card image is deleted too. This cannot be undone.",
                lambda: self.delete_contact(contact))

    @work(group="contacts-write", exclusive=True, exit_on_error=False)
    async def delete_contact(self, contact: Contact) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, self.service.contacts.delete(contact), f"Deleted {contact.fullname}"):
            self.forget_row(contact.contactId)
            self.query_one(ContactDetail).contact = None
            self.query_one(FolderTree).load()  # the folder's count follows

    def action_from_card(self) -> None:
        from corpdir.tui.forms.specs import business_card_form
        from corpdir.tui.forms.writes import open_form

        async def save(body: dict, extras: dict) -> int:
            import asyncio

            from corpdir.service.errors import Invalid
            from corpdir.service.images import NotAnImage, read_jpeg
            from corpdir.spec import ErrorDetail

            try:
                jpeg = await asyncio.to_thread(read_jpeg, extras["file"].strip())
            except NotAnImage as exc:
                raise Invalid("the card image was not sent", details=[ErrorDetail(field="file", code="PATTERN",
                              description=str(exc))], local=True, operation="X5") from None
            return await self.service.contacts.create_from_card(jpeg, body)

        open_form(self, business_card_form(self._folder()), None, save,
                  lambda cid: (self.notify(f"Card sent: contact #{cid} created", timeout=4), self.action_refresh()))

    def action_card_replace(self) -> None:
        contact = self.selected
        if contact is None:
            return
        from corpdir.tui.forms.writes import pick_image

        pick_image(self, f"Replace the business card of {contact.fullname} with this one?", lambda jpeg: self.write_card(
            contact, lambda: self.service.images.replace_card(contact.contactId, jpeg), "Card image replaced"))

    def action_card_delete(self) -> None:
        contact = self.selected
        if contact is None:
            return
        from corpdir.tui.forms.writes import confirm

        confirm(self, f"Delete the business card image of {contact.fullname}?", lambda: self.write_card(
            contact, lambda: self.service.images.delete_card(contact.contactId), "Card image deleted"))

    @work(group="contacts-write", exclusive=True, exit_on_error=False)
    async def write_card(self, contact: Contact, call: Any, success: str) -> None:
        """X7/X8, then the pane shows the card as it is now (if it still shows that contact)."""
        from corpdir.tui.forms.writes import run_write

        if await run_write(self, call(), success):
            detail = self.query_one(ContactDetail)
            if detail.contact is not None and detail.contact.contactId == contact.contactId:
                detail.contact = detail.contact

    def action_new_folder(self) -> None:
        from corpdir.tui.forms.specs import personal_folder_form
        from corpdir.tui.forms.writes import open_form

        open_form(self, personal_folder_form(None), None, self.service.contacts.create_personal_folder,
                  lambda f: (self.notify(f"Created folder {f.folderName}", timeout=3), self._after_write()))

    def action_edit_folder(self) -> None:
        self.open_folder_form(self.browse.scope)

    @work(group="contacts-write", exclusive=True, exit_on_error=False)
    async def open_folder_form(self, scope: FolderScope) -> None:
        from corpdir.tui.forms.specs import personal_folder_form
        from corpdir.tui.forms.writes import open_form

        folder = next((f for f in await self.service.contacts.personal_folders() if f.folderNum == scope.folder_num), None) \
            if scope.directory == "PERSONAL" else None
        if folder is None:
            self.notify("Choose one of your personal folders first", severity="warning", timeout=3)
            return
        open_form(self, personal_folder_form(folder), folder,
                  lambda changes: self.service.contacts.edit_personal_folder(folder, changes=changes),
                  lambda f: (self.notify(f"Saved folder {f.folderName}", timeout=3), self._after_write()))
