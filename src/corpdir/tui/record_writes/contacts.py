"""An external contact's writes: new, edit and delete, its business-card image (replace,
delete), and a new contact made from a card image (X5: the service reads the card)."""

from __future__ import annotations

from typing import Awaitable, Callable

from textual.screen import Screen

from corpdir.spec.contact import Contact
from corpdir.tui.context import AppContext
from corpdir.tui.record_writes import RecordWrites

Folder = tuple[str, int]  # (directory, folder number): where a new contact goes


class ContactWrites(RecordWrites):
    """``saved(contact)``: a contact was created or saved; ``deleted(contact)``: it is gone;
    ``card_changed(contact)``: its card image was replaced or deleted; ``card_sent()``: a
    card image became a new contact (known by its id only until the list is read again)."""

    def __init__(self, host: Screen, context: AppContext, *, saved: Callable[[Contact], None],
                 deleted: Callable[[Contact], None], card_changed: Callable[[Contact], None],
                 card_sent: Callable[[], None]) -> None:
        super().__init__(host, context, "contacts-write")
        self.saved, self.deleted, self.card_changed, self.card_sent = saved, deleted, card_changed, card_sent

    def _done(self, what: str) -> Callable[[Contact], None]:
        return lambda contact: (self.notify(f"{what} {contact.fullname}"), self.saved(contact))

    def new(self, folder: Folder | None) -> None:
        from corpdir.tui.forms.specs import contact_form
        from corpdir.tui.forms.writes import open_form

        open_form(self.host, contact_form(None, folder), None, self.service.contacts.create, self._done("Created"))

    def edit(self, contact: Contact) -> None:
        from corpdir.tui.forms.specs import contact_form
        from corpdir.tui.forms.writes import open_form

        open_form(self.host, contact_form(contact), contact,
                  lambda changes: self.service.contacts.edit(contact, changes=changes), self._done("Saved"))

    def delete(self, contact: Contact) -> None:
        """Asked first; the card image goes with the contact."""
        from corpdir.tui.forms.writes import confirm

        company = f" ({contact.companyName})" if contact.companyName else ""
        confirm(self.host, f"Delete {contact.fullname}{company}? The business card image is deleted too. "
                "This cannot be undone.", lambda: self.run(self._delete(contact)))

    async def _delete(self, contact: Contact) -> None:
        from corpdir.tui.forms.writes import run_write

        if await run_write(self.host, self.service.contacts.delete(contact), f"Deleted {contact.fullname}"):
            self.deleted(contact)

    def from_card(self, folder: Folder | None) -> None:
        """The business-card form: a card image file and the folder; X5 makes the contact."""
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

        open_form(self.host, business_card_form(folder), None, save,
                  lambda cid: (self.notify(f"Card sent: contact #{cid} created", timeout=4), self.card_sent()))

    def replace_card(self, contact: Contact) -> None:
        from corpdir.tui.forms.writes import pick_image

        pick_image(self.host, f"Replace the business card of {contact.fullname} with this one?", lambda jpeg: self.run(
            self._card(contact, lambda: self.service.images.replace_card(contact.contactId, jpeg), "Card image replaced")))

    def delete_card(self, contact: Contact) -> None:
        from corpdir.tui.forms.writes import confirm

        confirm(self.host, f"Delete the business card image of {contact.fullname}?", lambda: self.run(
            self._card(contact, lambda: self.service.images.delete_card(contact.contactId), "Card image deleted")))

    async def _card(self, contact: Contact, write: Callable[[], Awaitable[object]], success: str) -> None:
        """X7/X8, then the pane shows the card as it is now."""
        from corpdir.tui.forms.writes import run_write

        if await run_write(self.host, write(), success):
            self.card_changed(contact)
