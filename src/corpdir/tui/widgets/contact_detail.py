"""The detail pane of an external contact: name, company line, every field the record
carries, and the business card (X6) drawn in half-block pixels.

The screen sets ``contact`` (from the cache, at once); the card is fetched and decoded in a
worker, so moving through the list never waits for an image.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from corpdir.service.errors import CorpdirError
from corpdir.spec.contact import Contact
from corpdir.tui.labels import CONTACT_FIELDS, shown_fields
from corpdir.tui.text import joined, literal
from corpdir.tui.widgets import tcss_beside
from corpdir.tui.widgets.photo import PhotoView
from corpdir.tui.widgets.record_fields import fields_table

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

CARD_CELLS = (40, 12)


class ContactDetail(VerticalScroll, can_focus=True):
    DEFAULT_CSS = tcss_beside(__file__)
    contact: reactive[Contact | None] = reactive(None, always_update=True)

    def __init__(self, service: DirectoryService, contact: Contact | None = None, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.service = service
        self._initial = contact

    def on_mount(self) -> None:
        self._folder_names: dict[tuple[str, int], str] = {}
        self.contact = self._initial
        self.load_folder_names()

    @work(group="contact-folders", exit_on_error=False)
    async def load_folder_names(self) -> None:
        """The folders' names (取引先, not SHARED #1), from the cache; the pane shows them
        once read."""
        self._folder_names = await self.service.contacts.folder_names()
        if self.contact is not None:
            self._show_fields(self.contact)

    def _show_fields(self, contact: Contact) -> None:
        folder = contact.folderId
        shown = {"folderId": folder_text(folder.directory, folder.folderNum, self._folder_names)} if folder else {}
        labels = shown_fields(CONTACT_FIELDS, contact, self.service)
        self.query_one("#contact-fields", Static).update(fields_table(contact, labels, shown, region=self.service.settings.region))

    def compose(self) -> ComposeResult:
        yield Static(id="contact-name")
        yield Static(id="contact-subtitle")
        yield Static(id="contact-fields")  # names and numbers first: at 80x24 the card comes after
        yield PhotoView(cells=CARD_CELLS, id="contact-card")

    def watch_contact(self, contact: Contact | None) -> None:
        name = self.query_one("#contact-name", Static)
        if contact is None:
            name.update(Text("Select a contact", style="dim"))
            for part in ("#contact-subtitle", "#contact-fields", "#contact-card"):
                self.query_one(part, Static).update("")
            return
        name.update(literal(contact.fullname or "(no name)", "bold"))
        self.query_one("#contact-subtitle", Static).update(
            literal(joined([contact.companyName, contact.divisionName, contact.position], " · "), "dim"))
        self._show_fields(contact)
        self.query_one("#contact-card", PhotoView).update(Text("card: loading…", style="dim"))
        if contact.contactId is not None:
            self.load_card(contact.contactId)

    @work(group="contact-card", exclusive=True, exit_on_error=False)
    async def load_card(self, contact_id: int) -> None:
        card = self.query_one("#contact-card", PhotoView)
        if not self.service.offers("X6"):
            await card.show(None, "business cards are not offered by this service")
            return
        try:
            image = await self.service.images.card(contact_id)
        except CorpdirError as exc:
            await card.show(None, literal(f"card unavailable: {exc}"))  # type: ignore[arg-type]
            return
        if self.contact is not None and self.contact.contactId == contact_id:
            await card.show(image, "no card")


def folder_text(directory: str, number: int, names: dict[tuple[str, int], str]) -> str:
    """A contact's folder as the desk says it: its name and whether everyone sees it or
    only the key's user ('取引先 (shared)', '私の連絡先 (personal)'); by number while the
    cache has no name for it."""
    kind = {"SHARED": "shared", "PERSONAL": "personal"}.get(directory, directory.lower())
    name = names.get((directory, number))
    return f"{name} ({kind})" if name else f"{kind} folder {number}"

