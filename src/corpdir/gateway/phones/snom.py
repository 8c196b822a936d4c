"""Snom ``SnomIPPhoneDirectory``: one ``DirectoryEntry`` (name, number) per number, the
name labelled with the number's kind; pages with Prev/Next function keys, search by ``?q=``.

Numbers are sent as digits (a leading ``+`` kept): Snom's minibrowser documentation says
a ``Telephone`` whose user part holds any other sign ('070-8912-0175') is dialled without
the account's domain, so the call fails. ``SoftKeyItem`` children are ``Name``, ``Label``
and ``Url``, as Snom documents them (Cisco's ``URL`` is not read)."""

from __future__ import annotations

from typing import Callable

from corpdir.gateway.names import NONE, Distinct
from corpdir.gateway.pages import Page
from corpdir.gateway.xml import PROLOG, element, rows
from corpdir.phone import digits, fold_number
from corpdir.service.phonebook import Entry

PAGE_ROWS = 50


def dialled(number: str) -> str:
    """'070-8912-0175' -> '07089120175'; '+81 3-1234-5678' -> '+81312345678'."""
    return ("+" if fold_number(number).lstrip().startswith("+") else "") + digits(number)


def _softkey(key: str, label: str, url: str) -> str:
    return f"<SoftKeyItem>{element('Name', key)}{element('Label', label)}{element('Url', url)}</SoftKeyItem>"


def cost(entry: Entry) -> tuple[int, int]:
    """Rows an entry takes on a page (Snom pages count rows, not bytes)."""
    return len(entry.dialable_numbers()), 0


def directory(page: Page, title: str, ascii: bool, url_for: Callable[[int | None], str], names: Distinct = NONE) -> str:
    shown = f"{page.start + 1}-{page.start + len(page.entries)} / {page.total}" if page.entries else "0 / 0"
    parts = [PROLOG + "<SnomIPPhoneDirectory>", element("Title", title), element("Prompt", shown)]
    parts += [f"<DirectoryEntry>{element('Name', f'{name} {label}')}{element('Telephone', dialled(number))}</DirectoryEntry>"
              for name, label, number in rows(page.entries, ascii, names)]
    if page.prev_start is not None:
        parts.append(_softkey("F1", "Prev", url_for(page.prev_start)))
    if page.next_start is not None:
        parts.append(_softkey("F2", "Next", url_for(page.next_start)))
    parts.append("</SnomIPPhoneDirectory>\n")
    return "\n".join(parts)
