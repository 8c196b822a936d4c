"""One config reader: `corpdir lookup`'s fast path (corpdir.paths, no pydantic) and the
settings object the TUI builds (corpdir.config.Settings) read the same keys with the same
defaults, and so name the same service, the same key, the same cache file, the same region
and staleness, however the configuration is written (a key file saved with a BOM, a
CORPDIR_API_KEY of blanks: otherwise `corpdir lookup` would not find what the TUI cached).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpdir import paths
from corpdir.cache.store import CacheStore
from corpdir.config import ServiceConfig, load_settings

FILE_URL, ENV_URL, FLAG_URL = "https://file.example/v1", "https://env.example/v1", "https://flag.example/v1"

# what the config file's [service] table says ({key file} is replaced by the key file's path)
CONFIGS = {
    "no file": None,
    "url and key": f'[service]\nbase_url = "{FILE_URL}"\napi_key = "file-key"\n',
    "url and key file": f'[service]\nbase_url = "{FILE_URL}"\napi_key_file = "{{key file}}"\n',
    "key and key file": f'[service]\nbase_url = "{FILE_URL}"\napi_key = "file-key"\napi_key_file = "{{key file}}"\n',
    "blanks": '[service]\nbase_url = "  "\napi_key = " "\n',
    "saved with a BOM": f'\ufeff[service]\nbase_url = "{FILE_URL}"\napi_key = "  file-key  "\n',
    "region and staleness": f'[service]\nbase_url = "{FILE_URL}"\nregion = "US"\nstale_after = 60\n',
}
# the environment: CORPDIR_<NAME>
ENVIRONMENTS = {
    "none": {},
    "url": {"CORPDIR_BASE_URL": ENV_URL},
    "key": {"CORPDIR_API_KEY": "env-key"},
    "key with a line break": {"CORPDIR_API_KEY": "env-key\n"},
    "blank key": {"CORPDIR_API_KEY": "  "},
    "empty url, blank key": {"CORPDIR_BASE_URL": "", "CORPDIR_API_KEY": "   "},
    "key file": {"CORPDIR_API_KEY_FILE": "{key file}"},
    "url and key file": {"CORPDIR_BASE_URL": ENV_URL, "CORPDIR_API_KEY_FILE": "{key file}"},
    "region and staleness": {"CORPDIR_REGION": " GB ", "CORPDIR_STALE_AFTER": "120.5", "CORPDIR_KEYRING_SERVICE": "  "},
}
# the key file's bytes
KEY_FILES = {
    "plain": b"kf-key\n",
    "BOM and CRLF": b"\xef\xbb\xbfkf-key\r\nsecond line\r\n",
    "blank lines first": b"\n  \n  kf-key  \n",
    "empty": b"",
}
FLAGS = {"none": None, "--base-url": FLAG_URL, "--base-url blank": "  "}


def configure(tmp_path: Path, monkeypatch, config: str | None, env: dict[str, str], key_file: bytes) -> None:
    keyfile = tmp_path / "api.key"
    keyfile.write_bytes(key_file)
    config_file = Path(os.environ["CORPDIR_CONFIG"])
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.unlink(missing_ok=True)
    if config is not None:
        config_file.write_text(config.replace("{key file}", str(keyfile)), encoding="utf-8")
    for name in {name for variables in ENVIRONMENTS.values() for name in variables}:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value.replace("{key file}", str(keyfile)))


def plain(value: object) -> object:
    """A model's value as the fast reader gives it (text, a number or None)."""
    if hasattr(value, "get_secret_value"):
        return value.get_secret_value()
    return str(value) if isinstance(value, Path) else value


def test_the_lookup_keys_are_fields_of_the_model_with_its_defaults():
    fields = ServiceConfig.model_fields
    assert {name: fields[name].default for name in paths.LOOKUP_SETTINGS} == paths.LOOKUP_SETTINGS


def both(flag: str | None) -> tuple[paths.Profile, paths.Profile]:
    """(lookup's profile, the TUI's profile) for this command-line flag."""
    fast = paths.resolve_profile(flag)
    return fast, load_settings(service={"base_url": flag}).service.profile()


@pytest.mark.parametrize("config", CONFIGS)
def test_lookup_and_the_tui_agree_on_profile_and_cache_file(config, tmp_path, monkeypatch):
    for (env_name, env), (key_name, key_file), (flag_name, flag) in itertools.product(
            ENVIRONMENTS.items(), KEY_FILES.items(), FLAGS.items()):
        configure(tmp_path, monkeypatch, CONFIGS[config], env, key_file)
        fast, full = both(flag)
        case = (config, env_name, key_name, flag_name)
        assert fast == full, case
        assert fast.cache_path() == full.cache_path(), case
        service = load_settings().service
        assert paths.lookup_settings() == {name: plain(getattr(service, name)) for name in paths.LOOKUP_SETTINGS}, case


@pytest.mark.parametrize(("config", "env", "key_file", "flag", "expected"), [
    # flags over environment over file
    ("url and key", "none", "empty", "--base-url", (FLAG_URL, "file-key")),
    ("url and key", "url", "empty", "none", (ENV_URL, "file-key")),
    ("url and key", "key", "empty", "none", (FILE_URL, "env-key")),
    # a blank says nothing: the next source speaks
    ("url and key", "blank key", "empty", "none", (FILE_URL, "file-key")),
    ("url and key", "empty url, blank key", "empty", "--base-url blank", (FILE_URL, "file-key")),
    ("blanks", "none", "empty", "none", (None, paths.DEMO_API_KEY)),
    # a key beats a key file; a key file's first line, without BOM or blanks
    ("key and key file", "none", "plain", "none", (FILE_URL, "file-key")),
    ("url and key file", "none", "BOM and CRLF", "none", (FILE_URL, "kf-key")),
    ("url and key file", "blank key", "blank lines first", "none", (FILE_URL, "kf-key")),
    ("saved with a BOM", "key with a line break", "empty", "none", (FILE_URL, "env-key")),
    ("url and key file", "none", "empty", "none", (FILE_URL, None)),  # an empty key file: no key
])
def test_which_source_wins(config, env, key_file, flag, expected, tmp_path, monkeypatch):
    configure(tmp_path, monkeypatch, CONFIGS[config], ENVIRONMENTS[env], KEY_FILES[key_file])
    fast, full = both(FLAGS[flag])
    assert tuple(fast) == tuple(full) == expected


def test_lookup_finds_the_cache_the_tui_filled_with_a_bom_key_file_and_a_blank_key(tmp_path, monkeypatch):
    """The defect as a user met it: the TUI filled a cache, `corpdir lookup` (a real
    process) did not find it and answered 'not found'."""
    base = "http://127.0.0.1:9/v1"  # nothing listens: only the cache can answer
    configure(tmp_path, monkeypatch, f'[service]\nbase_url = "{base}"\napi_key_file = "{{key file}}"\n',
              {"CORPDIR_API_KEY": "  "}, b"\xef\xbb\xbfdesk-key\r\n")
    store = CacheStore(load_settings().service.profile().cache_path())  # where the TUI keeps its cache
    store.put_users([{"userId": 1, "fullname": "受付 花子", "phoneNum": "03-5555-0101"}])
    store.close()
    result = subprocess.run([sys.executable, "-m", "corpdir.cli", "lookup", "--offline", "0355550101"],
                            capture_output=True, text=True, env=dict(os.environ), check=False)
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "受付 花子" in result.stdout
