"""The Directory's filter bar: U1's filters (user type, employee no., phone, e-mail,
login ID) above the list of people."""

from __future__ import annotations

from typing import Any

from textual.containers import Horizontal
from textual.widgets import Input, Select

from corpdir.spec.enums import UserType
from corpdir.tui.widgets import tcss_beside


class UserFilters(Horizontal):
    """The U1 filters. Built the first time they are shown (``toggle``): most visits never
    open them, and five more inputs with a select cost the first paint their styling."""

    DEFAULT_CSS = tcss_beside(__file__)

    def toggle(self) -> bool:
        """Show or hide the filters; True when they are now shown."""
        if not self.children:
            self.mount_all(self._fields())
        self.toggle_class("-shown")
        return self.has_class("-shown")

    @staticmethod
    def _fields() -> list[Input | Select]:
        return [
            Select([(t.value.replace("_", " ").title(), t.value) for t in UserType], prompt="Any type", id="filter-userType"),
            Input(placeholder="Employee no.", id="filter-employeeNum"),
            Input(placeholder="Phone", id="filter-phoneNum"),
            Input(placeholder="E-mail", id="filter-email1"),
            Input(placeholder="Login ID", id="filter-loginIds"),
        ]

    def values(self) -> tuple[tuple[str, Any], ...]:
        """The filters as U1 parameters (an empty field or "Any type" is no filter)."""
        out: list[tuple[str, Any]] = []
        if not self.children:
            return ()
        user_type = self.query_one("#filter-userType", Select)
        if not user_type.is_blank():  # note: Select.BLANK is False in Textual 8, not "nothing chosen"
            out.append(("userType", user_type.value))
        for field in ("employeeNum", "phoneNum", "email1", "loginIds"):
            value = self.query_one(f"#filter-{field}", Input).value.strip()
            if value:
                out.append((field, [value] if field == "loginIds" else value))
        return tuple(out)
