"""The full-width space (U+3000, 全角スペース) typed into a text field.

A Japanese input method in kana mode types it for the space bar, and commits it inside a
word ("山田　太郎"). Textual's fields take only what Python calls printable, which U+3000
is not: it was dropped, so a name lost its space and two numbers in the Lookup box ran
together into one. The screens with text fields take it with a priority binding (a
handler on the screen would see it only after the characters committed after it had
reached the field), which hands it to the field behind the keys typed before it.
"""

from __future__ import annotations

from textual.actions import SkipAction
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, TextArea

WIDE_SPACE = "\u3000"


class WideSpaceTyping(Screen):
    """A screen with text fields: U+3000 goes into the focused one as typed. (A Screen, as
    Textual gathers the bindings of its node classes only.)"""

    BINDINGS = [Binding("ideographic_space", "type_wide_space", "Full-width space", show=False, priority=True,
                        system=True)]

    def action_type_wide_space(self) -> None:
        """Typed by the field in turn: the keys before it are still in the field's queue
        (a priority binding runs at once), so the field inserts it after them."""
        field = self.focused
        if isinstance(field, Input) or (isinstance(field, TextArea) and not field.read_only):
            field.call_later(_insert, field)
        else:
            raise SkipAction()  # not a text field: the key is anyone else's


def _insert(field: Input | TextArea) -> None:
    if isinstance(field, Input):
        field.replace(WIDE_SPACE, *sorted(field.selection))
    else:
        field.replace(WIDE_SPACE, *field.selection)
