"""After a sync that changed a few records, the gateway's precomputed caller-ID map renders
again only the numbers those records touch, keeps every other entry as it was, and ends
equal to a map built whole from the same state of the cache."""

from __future__ import annotations

import threading

from corpdir.gateway.precomputed import Precomputed
from corpdir.phone import digits
from corpdir.service.backend import backend_of
from corpdir.spec.phone_fields import USER_PHONE_FIELDS

from .conftest import until


def _settled(gateway) -> Precomputed:
    """The gateway's map, once it follows the cache as it is now (every commit seen and dealt with)."""
    precomputed = gateway.server.precomputed

    async def version() -> int:
        return precomputed.phonebook.version()

    now = gateway.call(version())
    until(lambda: precomputed.version == now and precomputed._follow is not None and precomputed._follow.done()
          and precomputed.replies)
    return precomputed


def _built_whole(gateway) -> dict:
    """A map built whole from the cache as it is now, by a second Precomputed of the same gateway."""
    fresh = Precomputed(gateway.app)
    gateway.loop.call_soon_threadsafe(fresh.start)
    until(lambda: fresh.replies and fresh._follow.done())
    replies = fresh.replies
    gateway.loop.call_soon_threadsafe(fresh.stop)
    return replies


def _people(gateway, count: int = 200) -> list:
    return [u for u in gateway.call(gateway.service.people.window(None, limit=count)) if u.phoneNum]


def _sync(gateway) -> Precomputed:
    gateway.call(gateway.service.sync.run())
    return _settled(gateway)


def _client(gateway):
    return backend_of(gateway.admin).client


def test_a_renamed_person_is_rendered_again_and_nobody_else(gateway):
    user, other = _people(gateway)[:2]
    precomputed = _settled(gateway)
    before, key = dict(precomputed.replies), precomputed.key(digits(user.phoneNum))
    gateway.call(_client(gateway).edit_user(user.userId, {"fullname": "改名 五郎"}))
    precomputed = _sync(gateway)
    assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").text == "改名 五郎"
    assert precomputed.replies[key] != before[key]
    redone = {k for k, entry in before.items() if precomputed.replies.get(k) is not entry}
    own = {precomputed.key(digits(number)) for f in USER_PHONE_FIELDS if (number := getattr(user, f, None))}
    assert key in redone and redone == own & before.keys()  # the person's own numbers, no one else's
    assert precomputed.replies[precomputed.key(digits(other.phoneNum))] is before[precomputed.key(digits(other.phoneNum))]
    assert precomputed.replies == _built_whole(gateway)


def test_while_a_change_is_rendered_the_map_answers_the_rest_and_never_the_old_answer(gateway):
    """The render of the changed numbers is held up (its thread waits): meanwhile the map
    answers everyone else, and the changed number is answered by the ordinary path from
    the new state, never with the old name from the map."""
    user, other = _people(gateway)[:2]
    precomputed = _settled(gateway)
    rendering, go_on = threading.Event(), threading.Event()
    renderer = precomputed._renderer

    def held_renderer():
        answer = renderer()

        def held(read, key):
            rendering.set()
            go_on.wait(60)
            return answer(read, key)

        return held

    precomputed._renderer = held_renderer
    answered: list[str] = []
    precomputed.answered = answered.append
    renamed = gateway.call(_client(gateway).edit_user(user.userId, {"fullname": "改名 六郎"}))
    backend = backend_of(gateway.service)
    gateway.call(backend.cache.run(backend.store.put_users, [renamed]))  # one commit, as a sync's page is
    try:
        assert rendering.wait(60)
        assert gateway.get(f"{gateway.base}/cid?number={digits(other.phoneNum)}").text == other.fullname
        assert answered == ["text"]  # from the map
        assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").text == "改名 六郎"
        assert answered == ["text"]  # not from the map: the ordinary path
    finally:
        go_on.set()
    _settled(gateway)
    assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").text == "改名 六郎"
    assert answered == ["text", "text"]  # from the map again


def test_a_number_nobody_holds_any_more_leaves_the_map_and_the_new_one_enters(gateway):
    user = _people(gateway)[0]
    precomputed = _settled(gateway)
    old = precomputed.key(digits(user.phoneNum))
    assert old in precomputed.replies
    gateway.call(_client(gateway).edit_user(user.userId, {"phoneNum": "03-9876-5432"}))
    precomputed = _sync(gateway)
    assert old not in precomputed.replies
    assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").status_code == 404
    assert precomputed.key("0398765432") in precomputed.replies
    assert gateway.get(f"{gateway.base}/cid?number=0398765432").text == user.fullname
    assert precomputed.replies == _built_whole(gateway)


def test_a_removed_person_is_no_longer_answered_from_the_map(gateway):
    user = _people(gateway)[0]
    precomputed = _settled(gateway)
    key = precomputed.key(digits(user.phoneNum))
    assert key in precomputed.replies
    gateway.call(_client(gateway).delete_user(user.userId))
    precomputed = _sync(gateway)
    assert key not in precomputed.replies
    answered: list[str] = []
    precomputed.answered = answered.append
    assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").status_code == 404
    assert answered == []
    assert precomputed.replies == _built_whole(gateway)


def test_a_renamed_division_changes_the_answers_of_everyone_under_it_only(gateway):
    """The division renamed is the parent of someone's division: its members and those of
    every division under it are answered with the new path; nobody else is rendered again."""
    people = _people(gateway, 500)
    client = _client(gateway)
    parent = gateway.call(client.get_division(people[0].divisions[0].divisionId)).parentDivisionId
    assert parent
    kv = f"{gateway.base}/cid.kv?number={digits(people[0].phoneNum)}"
    new_name = "%E6%96%B0%E9%83%A8%E7%BD%B2"  # '新部署', percent-encoded
    assert new_name not in gateway.get(kv).text
    precomputed = _settled(gateway)
    before = dict(precomputed.replies)
    renamed = gateway.call(client.edit_division(parent, {"divisionName": "新部署"}))
    # stored as a sync stores its divisions, before it reaches the people: their own records
    # (which name their division too) are not what changes their answers here
    backend = backend_of(gateway.service)
    gateway.call(backend.cache.run(backend.store.put_divisions, [renamed]))
    precomputed = _settled(gateway)
    for user in people:
        key = precomputed.key(digits(user.phoneNum))
        under = new_name in gateway.get(f"{gateway.base}/cid.kv?number={digits(user.phoneNum)}").text
        assert (precomputed.replies[key] is before[key]) is not under
    assert new_name in gateway.get(kv).text
    assert precomputed.replies == _built_whole(gateway)


def test_a_change_to_more_than_the_share_builds_the_map_whole(gateway, monkeypatch):
    """Past INCREMENTAL_SHARE of the map (here: any change at all) number by number costs
    more than a full build: every entry is rendered again, and the map is right."""
    from corpdir.gateway import precomputed as module

    user = _people(gateway)[0]
    precomputed = _settled(gateway)
    before = dict(precomputed.replies)
    monkeypatch.setattr(module, "INCREMENTAL_SHARE", 0.0)
    gateway.call(_client(gateway).edit_user(user.userId, {"fullname": "改名 七郎"}))
    precomputed = _sync(gateway)
    assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").text == "改名 七郎"
    assert not any(precomputed.replies.get(key) is entry for key, entry in before.items())
    assert precomputed.replies == _built_whole(gateway)
