"""The input of a phone-number field: full width typed, the spec's characters shown.

A receptionist on a Japanese keyboard types '０３−６４４０−２９７９' or '（０３）'; the
service accepts only PHONE_CHARS. Each typed or pasted character is folded as it arrives, and
spaces, parentheses and dots that only lay a number out are left out
(:func:`corpdir.phone.phone_field_text`), so the field shows what the form will send and
validation sees the same text.
"""

from __future__ import annotations

from textual.widgets import Input

from corpdir.phone import phone_field_text


class PhoneInput(Input):
    def replace(self, text: str, start: int, end: int) -> None:
        super().replace(phone_field_text(text), start, end)
