"""What a form's picker offers: divisions and folders by name and path, never by id.

A form spec says which fields are chosen from a picker (:class:`Picker`, no service
needed to say so); the screen that opens the form gives it :func:`load_choices`, which
reads the choices from the cache through the façade. A choice carries the request value
it stands for (a division id, a folder's ``{"directory", "folderNum"}``) and the words the
user reads and filters by.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import jaconv

from corpdir.division_path import division_path

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

DIRECTORIES = {"SHARED": "Shared", "PERSONAL": "Personal"}


@dataclass(frozen=True)
class Picker:
    """A field chosen from a list. ``what``: "division" or "folder"; ``multiple``: a list
    of them (the user's divisions); ``none``: the choice meaning "none" (a division's
    parent: the top level) and the value it sends; ``not_under``: a division whose
    subtree is left out (a division cannot move under itself); ``spread``: the request
    fields the chosen value's keys fill, for a request that takes a folder as two fields
    (X5's ``directory`` and ``folderNum``) rather than one ``folderId`` object."""

    what: str
    multiple: bool = False
    none: tuple[str, Any] | None = None
    not_under: int | None = None
    spread: tuple[str, ...] = ()


def fold(text: str) -> str:
    """Text as the filter compares it: full width folded (ＡＢ -> AB, ｴｲｷﾞｮｳ -> エイギョウ),
    hiragana as katakana (the readings are stored in katakana, typed in hiragana), case
    ignored."""
    return jaconv.hira2kata(unicodedata.normalize("NFKC", text)).casefold()


def _forms(word: str) -> tuple[str, ...]:
    """A typed word, and as kana when it is romaji (eigyou -> エイギョウ: the input method off)."""
    return (word, jaconv.alphabet2kata(word)) if word.isascii() and word.isalpha() else (word,)


@dataclass(frozen=True)
class Choice:
    """One thing to choose: its request ``value``, ``name`` and ``path`` (the name's place:
    '本社 › 技術本部 › 品質保証部 › 1課'), and any ``more`` words it is found by (kana)."""

    value: Any
    name: str
    path: str = ""
    more: str = ""
    words: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", fold(" ".join((self.name, self.path, self.more))))

    def matches(self, typed: str) -> bool:
        """Every word typed is in the name, path or readings ('品質 1課' finds 品質保証部's 1課)."""
        return all(any(form in self.words for form in _forms(word)) for word in fold(typed).split())


async def load_choices(service: DirectoryService, picker: Picker) -> list[Choice]:
    """The choices of ``picker`` from the cache: every division by path (top down), or
    the shared then the personal folders."""
    if picker.what == "division":
        hidden = set(await service.divisions.subtree(picker.not_under)) if picker.not_under is not None else set()
        choices = [Choice(d.divisionId, names[-1], division_path(names),
                          " ".join(filter(None, (d.divisionNameKana, d.divisionNameAlphabet, d.divisionCode))))
                   for d, names in await service.divisions.all() if d.divisionId not in hidden]
    else:
        choices = [Choice({"directory": f.folderId.directory, "folderNum": f.folderId.folderNum},
                          f.folderName or f"#{f.folderId.folderNum}",
                          division_path([DIRECTORIES.get(f.folderId.directory, f.folderId.directory), f.folderName or ""]))
                   for f in await service.contacts.folders() if f.folderId is not None]
        known = {(c.value["directory"], c.value["folderNum"]) for c in choices}
        choices += [Choice({"directory": "PERSONAL", "folderNum": f.folderNum}, f.folderName or f"#{f.folderNum}",
                           division_path([DIRECTORIES["PERSONAL"], f.folderName or ""]))
                    for f in await service.contacts.personal_folders() if ("PERSONAL", f.folderNum) not in known]
    if picker.none is not None:
        choices.insert(0, Choice(picker.none[1], picker.none[0]))
    return choices


def described(value: Any, choices: list[Choice]) -> Choice:
    """The choice standing for ``value``; one naming the value itself when none does (a
    division the cache does not hold)."""
    found = next((c for c in choices if c.value == value), None)
    if found is not None:
        return found
    if isinstance(value, dict):
        return Choice(value, f"{DIRECTORIES.get(value.get('directory'), value.get('directory'))} #{value.get('folderNum')}")
    return Choice(value, f"#{value}", "not in the cache")
