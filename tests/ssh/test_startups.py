"""Who of the connections not yet logged in is kept: sshd's 10:30:100 random early drop,
each address's share, and the refusal of an address whose connection did not progress.
(The flood itself, over a real server process and the OpenSSH client: test_preauth_flood.py.)"""

from __future__ import annotations

from corpdir.ssh.startups import StartupLimits, Startups, source_of


def test_past_start_an_address_that_holds_one_is_dropped_more_often_up_to_full():
    draws = iter([0.29, 0.31, 0.31])
    startups = Startups(StartupLimits.parse("10:30:100", per_source=100), chance=lambda: next(draws))
    assert all(startups.admit("10.0.0.1") is None for _ in range(10))  # below start: never dropped
    assert "at random, 30 %" in startups.admit("10.0.0.1")  # drew 29 of 100: under 30 %
    assert startups.admit("10.0.0.1") is None  # drew 31: kept (11 held)
    assert startups.admit("10.0.0.9") is None  # an address holding none is not drawn for
    assert "at random, 32 %" in startups.admit("10.0.0.1")  # 12 held: 30 + 70 x 2/90 = 31.6 %, drew 31
    startups.held["10.0.0.1"] = 99  # and 10.0.0.9 holds one: 100
    assert "(the maximum)" in startups.admit("10.0.0.7")  # at full, nobody


def test_an_address_gets_its_share_and_a_refused_one_comes_back_after_the_penalty():
    now = [0.0]
    startups = Startups(StartupLimits(4, per_source=2, penalty=20), clock=lambda: now[0])
    assert [startups.admit("127.0.0.2") for _ in range(2)] == [None, None]
    assert "its share" in startups.admit("127.0.0.2")
    assert startups.admit("127.0.0.1") is None  # another address is not held back by it
    startups.release("127.0.0.2")
    startups.penalise("127.0.0.2")
    assert "refused for 20 s more" in startups.admit("127.0.0.2")
    now[0] = 20.5
    assert startups.admit("127.0.0.2") is None


def test_an_ipv6_host_is_one_source_across_its_64_and_a_mapped_ipv4_is_its_address():
    assert source_of("2001:db8::1") == source_of("2001:db8::ffff:1") == "2001:db8::/64"
    assert source_of("::ffff:192.0.2.7") == "192.0.2.7"


def test_max_startups_is_written_as_sshd_writes_it_and_a_bad_value_stops_the_server(tmp_path):
    import subprocess
    import sys

    assert StartupLimits.parse("10:30:100") == StartupLimits(10, 30, 100)
    assert (StartupLimits.parse("20").ceiling, StartupLimits.parse("20").share) == (100, 20)
    (tmp_path / "keys").write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "ssh-server", "--port", "0", "--host-key",
                           str(tmp_path / "hk"), "--authorized-keys", str(tmp_path / "keys"), "--max-startups", "30:30:10"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "max startups '30:30:10': expected START or START:RATE:FULL" in done.stderr
