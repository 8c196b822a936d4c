"""Cisco IP Phone services: ``CiscoIPPhoneDirectory`` pages and a ``CiscoIPPhoneInput`` search.

A Cisco directory object holds at most 32 ``DirectoryEntry`` items, each one name and
one number: a person with three numbers is three rows, each name labelled with the
number's kind. Pages move with Next/Prev soft keys (URLs back to the gateway); Dial and
Exit are the phone's own (``SoftKey:Dial``, ``SoftKey:Exit``).
"""

from __future__ import annotations

from typing import Callable

from corpdir.gateway.pages import Page
from corpdir.gateway.xml import PROLOG, element, rows

MAX_ENTRIES = 32


def _softkey(name: str, url: str, position: int) -> str:
    return f"<SoftKeyItem>{element('Name', name)}{element('URL', url)}{element('Position', position)}</SoftKeyItem>"


def directory(page: Page, title: str, ascii: bool, url_for: Callable[[int | None], str]) -> str:
    """``url_for(start)`` is the URL of the page starting at entry ``start`` (None: the search input)."""
    lines = rows(page.entries, ascii)[:MAX_ENTRIES]
    shown = f"{page.start + 1}-{page.start + len(page.entries)} / {page.total}" if page.entries else "0 / 0"
    parts = [PROLOG, "<CiscoIPPhoneDirectory>", element("Title", title), element("Prompt", shown)]
    parts += [f"<DirectoryEntry>{element('Name', f'{name} {label}')}{element('Telephone', number)}</DirectoryEntry>"
              for name, label, number in lines]
    parts.append(_softkey("Dial", "SoftKey:Dial", 1))
    if page.prev_start is not None:
        parts.append(_softkey("Prev", url_for(page.prev_start), 2))
    if page.next_start is not None:
        parts.append(_softkey("Next", url_for(page.next_start), 3))
    parts.append(_softkey("Search", url_for(None), 4))
    parts.append(_softkey("Exit", "SoftKey:Exit", 5))
    parts.append("</CiscoIPPhoneDirectory>\n")
    return "\n".join(parts)


def search_input(title: str, action_url: str) -> str:
    """The phone asks for a name, reading or number and calls ``action_url?q=...``."""
    return "\n".join([
        PROLOG + "<CiscoIPPhoneInput>", element("Title", title), element("Prompt", "Name, reading or number"),
        element("URL", action_url),
        "<InputItem>" + element("DisplayName", "Search") + element("QueryStringParam", "q")
        + element("DefaultValue", "") + element("InputFlags", "A") + "</InputItem>",
        "</CiscoIPPhoneInput>\n"])
