"""Before a form sends an e-mail address that does not look like one, the user is asked
("this does not look like an e-mail address"), and may save it anyway: the spec allows
it, and a directory holds odd addresses on purpose (internal hosts without a dot)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from corpdir.service.email_check import email_doubts
from corpdir.tui.forms.confirm import ConfirmScreen


def ask_about_addresses(form: Any, body: Mapping[str, Any], send: Callable[[Any], None]) -> bool:
    """True when the form must wait for the user's answer (``send(body)`` on "save anyway");
    False when every address sent looks right and the form may send at once. Only what is
    sent is checked: an address already stored and not touched is not asked about again."""
    doubts = email_doubts(body)
    if not doubts:
        return False
    lines = [f"{form.label_of(field)} “{body[field]}” does not look like an e-mail address: {why}"
             for field, why in doubts.items()]

    def answered(anyway: bool | None) -> None:
        if anyway:
            send(body)
        else:
            form.widget(next(iter(doubts))).focus()

    form.app.push_screen(ConfirmScreen("\n".join([*lines, "Save it anyway?"]), yes="Save anyway", no="Correct it"),
                         answered)
    return True
