"""Each retry rule proven by counting the requests the server saw.

A read is retried on any network failure, timeout, 502/503/504 and an unreadable body;
a write only on 429 and on a failure known to precede sending."""

from __future__ import annotations

import pytest

from corpdir.client import BadResponse, RateLimited, ServerError, TransportError, Unavailable


def posts(server) -> int:
    return server.count("POST")


def gets(server) -> int:
    return server.count("GET")


@pytest.mark.parametrize("fault", ["connect_error_before", "connect_timeout_before", "pool_timeout_before",
                                   "reset_after", "read_timeout", "protocol_error", "503", "html502", "truncated",
                                   "bad_gzip", "html200"])
async def test_read_is_retried(fault, server, faulty, make_client, clock):
    faulty.add(fault)
    client = make_client(faulty)
    user = await client.get_user(3)
    assert user.userId == 3
    assert faulty.sent == 2
    seen_by_server = 1 if fault.endswith("_before") else 2
    assert gets(server) == seen_by_server
    assert clock.slept  # a backoff wait happened (on the fake clock)


@pytest.mark.parametrize("fault", ["connect_error_before", "connect_timeout_before", "pool_timeout_before", "429_before"])
async def test_write_retried_when_known_not_sent(fault, server, faulty, make_client):
    faulty.add(fault)
    client = make_client(faulty)
    created = await client.create_user(loginId="new.user", fullname="New User")
    assert created.fullname == "New User"
    assert faulty.sent == 2
    assert posts(server) == 1  # the service created exactly one user


@pytest.mark.parametrize("fault,error", [
    ("reset_after", TransportError), ("read_timeout", TransportError), ("protocol_error", TransportError),
    ("503", Unavailable), ("html502", ServerError), ("truncated", BadResponse), ("bad_gzip", BadResponse),
    ("html200", BadResponse),
])
async def test_write_not_retried_after_ambiguous_failure(fault, error, server, faulty, make_client):
    faulty.add(fault)
    client = make_client(faulty)
    with pytest.raises(error) as info:
        await client.create_user(loginId="new.user", fullname="New User")
    assert faulty.sent == 1 and posts(server) == 1
    if error is TransportError:
        assert info.value.sent is None and "may or may not have been saved" in str(info.value)


async def test_write_edit_not_retried_after_reset(server, faulty, make_client):
    faulty.add("reset_after")
    client = make_client(faulty)
    with pytest.raises(TransportError):
        await client.edit_user(2, {"comment": "changed"})
    assert [s.method for s in server.seen] == ["PATCH"]


async def test_retries_give_up_after_max(server, faulty, make_client, clock):
    faulty.add(*["503"] * 10)
    client = make_client(faulty)
    with pytest.raises(Unavailable):
        await client.get_user(1)
    assert faulty.sent == 5  # first try + max_retries=4
    # capped exponential backoff with jitter: each wait <= 0.5 * 2**n and >= 75% of it
    waits = [w for w in clock.slept if w > 0]
    assert len(waits) == 4
    for n, w in enumerate(waits):
        assert 0.75 * 0.5 * 2**n <= w <= 0.5 * 2**n


async def test_known_unsent_transport_error_is_reported_unsent(server, faulty, make_client):
    faulty.add(*["connect_error_before"] * 10)
    client = make_client(faulty)
    with pytest.raises(TransportError) as info:
        await client.create_user(loginId="new.user", fullname="New User")
    assert info.value.sent is False and posts(server) == 0
    assert "Could not connect" in str(info.value)


