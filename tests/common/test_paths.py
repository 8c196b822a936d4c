"""Where corpdir keeps things, computed without platformdirs or hashlib on `corpdir
lookup`'s path, is where platformdirs and hashlib would put it."""

from __future__ import annotations

import hashlib
import os

import platformdirs
import pytest

from corpdir import paths

ENVIRONMENTS = [
    {},
    {"HOME": "/home/someone"},
    {"HOME": "/home/someone/"},
    {"HOME": "/"},
    {"HOME": "relative/home"},
    {"HOME": ""},
    {"XDG_CACHE_HOME": "/xdg/cache", "XDG_CONFIG_HOME": "/xdg/config", "XDG_DATA_HOME": "/xdg/data",
     "XDG_STATE_HOME": "/xdg/state", "HOME": "/home/someone"},
    {"XDG_CACHE_HOME": "relative", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "~/data", "HOME": "/home/someone"},
    {"XDG_CACHE_HOME": "/xdg/cache/", "XDG_STATE_HOME": "/xdg//state"},
]


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_user_dirs_agree_with_platformdirs(env, monkeypatch):
    for name in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for kind in ("cache", "config", "data", "state"):
        try:
            expected = getattr(platformdirs, f"user_{kind}_dir")(paths.APP_NAME)
        except RuntimeError as exc:  # no usable home: platformdirs says so, and so do we
            with pytest.raises(RuntimeError, match=str(exc)[:20]):
                paths.user_dir(kind)
            continue
        assert paths.user_dir(kind) == expected, (kind, env)


def test_default_folders_follow_platformdirs(monkeypatch):
    for name in ("CORPDIR_CONFIG", "CORPDIR_DATA_DIR", "CORPDIR_CACHE_DIR", "CORPDIR_STATE_DIR"):
        monkeypatch.delenv(name)
    assert str(paths.config_path()) == os.path.join(platformdirs.user_config_dir("corpdir"), "config.toml")
    assert str(paths.cache_dir()) == platformdirs.user_cache_dir("corpdir")
    assert str(paths.data_dir()) == platformdirs.user_data_dir("corpdir")
    assert str(paths.state_dir()) == platformdirs.user_state_dir("corpdir")


def test_cache_file_names_are_sha256():
    fingerprint = hashlib.sha256(b"corpdir-key:k").hexdigest()[:16]
    assert paths.key_fingerprint("k") == fingerprint
    name = hashlib.sha256(f"http://x/v1\n{fingerprint}".encode()).hexdigest()[:24]
    assert paths.cache_file("http://x/v1/", "k").name == f"{name}.sqlite3"
