"""One settings object: every table of config.toml, every CORPDIR_* variable and the flags
land in corpdir.config.Settings, section by section; a mistake names its section, key and
rule; the configuration examples the documentation shows are read as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from corpdir.config import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]

EVERY_SECTION = """
[service]
base_url = "https://directory.example.com/v1"
api_key = "file-key"
variant = "B"
region = "US"
stale_after = 60

[ui]
theme = "corpdir-high-contrast"
read_only = true
photos = false

[keymap]
app.lookup = "ctrl+l"
"directory.search" = "f6,ctrl+f"

[calls]
recent_calls = 5
ring_socket = false
feeds = [{ name = "soft phone", kind = "baresip", port = 4555 }]
dialer = { kind = "ami", username = "corpdir", secret = "dial-secret", channel = "PJSIP/201" }

[gateway]
port = 8080
allow = ["10.0.0.0/8"]
deadline_ms = 250

[ssh]
port = 2200
host_key = "/etc/corpdir/ssh_host_key"
authorized_keys = "/etc/corpdir/authorized_keys"
idle_timeout = 0
"""


def test_a_file_with_every_section_loads_into_the_one_object(write_config):
    write_config(EVERY_SECTION)
    settings = load_settings()
    service = settings.service
    assert (service.base_url, service.api_key.get_secret_value(), service.variant, service.region, service.stale_after) == \
        ("https://directory.example.com/v1", "file-key", "B", "US", 60)
    assert (settings.ui.theme, settings.ui.read_only, settings.ui.photos) == ("corpdir-high-contrast", True, False)
    assert settings.keymap == {"app.lookup": "ctrl+l", "directory.search": "f6,ctrl+f"}
    assert (settings.calls.recent_calls, settings.calls.ring_socket) == (5, False)
    assert [(f.name, f.kind, f.port) for f in settings.calls.feeds] == [("soft phone", "baresip", 4555)]
    assert (settings.calls.dialer.kind, settings.calls.dialer.channel) == ("ami", "PJSIP/201")
    assert (settings.gateway.port, settings.gateway.allow, settings.gateway.deadline_ms) == (8080, ["10.0.0.0/8"], 250)
    assert settings.gateway.host == "127.0.0.1"  # not in the file: the default
    assert (settings.ssh.port, settings.ssh.host_key, settings.ssh.idle_timeout) == (2200, Path("/etc/corpdir/ssh_host_key"), 0)
    for secret in ("file-key", "dial-secret"):
        assert secret not in repr(settings)


def test_no_file_gives_the_embedded_demo_and_every_default():
    settings = load_settings()
    for name, field in Settings.model_fields.items():
        assert getattr(settings, name) == field.default_factory(), name
    assert settings.service.is_demo and settings.keymap == {} and settings.calls.feeds == []


@pytest.mark.parametrize(("variable", "value", "read"), [
    ("CORPDIR_GATEWAY_PORT", "9090", lambda s: s.gateway.port == 9090),
    ("CORPDIR_GATEWAY_ALLOW", '["192.0.2.0/24", "::1"]', lambda s: s.gateway.allow == ["192.0.2.0/24", "::1"]),
    ("CORPDIR_CALLS_RECENT_CALLS", "7", lambda s: s.calls.recent_calls == 7),
    ("CORPDIR_UI_THEME", "textual-light", lambda s: s.ui.theme == "textual-light"),
    ("corpdir_ui_theme", "textual-light", lambda s: s.ui.theme == "textual-light"),  # a name in any case
    ("CORPDIR_SSH_PORT", "2022", lambda s: s.ssh.port == 2022),
    ("CORPDIR_REGION", "GB", lambda s: s.service.region == "GB"),
])
def test_an_environment_variable_overrides_its_sections_key_and_leaves_the_rest(write_config, monkeypatch, variable, value,
                                                                              read):
    write_config(EVERY_SECTION)
    monkeypatch.setenv(variable, value)
    settings = load_settings()
    assert read(settings)
    assert settings.gateway.deadline_ms == 250 and settings.calls.feeds[0].port == 4555  # the file's other keys stay


def test_a_table_in_a_variable_changes_only_the_keys_it_names(write_config, monkeypatch):
    write_config(EVERY_SECTION)
    monkeypatch.setenv("CORPDIR_CALLS_DIALER", '{"channel": "PJSIP/209"}')
    monkeypatch.setenv("CORPDIR_CALLS_FEEDS", '[{"name": "history", "kind": "history"}]')
    calls = load_settings().calls
    assert (calls.dialer.kind, calls.dialer.channel, calls.dialer.secret.get_secret_value()) == ("ami", "PJSIP/209", "dial-secret")
    assert [(feed.name, feed.kind) for feed in calls.feeds] == [("history", "history")]  # a list is replaced whole


def test_flags_override_the_environment_and_a_blank_flag_says_nothing(write_config, monkeypatch):
    write_config(EVERY_SECTION)
    monkeypatch.setenv("CORPDIR_GATEWAY_PORT", "9090")
    monkeypatch.setenv("CORPDIR_BASE_URL", "https://env.example/v1")
    settings = load_settings(gateway={"port": 7070, "host": None}, service={"base_url": "  "})
    assert settings.gateway.port == 7070 and settings.gateway.host == "127.0.0.1"
    assert settings.service.base_url == "https://env.example/v1"


@pytest.mark.parametrize(("config", "env", "said"), [
    ("[gateway]\nport = 70000\n", {}, "[gateway] port: Input should be less than or equal to 65535"),
    ("", {"CORPDIR_GATEWAY_ALLOW": '["not a network"]'}, "[gateway] allow: Value error, allow: 'not a network' is not an address"),
    ("[service]\nvariant = \"D\"\n", {}, "[service] variant: Input should be 'A', 'B' or 'C'"),
    ("", {"CORPDIR_STALE_AFTER": "soon"}, "[service] stale_after: Input should be a valid number"),
    ("[ui]\nphotos = \"maybe\"\n", {}, "[ui] photos: Input should be a valid boolean"),
    ("[calls]\nrecent_calls = 99\n", {}, "[calls] recent_calls: Input should be less than or equal to 20"),
    ("[ssh]\nmax_sessions = 0\n", {}, "[ssh] max_sessions: Input should be greater than or equal to 1"),
    ("gateway = 3\n", {}, "[gateway]: must be a table, not 3"),
    ("", {"CORPDIR_GATEWAY_ALLOW": "10.0.0.0/8"}, "[gateway] allow: CORPDIR_GATEWAY_ALLOW is not valid JSON"),
    ("", {"CORPDIR_CALLS_DIALER": "ami"}, "[calls] dialer: Input should be a valid dictionary"),
])
def test_a_bad_value_names_the_section_the_key_and_the_rule(write_config, monkeypatch, config, env, said):
    write_config(config)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert said in str(caught.value)


def test_every_mistake_is_named_at_once(write_config):
    write_config('[gateway]\nport = -1\n[ssh]\nport = "x"\n[[calls.feeds]]\nname = "p"\nkind = "ami"\n')
    with pytest.raises(SettingsError) as caught:
        load_settings()
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("[calls] feeds[0].ami.username: Field required")
    assert any(line.startswith("[gateway] port:") for line in lines) and any(line.startswith("[ssh] port:") for line in lines)


def test_a_command_refuses_a_bad_section_with_status_2_and_no_traceback(write_config):
    write_config("[gateway]\ndeadline_ms = 0\n")
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "gateway", "--port", "0"], capture_output=True, text=True,
                          env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2
    assert "[gateway] deadline_ms: Input should be greater than 0" in done.stderr and "Traceback" not in done.stderr


def test_the_ssh_server_takes_its_files_from_the_ssh_section(write_config, tmp_path):
    """With the host key and authorized keys named in [ssh] (and a port taken), the server
    gets as far as listening: the section was read, no flag was needed."""
    import socket

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    keys = tmp_path / "authorized_keys"
    keys.write_text("", encoding="utf-8")
    write_config(f'[ssh]\nport = {port}\nhost_key = "{tmp_path / "host_key"}"\nauthorized_keys = "{keys}"\n')
    try:
        done = subprocess.run([sys.executable, "-m", "corpdir.cli", "ssh-server"], capture_output=True, text=True,
                              env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)
    finally:
        holder.close()
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr, done.stderr


def documented_config_examples() -> list[tuple[str, str]]:
    """Every ```toml block of README.md and docs/ written for config.toml (its tables are
    sections of Settings), with where it is."""
    blocks = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"```toml\n(.*?)```", text, re.S):
            tables = {t.split(".")[0] for t in re.findall(r"^\[\[?([\w.]+)\]?\]", match.group(1), re.M)}
            if tables and tables <= set(Settings.model_fields):
                blocks.append((f"{path.name}:{text.count(chr(10), 0, match.start()) + 1}", match.group(1)))
    return blocks


def test_the_documented_examples_are_found():
    where = [name.split(":")[0] for name, _ in documented_config_examples()]
    assert where.count("README.md") >= 3 and "calls.md" in where and "configuration.md" in where


@pytest.mark.parametrize(("where", "example"), documented_config_examples())
def test_every_documented_config_example_loads(write_config, where, example):
    write_config(example)
    load_settings()
