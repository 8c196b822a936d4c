"""Keys -> profiles: who may log in, what their sessions get, and that secrets stay out
of command lines."""

from __future__ import annotations

import os

import asyncssh
import pytest

from corpdir.ssh.authorized import DEFAULT_PROFILE, KeyRing, ProfileError, load_profiles
from corpdir.ssh.server import DirectoryServer, ServerOptions


@pytest.fixture
def keys():
    return [asyncssh.generate_private_key("ssh-ed25519", comment=f"desk-{i}") for i in range(3)]


def _public(key) -> str:
    return key.export_public_key("openssh").decode().strip()


def test_keys_map_to_profiles_and_unknown_keys_to_none(tmp_path, keys, caplog):
    (tmp_path / "ak").write_text(f"# desks\n{_public(keys[0])}\nrestrict,pty {_public(keys[1])}\n", encoding="utf-8")
    (tmp_path / "key").write_text("secret-key-1\n", encoding="utf-8")
    (tmp_path / "p.toml").write_text(f'''
[[keys]]
public_key = "{_public(keys[0])}"
name = "front desk"
profile = {{ base_url = "https://dir.example/v1", api_key_file = "{tmp_path / 'key'}", region = "JP" }}

[[keys]]
public_key = "{_public(keys[2])}"
profile = {{ base_url = "https://other.example/v1" }}
''', encoding="utf-8")
    ring = KeyRing.load(tmp_path / "ak", tmp_path / "p.toml")
    front = ring.profile_for(keys[0])
    assert front.name == "front desk" and front.read_only and not front.inherit
    assert front.child_env() == {"CORPDIR_BASE_URL": "https://dir.example/v1", "CORPDIR_API_KEY": "secret-key-1",
                                 "CORPDIR_REGION": "JP"}
    assert front.child_args() == ["--read-only"]
    assert "secret" not in repr(front)
    assert ring.profile_for(keys[1]) is DEFAULT_PROFILE
    assert ring.profile_for(keys[2]) is None  # has a profile, but is not in authorized_keys
    assert any("cannot log in" in r.getMessage() for r in caplog.records)


def test_a_profiles_session_does_not_inherit_the_servers_service(tmp_path, keys, monkeypatch):
    monkeypatch.setenv("CORPDIR_API_KEY", "the-servers-own-key")
    monkeypatch.setenv("CORPDIR_BASE_URL", "https://servers.example/v1")
    monkeypatch.setenv("SSH_AUTH_SOCK", "/tmp/agent")
    (tmp_path / "ak").write_text(_public(keys[0]) + "\n", encoding="utf-8")
    (tmp_path / "p.toml").write_text(f'[[keys]]\npublic_key = "{_public(keys[0])}"\nprofile = {{ base_url = "https://dir.example/v1" }}\n',
                                     encoding="utf-8")
    ring = KeyRing.load(tmp_path / "ak", tmp_path / "p.toml")
    server = DirectoryServer(ServerOptions(keys=ring, host_key=tmp_path / "hk"))
    env = server.child_env(ring.profile_for(keys[0]), "SHA256:abc/def+g", "xterm")
    assert env["CORPDIR_BASE_URL"] == "https://dir.example/v1"
    assert "CORPDIR_API_KEY" not in env and env["CORPDIR_CONFIG"] == os.devnull
    assert "SSH_AUTH_SOCK" not in env
    assert (env["TERM"], env["COLORTERM"]) == ("xterm", "truecolor")
    assert env["CORPDIR_STATE_DIR"].endswith(os.path.join("ssh", "abc_def-g"))
    default = server.child_env(DEFAULT_PROFILE, "SHA256:x", "")
    assert default["CORPDIR_API_KEY"] == "the-servers-own-key" and default["TERM"] == "xterm-256color"


@pytest.mark.parametrize(("text", "message"), [
    ('[[keys]]\nprofile = { base_url = "x" }\n', "needs public_key"),
    ('[[keys]]\npublic_key = "ssh-ed25519 nonsense"\n', "not a public key"),
    ('[[keys]]\npublic_key = "KEY"\nprofile = { password = "x" }\n', "unknown profile field"),
    ('[[keys]\n', "p.toml"),
    # the session's own settings refused these at the key's login, the server started without a word
    ('[[keys]]\npublic_key = "KEY"\nprofile = { region = "Japan" }\n', "entry 1: region: 'Japan' is not a two-letter"),
    ('[[keys]]\npublic_key = "KEY"\nprofile = { region = "EU" }\n', "entry 1: region: 'EU' is no country with a telephone"),
    ('[[keys]]\npublic_key = "KEY"\nprofile = { region = 81 }\n', "entry 1: region: 81 is not a two-letter"),
    ('[[keys]]\npublic_key = "KEY"\nprofile = { variant = "c" }\n', "entry 1: variant: 'c' is not one of"),
])
def test_a_bad_profiles_file_is_reported_by_entry(tmp_path, keys, text, message):
    (tmp_path / "p.toml").write_text(text.replace("KEY", _public(keys[0])), encoding="utf-8")
    with pytest.raises(ProfileError, match=message):
        load_profiles(tmp_path / "p.toml")


def test_a_profiles_region_is_taken_in_any_case(tmp_path, keys):
    (tmp_path / "p.toml").write_text(f'[[keys]]\npublic_key = "{_public(keys[0])}"\nprofile = {{ region = "us" }}\n',
                                     encoding="utf-8")
    (profile,) = load_profiles(tmp_path / "p.toml").values()
    assert profile.region == "US" and profile.child_env()["CORPDIR_REGION"] == "US"