@pytest.mark.parametrize(("fault", "attempts", "sent"), [
    ("unsupported_protocol_before", 1, False),  # would only fail again; certainly not saved
    ("local_protocol_before", 1, None),
    ("connect_error_before", 5, False),  # never left: resent even though it is a write
    ("pool_timeout_before", 5, False),
    ("reset_after", 1, None),  # may have been saved: a write is not resent
])
async def test_a_write_hit_by_a_network_failure_says_whether_it_may_have_been_saved(
    server, faulty, make_client, fault, attempts, sent
):
    faulty.add(*[fault] * 10)
    client = make_client(faulty)
    with pytest.raises(TransportError) as info:
        await client.create_user(loginId="net.fail", fullname="Net Fail")
    assert faulty.sent == attempts and info.value.sent is sent
    assert ("may or may not have been saved" in str(info.value)) == (sent is None)


async def test_retry_after_above_cap_fails_fast(server, faulty, make_client, clock):
    faulty.add("429_long_before")
    client = make_client(faulty)
    with pytest.raises(RateLimited) as info:
        await client.get_user(1)
    assert info.value.retry_after == 3600
    assert faulty.sent == 1 and gets(server) == 0
    assert sum(clock.slept) == 0
    assert "Retry in about 3600 s" in str(info.value)


async def test_429_storm_is_waited_out(server, faulty, make_client, clock):
    faulty.add(*["429_before"] * 3)
    client = make_client(faulty)
    start = clock.now
    user = await client.get_user(5)
    assert user.userId == 5
    assert faulty.sent == 4 and gets(server) == 1
    assert clock.now - start >= 6  # three Retry-After: 2 waited out on the fake clock
    assert client.rate_limit.rate_limited == 3


async def test_429_without_retry_after_waits_for_the_refill_and_resends(server, faulty, make_client, clock):
    """No Retry-After: the wait is (requested - remaining) / replenish rate = (1 - 0) / 4 s."""
    faulty.add("429_no_retry_after_before")
    client = make_client(faulty)
    start = clock.now
    created = await client.create_user(loginId="after.429", fullname="After 429")  # a write: 429 is safe to resend
    assert created.loginId == "after.429"
    assert faulty.sent == 2 and posts(server) == 1
    assert clock.slept[0] == pytest.approx(0.25) and clock.now - start >= 0.25
    assert client.rate_limit.rate_limited == 1


async def test_request_that_cannot_be_sent_is_not_retried(server, faulty, make_client, clock):
    faulty.add("local_protocol_before", "local_protocol_before")
    client = make_client(faulty)
    with pytest.raises(TransportError, match="could not be sent as HTTP"):
        await client.get_user(1)
    assert faulty.sent == 1 and gets(server) == 0 and clock.slept == []


async def test_upload_is_resent_whole(server, faulty, make_client):
    from .test_methods import jpeg

    image = bytearray(jpeg("green"))  # any bytes-like: the client keeps its own bytes
    faulty.add("connect_error_before")
    client = make_client(faulty)
    await client.put_photo(2, image)
    image[:] = b"\0" * len(image)  # the caller reusing its buffer changes nothing sent
    puts = [s for s in server.seen if s.method == "PUT"]
    assert faulty.sent == 2 and len(puts) == 1 and puts[0].status == 204
    assert puts[0].body == jpeg("green")
    assert await client.get_photo(2, "FULL") == jpeg("green")


async def test_a_photo_that_is_not_a_jpeg_is_an_unreadable_answer(server, faulty, make_client):
    """A proxy's login page answered with 200 in place of the photo: not returned as the photo."""
    from .test_methods import jpeg

    client = make_client(faulty)
    await client.put_photo(2, jpeg())
    faulty.add(*["html200"] * 10)
    with pytest.raises(BadResponse, match="not a JPEG"):
        await client.get_photo(2)
    assert faulty.sent == 1 + 5  # the PUT, then the GET and its 4 retries


@pytest.mark.parametrize("fault", ["reset_after", "503"])
async def test_n1_is_a_post_that_only_reads_so_it_is_retried_like_a_get(fault, server, faulty, make_client):
    faulty.add(fault)
    client = make_client(faulty)
    result = await client.identify_numbers(["0312345678"])
    assert result.items == [] or result.items[0].phoneNum == "0312345678"
    assert faulty.sent == 2 and posts(server) == 2
