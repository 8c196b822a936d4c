"""The TUI's first screen is built from corpdir.config.first, which reads what that screen
needs without pydantic, and the whole settings are checked right after it. The two
readings must never disagree on what the first screen shows: the same service, key and
cache file, region, variant, theme, read-only state and keymap, however the settings are
written. Where the fast reader cannot be sure, it says so (None) and the start reads the
whole settings first, as before."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from corpdir.config import ServiceConfig, UiConfig, load_settings
from corpdir.config.first import FIRST_SERVICE, FIRST_UI, first_screen
from corpdir.paths import SettingsError
from tests.common.test_one_config_reader import CONFIGS, ENVIRONMENTS, FLAGS, KEY_FILES, configure, plain


def test_the_first_screen_keys_are_fields_of_the_models_with_their_defaults():
    assert {name: ServiceConfig.model_fields[name].default for name in FIRST_SERVICE} == FIRST_SERVICE
    assert {name: UiConfig.model_fields[name].default for name in FIRST_UI} == FIRST_UI


def agree(flag: str | None = None, theme: str | None = None) -> None:
    """The first screen's reading is the whole one's, where it gives one."""
    first = first_screen(flag, theme)
    settings = load_settings(service={"base_url": flag}, ui={"theme": theme})
    assert first is not None
    service = settings.service
    assert first.service.profile() == service.profile()
    assert first.service.profile().cache_path() == service.profile().cache_path()
    assert first.service.is_demo == service.is_demo
    for name in ("base_url", "api_key_file", "region", "read_only", "variant", "demo_size", "demo_seed",
                 "stale_after"):
        assert getattr(first.service, name) == plain(getattr(service, name)), name
    assert (first.ui.theme, first.ui.read_only) == (settings.ui.theme, settings.ui.read_only)
    assert first.keymap == settings.keymap


@pytest.mark.parametrize("config", CONFIGS)
def test_the_first_screen_and_the_whole_settings_agree_on_the_service(config, tmp_path, monkeypatch):
    for (env_name, env), (key_name, key_file), (flag_name, flag) in itertools.product(
            ENVIRONMENTS.items(), KEY_FILES.items(), FLAGS.items()):
        configure(tmp_path, monkeypatch, CONFIGS[config], env, key_file)
        agree(flag)


def write(config: str) -> None:
    import os

    Path(os.environ["CORPDIR_CONFIG"]).write_text(config, encoding="utf-8")


@pytest.mark.parametrize(("config", "env", "theme"), [
    ('[ui]\ntheme = "corpdir-light"\nread_only = true\n', {}, None),
    ('[ui]\ntheme = "corpdir-light"\n', {"CORPDIR_UI_THEME": "corpdir-high-contrast"}, None),
    ('[ui]\ntheme = "corpdir-light"\n', {"corpdir_ui_theme": "textual-dark"}, "  "),  # any case; a blank flag says nothing
    ("", {"CORPDIR_UI_READ_ONLY": "yes"}, "corpdir-light"),
    ("", {"CORPDIR_UI_READ_ONLY": "0", "CORPDIR_READ_ONLY": "on"}, None),
    ('[service]\nread_only = true\nvariant = "B"\nregion = "us"\n', {}, None),
    ('[service]\ndemo_size = 2000\ndemo_seed = 7\n', {"CORPDIR_DEMO_SEED": "-9"}, None),
    ('[service]\nstale_after = 60\n', {}, None),
    ("", {"CORPDIR_STALE_AFTER": " 120.5 "}, None),
    ('[keymap]\ndirectory.search = "f6"\n"app.sync" = "ctrl+y"\n', {}, None),
    # sections the first screen does not read are checked after it, not read here
    ('[gateway]\nport = 8080\n[calls]\nring_socket = false\n[messages]\n', {}, None),
    ('[ui]\nphotos = false\nunknown = 1\n', {"CORPDIR_UI_PHOTOS": "false"}, None),
])
def test_the_first_screen_and_the_whole_settings_agree_on_what_it_shows(config, env, theme, monkeypatch):
    write(config)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    agree(theme=theme)


@pytest.mark.parametrize(("config", "env"), [
    # values the whole reading must judge (it may take them, or name the rule they break)
    ('[service]\nbase_url = 12\n', {}),
    ('[service]\ndemo_size = 500.0\n', {}),
    ('[service]\ndemo_size = 5\n', {}),
    ("", {"CORPDIR_DEMO_SEED": "--5"}),
    ("", {"CORPDIR_DEMO_SEED": "٣"}),  # a digit, not an ASCII one
    ('[service]\nstale_after = -1\n', {}),
    ("", {"CORPDIR_STALE_AFTER": "15m"}),
    ('[service]\nvariant = "c"\n', {}),
    ('[service]\nregion = "Japan"\n', {}),
    ('[ui]\nread_only = "sometimes"\n', {}),
    ('[ui]\ntheme = 3\n', {}),
    ("", {"CORPDIR_UI_READ_ONLY": "Y"}),
    ('service = "KEY"\n', {}),
    ('keymap = 3\n', {}),
    # the system keyring: only the whole settings ask it
    ('[service]\nbase_url = "https://x.example/v1"\nkeyring_service = "corpdir"\n', {}),
    # busy lamps: their column is on the first screen, from the checked [calls.presence]
    ('[calls.presence]\nkind = "kamailio"\n', {}),
    ("", {"CORPDIR_CALLS_PRESENCE": '{"kind": "kamailio"}'}),
])
def test_what_the_first_screen_cannot_be_sure_of_is_left_to_the_whole_reading(config, env, monkeypatch):
    write(config)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert first_screen() is None


def test_a_file_that_is_not_toml_is_said_at_once():
    write("[service\n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        first_screen()
