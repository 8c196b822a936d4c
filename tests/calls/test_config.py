"""The [calls] table of config.toml: several named feeds and a dialer in one typed
settings object; a mistake is refused with the field and the rule named."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir.config import SettingsError, load_settings


AMI_FEED = """
[[calls.feeds]]
name = "pbx"
kind = "ami"
username = "corpdir"
secret = "s3cret"
extension = "201"
"""


def test_several_feeds_and_a_dialer_are_read(write_config):
    write_config("""
[calls]
recent_calls = 5
[[calls.feeds]]
name = "soft phone"
kind = "baresip"
port = 4555
""" + AMI_FEED + """
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


SECRETS = AMI_FEED + """
[[calls.feeds]]
name = "desk phone"
kind = "action_url"
token = "k3Yp9-desk-7Q"
[calls.dialer]
kind = "action_uri"
url = "http://192.0.2.10/servlet?key=number={number}"
password = "ph0ne"
"""


def test_a_config_open_to_others_with_secrets_in_it_is_warned_about_by_name(caplog, write_config):
    path = write_config(SECRETS)
    path.chmod(0o644)
    load_settings()
    [message] = [r.getMessage() for r in caplog.records if r.name == "corpdir.config"]
    assert "calls.feeds[0].secret, calls.feeds[1].token, calls.dialer.password" in message
    assert "mode 0644" in message and f"chmod 600 {path}" in message and "s3cret" not in message


def test_a_private_config_or_one_without_secrets_says_nothing(caplog, write_config):
    path = write_config(SECRETS)
    path.chmod(0o600)
    load_settings()
    write_config('[[calls.feeds]]\nname = "soft phone"\nkind = "baresip"\n').chmod(0o644)
    load_settings()
    assert not [r for r in caplog.records if r.name == "corpdir.config"]


def test_the_tui_says_its_config_is_open_before_anything_else(write_config):
    path = write_config(SECRETS + '[[calls.feeds]]\nname = "x"\nkind = "ami"\n')  # and unusable: it stops there
    path.chmod(0o644)
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "--no-sync"], capture_output=True, text=True,
                          env=os.environ.copy(), stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "calls.feeds[0].secret, calls.feeds[1].token, calls.dialer.password and is open to others" in done.stderr
    assert done.stderr.index("open to others") < done.stderr.index("[calls] feeds[2].ami.username: Field required")
