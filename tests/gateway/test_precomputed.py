"""Caller-ID replies precomputed per state of the cache answer exactly as a request
answered on its own would, in every spelling a PBX sends, and follow the cache."""

from __future__ import annotations

from corpdir.phone import digits, e164

from .conftest import until

KEPT = ("content-type", "x-corpdir-answer", "cache-control", "content-length")


def _precomputed(gateway, path: str) -> list[str]:
    """Answers the precomputed map gave (its counter hook), once the map is in."""
    answered: list[str] = []
    gateway.server.precomputed.answered = answered.append
    until(lambda: gateway.get(f"{gateway.base}{path}") and answered)
    answered.clear()
    return answered


def _seen(answer) -> tuple:
    return answer.status_code, answer.content, {k: answer.headers.get(k) for k in KEPT}


def test_every_spelling_gets_the_reply_a_request_answered_on_its_own_gets(gateway):
    users = [u for u in gateway.call(gateway.service.people.window(None, limit=200)) if u.phoneNum][:5]
    spellings = []
    for user in users:
        full = e164(user.phoneNum, gateway.service.settings.region)
        spellings += [digits(user.phoneNum), full.lstrip("+"), "%2B" + full[1:]]
    answered = _precomputed(gateway, f"/cid?number={spellings[0]}")
    asked = 0
    for number in spellings:
        for path in ("/cid", "/cid.kv"):
            fast = gateway.get(f"{gateway.base}{path}?number={number}")
            # a second parameter: the map never answers it, the request is answered on its own
            alone = gateway.get(f"{gateway.base}{path}?number={number}&from=test")
            asked += 1
            assert fast.status_code == 200 and fast.content
            assert _seen(fast) == _seen(alone)
    assert len(answered) == asked  # every plain request came from the map, none of the others


def test_a_number_the_cache_lacks_and_other_formats_take_the_ordinary_path(gateway):
    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=200)) if u.phoneNum)
    answered = _precomputed(gateway, f"/cid?number={digits(user.phoneNum)}")
    assert gateway.get(f"{gateway.base}/cid?number=0399990000").status_code == 404
    assert gateway.get(f"{gateway.base}/cid.json?number={digits(user.phoneNum)}").json()["found"] is True
    assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}&ascii=1").content.isascii()
    assert answered == []


def test_a_sync_that_renames_someone_is_answered_with_the_new_name(gateway):
    from corpdir.service.backend import backend_of

    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=200)) if u.phoneNum)
    url = f"{gateway.base}/cid?number={digits(user.phoneNum)}"
    answered = _precomputed(gateway, f"/cid?number={digits(user.phoneNum)}")
    assert gateway.get(url).text == user.fullname
    gateway.call(backend_of(gateway.admin).client.edit_user(user.userId, {"fullname": "改名 四郎"}))
    gateway.call(gateway.service.sync.run())
    # the number leaves the map once the loop has seen the commit and read its marks, then is rendered again
    until(lambda: gateway.get(url).text == "改名 四郎")
    answered.clear()
    until(lambda: gateway.get(url).text == "改名 四郎" and answered)  # and the new map answers it


def test_metrics_count_the_maps_answers_as_the_caches(gateway):
    """/metrics (gateway/metrics.py) counts a reply the map gave as a lookup answered from the cache."""
    from prometheus_client.parser import text_string_to_metric_families

    def cache_lookups() -> float:
        text = gateway.get(f"{gateway.base}/metrics").text
        return next(s.value for family in text_string_to_metric_families(text) for s in family.samples
                    if s.name == "corpdir_gateway_lookups_total" and s.labels == {"answer": "cache"})

    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=200)) if u.phoneNum)
    until(lambda: gateway.server.precomputed.replies)
    before = cache_lookups()
    for _ in range(4):
        assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").status_code == 200
    assert cache_lookups() - before == 4


def test_a_sync_that_changes_nothing_keeps_the_map(gateway):
    """A periodic sync commits (it marks when it ran) though no record changed: the map
    is kept (its marks say nothing changed), not dropped and rebuilt, which at 100k people
    costs a minute of a core per worker (docs/performance.md)."""
    user = next(u for u in gateway.call(gateway.service.people.window(None, limit=200)) if u.phoneNum)
    precomputed = gateway.server.precomputed
    until(lambda: precomputed.replies and precomputed.marks)
    built, entries, version = precomputed.replies, dict(precomputed.replies), precomputed.version
    gateway.call(gateway.service.sync.run())
    until(lambda: precomputed.version != version and precomputed._follow.done())
    assert precomputed.replies is built  # the same map, not an equal new one
    assert all(precomputed.replies[key] is entry for key, entry in entries.items())  # nothing rendered again
    answered = _precomputed(gateway, f"/cid?number={digits(user.phoneNum)}")
    assert gateway.get(f"{gateway.base}/cid?number={digits(user.phoneNum)}").text == user.fullname and answered
