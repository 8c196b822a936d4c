"""The gateway keeps its cache fresh by itself: a change on the service reaches caller-ID
and the desk-phone directories after the next background sync, answered from the cache."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

from corpdir.phone import digits
from corpdir.service.backend import backend_of


def _until(check, tries: int = 2000):
    """Poll until ``check()`` is truthy (the next background sync), and return it."""
    for _ in range(tries):
        if found := check():
            return found
        time.sleep(0.01)
    raise AssertionError("the background sync never brought the change")


def test_changes_on_the_service_reach_callers_and_phones_after_the_next_sync(make_gateway):
    gateway = make_gateway(sync_every=0.05)
    users = gateway.call(gateway.service.people.window(None, limit=100))
    renamed, gone = [u for u in users if u.phoneNum][:2]
    gateway.call(backend_of(gateway.admin).client.edit_user(renamed.userId, {"fullname": "改名 三郎"}))
    gateway.call(backend_of(gateway.admin).client.delete_user(gone.userId))

    def renamed_answer():
        answer = gateway.get(f"{gateway.base}/cid?number={digits(renamed.phoneNum)}")
        return answer if answer.text == "改名 三郎" else None

    answer = _until(renamed_answer)
    assert answer.headers["x-corpdir-answer"] == "cache"  # the sync brought it, not an N1
    gone_answer = _until(lambda: (a := gateway.get(f"{gateway.base}/cid?number={digits(gone.phoneNum)}")).status_code == 404 and a)
    assert gone_answer.content == b""
    names = [e.findtext("Name") for e in ET.fromstring(gateway.get(f"{gateway.base}/yealink/directory.xml").content)
             .iter("DirectoryEntry")]
    assert any(n.startswith("改名 三郎") for n in names) and not any(n.startswith(gone.fullname + " (") for n in names)
