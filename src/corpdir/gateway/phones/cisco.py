"""Cisco IP Phone services: ``CiscoIPPhoneDirectory`` pages and a ``CiscoIPPhoneInput`` search.

A Cisco directory object holds at most 32 ``DirectoryEntry`` items, each one name and
one number: a person with three numbers is three rows, each name labelled with the
number's kind. Older models also refuse an XML object over 4,000 bytes (Cisco's IP Phone
Services Application Development Notes), so a page holds what fits both limits: the byte
budget is 4,000 by default (``cisco_page_bytes``; ``?bytes=`` on the URL for one model).
Pages and search results move with Next/Prev soft keys (URLs back to the gateway); Dial
and Exit are the phone's own (``SoftKey:Dial``, ``SoftKey:Exit``).

The search input asks for what the phone can type: Cisco documents the input flags A
(ASCII), T, N, E, U, L and P, none of which types kana or kanji, so the prompt asks for a
name in romaji ('Aoki', found through the directory's alphabet names and the romanised
readings) or a number, never for a reading the keypad cannot write.
"""

from __future__ import annotations

from typing import Callable

from corpdir.gateway.names import NONE, Distinct
from corpdir.gateway.pages import Cost, Page
from corpdir.gateway.xml import PROLOG, display_name, element
from corpdir.service.phonebook import Entry

MAX_ENTRIES = 32
PAGE_BYTES = 4000
MIN_PAGE_BYTES, MAX_PAGE_BYTES = 1500, 512_000


def _softkey(name: str, url: str, position: int) -> str:
    return f"<SoftKeyItem>{element('Name', name)}{element('URL', url)}{element('Position', position)}</SoftKeyItem>"


def entry_rows(entry: Entry, ascii: bool, names: Distinct = NONE) -> str:
    name = display_name(entry, ascii, names)
    return "".join(f"\n<DirectoryEntry>{element('Name', f'{name} {label}')}{element('Telephone', number)}</DirectoryEntry>"
                   for label, number in entry.dialable_numbers())


def cost(ascii: bool, names: Distinct) -> Cost:
    """Rows and bytes (UTF-8, never fewer than the page is sent in) an entry takes on a page."""
    return lambda entry: (len(entry.dialable_numbers()), len(entry_rows(entry, ascii, names).encode()))


def directory(page: Page, title: str, ascii: bool, url_for: Callable[[int | None], str], names: Distinct = NONE) -> str:
    """``url_for(start)`` is the URL of the page starting at entry ``start`` (None: the search input)."""
    shown = f"{page.start + 1}-{page.start + len(page.entries)} / {page.total}" if page.entries else "0 / 0"
    parts = [PROLOG + "<CiscoIPPhoneDirectory>", element("Title", title), element("Prompt", shown)]
    parts.append("".join(entry_rows(e, ascii, names) for e in page.entries).lstrip("\n"))
    parts.append(_softkey("Dial", "SoftKey:Dial", 1))
    if page.prev_start is not None:
        parts.append(_softkey("Prev", url_for(page.prev_start), 2))
    if page.next_start is not None:
        parts.append(_softkey("Next", url_for(page.next_start), 3))
    parts.append(_softkey("Search", url_for(None), 4))
    parts.append(_softkey("Exit", "SoftKey:Exit", 5))
    parts.append("</CiscoIPPhoneDirectory>\n")
    return "\n".join(p for p in parts if p)


def overhead(title: str, url_for: Callable[[int | None], str], total: int) -> int:
    """Bytes of a page besides its entries, with the longest soft-key URLs it can have."""
    widest = Page([], total, total, total, total)
    prompt = len(f"{total}-{total} / {total}") - len("0 / 0")  # the prompt of a page that has entries
    return len(directory(widest, title, False, url_for).encode()) + prompt + 1


def search_input(title: str, action_url: str) -> str:
    """The phone asks for a name, reading or number and calls ``action_url?q=...``."""
    return "\n".join([
        PROLOG + "<CiscoIPPhoneInput>", element("Title", title), element("Prompt", "Name in romaji, or number"),
        element("URL", action_url),
        "<InputItem>" + element("DisplayName", "Search") + element("QueryStringParam", "q")
        + element("DefaultValue", "") + element("InputFlags", "A") + "</InputItem>",
        "</CiscoIPPhoneInput>\n"])
