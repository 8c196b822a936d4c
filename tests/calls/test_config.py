"""The [calls] table of config.toml: several named feeds and a dialer in one typed
settings object; a mistake is refused with the field and the rule named."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir.config import SettingsError, load_settings


def test_several_feeds_and_a_dialer_are_read(write_config):
    write_config("""
[calls]
recent_calls = 5
[[calls.feeds]]
name = "soft phone"
kind = "baresip"
port = 4555
[[calls.feeds]]
name = "pbx"
kind = "ami"
username = "corpdir"
secret = "s3cret"
extension = "201"
[[calls.feeds]]
name = "history"
kind = "history"
interval = 30
[calls.dialer]
kind = "action_uri"
url = "http://192.0.2.10/servlet?key=number={number}&outgoing_uri=desk"
""")
    calls = load_settings().calls
    assert [(f.name, f.kind) for f in calls.feeds] == [("soft phone", "baresip"), ("pbx", "ami"), ("history", "history")]
    assert calls.feeds[0].port == 4555 and calls.feeds[2].interval == 30 and calls.recent_calls == 5
    assert calls.feeds[2].records is False  # the history feed never writes what it read
    assert "s3cret" not in repr(calls)  # secrets stay out of logs and tracebacks
    assert calls.dialer.kind == "action_uri"


@pytest.mark.parametrize(("table", "said"), [
    ('[[calls.feeds]]\nname = "x"\nkind = "baresip"\nport = 70000\n', "[calls] feeds[0].baresip.port: Input should be less than or equal to 65535"),
    ('[[calls.feeds]]\nkind = "baresip"\n', "[calls] feeds[0].baresip.name: Field required"),
    ('[[calls.feeds]]\nname = "a"\nkind = "baresip"\n[[calls.feeds]]\nname = "a"\nkind = "history"\n', "feed names must be unique"),
    ('[[calls.feeds]]\nname = "a"\nkind = "fax"\n', "[calls] feeds[0]: Input tag 'fax' found using 'kind' does not match"),
    ('[calls.dialer]\nkind = "action_uri"\nurl = "http://phone/dial"\n', "[calls] dialer.action_uri.url: String should match pattern"),
])
def test_a_mistake_names_the_field_and_the_rule(write_config, table, said):
    write_config(table)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert said in str(caught.value)


def test_the_tui_refuses_to_start_on_a_bad_calls_table(write_config):
    write_config('[[calls.feeds]]\nname = "x"\nkind = "ami"\n')
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "--no-sync"], capture_output=True, text=True,
                          env=os.environ.copy(), stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "[calls] feeds[0].ami.username: Field required" in done.stderr and "Traceback" not in done.stderr
