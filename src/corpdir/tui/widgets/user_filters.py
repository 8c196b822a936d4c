"""The Directory's filter bar: U1's filters (user type, employee no., phone, e-mail, and
login ID for a key with user management) above the list of people."""

from __future__ import annotations

from typing import Any

from textual.containers import Grid
from textual.widgets import Input, Select

from corpdir.spec.enums import UserType
from corpdir.tui.labels import value_label
from corpdir.tui.widgets import tcss_beside


class UserFilters(Grid):
    """The U1 filters, two to a row (readable in the list's width at 80 columns). Built the first time they are shown (``toggle``): most visits never
    open them, and five more inputs with a select cost the first paint their styling."""

    DEFAULT_CSS = tcss_beside(__file__)

    def toggle(self, *, login_ids: bool = False) -> bool:
        """Show or hide the filters; True when they are now shown. ``login_ids``: the key
        may filter by login ID (user management); without it the service refuses that
        filter (403), so the field is not offered."""
        if not self.children:
            self.mount_all(self._fields())
        self.offer_login_ids(login_ids)
        self.toggle_class("-shown")
        return self.has_class("-shown")

    def offer_login_ids(self, offer: bool) -> None:
        """Add or take away the login ID field (taken away, its value goes with it); the
        fields are built when first shown."""
        if not self.children:
            return
        shown = self.query("#filter-loginIds")
        if offer and not shown:
            self.mount(Input(placeholder="Login ID", id="filter-loginIds", compact=True))
        elif not offer and shown:
            shown.remove()

    LABELS = {"userType": "type", "employeeNum": "employee no.", "phoneNum": "phone", "email1": "e-mail",
              "loginIds": "login ID"}

    @staticmethod
    def _fields() -> list[Input | Select]:
        return [
            Select([(value_label("userType", t.value), t.value) for t in UserType], prompt="Any type", id="filter-userType",
                   compact=True),
            Input(placeholder="Employee no.", id="filter-employeeNum", compact=True),
            Input(placeholder="Phone", id="filter-phoneNum", compact=True),
            Input(placeholder="E-mail", id="filter-email1", compact=True),
        ]

    def clear(self) -> None:
        """Every filter back to "any"."""
        for select in self.query(Select):
            select.clear()
        for field in self.query(Input):
            field.value = ""

    def summary(self) -> str:
        """The filters in force, in words: 'type Regular User, phone 03'."""
        parts = []
        for name, value in self.values():
            if name == "userType":
                value = value_label("userType", value)
            elif isinstance(value, list):
                value = ", ".join(value)
            parts.append(f"{self.LABELS[name]} {value}")
        return ", ".join(parts)

    def values(self) -> tuple[tuple[str, Any], ...]:
        """The filters as U1 parameters (an empty field or "Any type" is no filter)."""
        out: list[tuple[str, Any]] = []
        if not self.children:
            return ()
        user_type = self.query_one("#filter-userType", Select)
        if not user_type.is_blank():  # note: Select.BLANK is False in Textual 8, not "nothing chosen"
            out.append(("userType", user_type.value))
        for field in ("employeeNum", "phoneNum", "email1", "loginIds"):
            value = next((i.value.strip() for i in self.query(f"#filter-{field}").results(Input)), "")
            if value:
                out.append((field, [value] if field == "loginIds" else value))
        return tuple(out)
