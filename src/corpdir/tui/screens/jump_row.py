"""Jump to a row of the phone book: the kana rows あ か さ た な は ま や ら わ on the digit
keys 1-0 (or typed as kana), and a letter for names in Latin letters, in a list ordered
by reading. Dismisses with the row ('か', 'K') or None."""

from __future__ import annotations

import jaconv
from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

KANA_ROWS = "あかさたなはまやらわ"
DIGITS = "1234567890"
ROW_STARTS = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"


def row_for(character: str) -> str | None:
    """The row a key names: a digit, a kana (any of its row: き is the か row) or a letter."""
    if character in DIGITS:
        return KANA_ROWS[DIGITS.index(character)]
    hira = jaconv.kata2hira(jaconv.z2h(character, kana=False, digit=True, ascii=True))
    if hira in ROW_STARTS:
        index = ROW_STARTS.index(hira)
        return KANA_ROWS[min(index // 5, len(KANA_ROWS) - 1)] if index < 35 else \
            KANA_ROWS[7] if hira in "やゆよ" else KANA_ROWS[8] if hira in "らりるれろ" else KANA_ROWS[9]
    if character.isascii() and character.isalpha():
        return character.upper()
    return None


class JumpToRow(ModalScreen[str | None]):
    """One key: where to jump in a list ordered by name."""

    CSS_PATH = "jump_row.tcss"

    def compose(self) -> ComposeResult:
        kana = "  ".join(f"{d} {k}" for d, k in zip(DIGITS, KANA_ROWS))
        yield Static(f"Jump to the names read\n{kana}\nor a letter A-Z (names in Latin letters)   esc: stay")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == "escape":
            self.dismiss(None)
            return
        row = row_for(event.character or "")
        if row is not None:
            self.dismiss(row)
