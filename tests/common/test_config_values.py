"""Values a new user writes that looked accepted and were not: a lower-case region (every
number without +81 was "not found"), a table written as a list or as text (its value,
perhaps the API key, was echoed in the error)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir.config import SettingsError, load_settings
from corpdir.paths import lookup_settings


def mistake(write_config, config: str) -> str:
    """What loading ``config`` is refused with."""
    write_config(config)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    return str(caught.value)


def test_a_lower_case_region_is_the_country_for_both_readers(write_config):
    write_config('[service]\nregion = "us"\n')
    assert load_settings().service.region == lookup_settings()["region"] == "US"


@pytest.mark.parametrize(("region", "rule"), [
    *[(region, "is not a two-letter country code") for region in ("Japan", "81", "日本")],
    # 'XX' looked accepted: every number written without +81 was then "not found"
    *[(region, "is no country with a telephone numbering plan") for region in ("XX", "zz", "EU")],
])
def test_a_region_that_is_no_country_is_named_by_every_reader(write_config, region, rule):
    rule = f"[service] region: Value error, {region!r} {rule} (ISO 3166-1, e.g. JP or US)"
    assert mistake(write_config, f'[service]\nregion = "{region}"\n') == rule
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "lookup", "--offline", "03-1234-5678"],
                          capture_output=True, text=True, env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2 and rule in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_regions_checked_are_those_phonenumbers_has_a_plan_for():
    import phonenumbers

    from corpdir.phone_rules import REGIONS

    assert REGIONS == phonenumbers.SUPPORTED_REGIONS


@pytest.mark.parametrize(("config", "said"), [
    ('[[service]]\napi_key = "sekrit-key"\n', "[service]: must be a table, not a list of tables (write [service], not [[service]])"),
    ('service = "sekrit-key"\n', "[service]: must be a table, not text"),
    ('gateway = ["sekrit-key"]\n', "[gateway]: must be a table, not a list"),
])
def test_a_table_written_as_a_value_is_described_without_echoing_it(write_config, config, said):
    said_instead = mistake(write_config, config)
    assert said_instead == said and "sekrit" not in said_instead


@pytest.mark.parametrize("url", ["not a url", "pbx.example:8765", "ftp://pbx.example/"])
def test_a_gateway_public_url_phones_cannot_reach_is_a_mistake(write_config, url):
    """It went into every link and template the gateway serves, and `--check` fetched from it."""
    said = mistake(write_config, f'[gateway]\npublic_url = "{url}"\n')
    assert said.startswith(f"[gateway] public_url: Value error, {url!r} is not a URL phones can reach")


def test_a_gateway_public_url_that_is_blank_says_nothing(write_config):
    write_config('[gateway]\npublic_url = " "\n')
    assert load_settings().gateway.public_url is None
    write_config('[gateway]\npublic_url = "https://pbx.example/t/abc/"\n')
    assert load_settings().gateway.public_url == "https://pbx.example/t/abc/"


def test_an_unreadable_key_file_is_named_once(write_config, tmp_path):
    """The settings ask for the key several times: a sync named the missing file three times."""
    missing = tmp_path / "api-key"
    write_config(f'[service]\nbase_url = "http://127.0.0.1:9/v1"\napi_key_file = "{missing}"\n')
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "sync", "--quiet"], capture_output=True, text=True,
                          env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count(f"cannot read the API key file {missing}: FileNotFoundError") == 1, done.stderr


@pytest.mark.parametrize(("config", "said"), [
    ("[service]\ndemo_size = 5\n", "[service] demo_size: Input should be greater than or equal to 10"),
    ("[service]\nstale_after = -5\n", "[service] stale_after: Input should be greater than or equal to 0"),
])
def test_a_demo_too_small_or_a_negative_staleness_is_a_mistake(write_config, config, said):
    """demo_size = 5 ended in the demo generator's traceback; stale_after = -5 called every cache stale."""
    assert mistake(write_config, config) == said


def test_lookups_fast_reader_refuses_a_negative_staleness_as_the_settings_do(write_config):
    write_config("[service]\nstale_after = -5\n")
    with pytest.raises(SettingsError, match=r"\[service\] stale_after: Input should be greater than or equal to 0"):
        lookup_settings()


def test_the_smallest_demo_is_the_generators():
    from corpdir.config import ServiceConfig
    from corpdir.server import DEMO_MIN_SIZE

    assert [m.ge for m in ServiceConfig.model_fields["demo_size"].metadata if hasattr(m, "ge")] == [DEMO_MIN_SIZE]


def test_a_table_written_as_a_value_is_said_with_every_other_mistake(write_config):
    """It hid the rest: the user fixed it, started again, and met the next one."""
    assert mistake(write_config, 'keymap = 3\n[gateway]\nport = 99999\n[ui]\nphotos = "maybe"\n').splitlines() == [
        "[keymap]: must be a table, not 3",
        "[ui] photos: Input should be a valid boolean, unable to interpret input",
        "[gateway] port: Input should be less than or equal to 65535",
    ]


def _doctor(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "corpdir.cli", "doctor"], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize("kind", ["missing", "folder", "fifo"])
def test_a_config_file_named_and_not_there_is_warned_about_once(tmp_path, kind):
    """A typo in CORPDIR_CONFIG (a wrapper script, a unit file) started corpdir on the defaults,
    the embedded demo, without a word; so did a FIFO (never opened: it would block)."""
    named = tmp_path / {"missing": "conifg.toml", "folder": "config.d", "fifo": "config.fifo"}[kind]
    if kind == "folder":
        named.mkdir()
    if kind == "fifo":
        os.mkfifo(named)
    done = _doctor({**os.environ, "CORPDIR_CONFIG": str(named)})
    what = {"missing": "does not exist", "folder": "is a folder", "fifo": "is not a regular file"}[kind]
    assert done.stderr.count(f"CORPDIR_CONFIG names {named}, which {what}: no config file is read") == 1, done.stderr


@pytest.mark.parametrize("named", ["devnull", "present"])
def test_dev_null_or_a_file_there_says_nothing(write_config, named):
    env = {**os.environ, "CORPDIR_CONFIG": os.devnull} if named == "devnull" else {**os.environ}
    if named == "present":
        write_config("[ui]\nphotos = true\n")
    assert "CORPDIR_CONFIG" not in _doctor(env).stderr


def test_a_variable_corpdir_does_not_read_is_named_with_the_nearest_one():
    """CORPDIR_BASEURL (a typo) was dropped without a word: the app started on the demo."""
    env = {**os.environ, "CORPDIR_BASEURL": "http://127.0.0.1:9/v1", "CORPDIR_UI_THEMES": "corpdir-light",
           "CORPDIR_APIKEY": "k-3f9a-secret", "CORPDIR_NOTHING_LIKE_IT": "1",
           "CORPDIR_UI_THEME": "corpdir-light", "corpdir_ui_photos": "false", "CORPDIR_DEMO_SIZE": "60"}
    said = _doctor(env).stderr
    assert "CORPDIR_BASEURL: no such variable, ignored (did you mean CORPDIR_BASE_URL?)" in said, said
    assert "CORPDIR_UI_THEMES: no such variable, ignored (did you mean CORPDIR_UI_THEME?)" in said, said
    assert "CORPDIR_APIKEY: no such variable, ignored (did you mean CORPDIR_API_KEY?)" in said, said
    assert "CORPDIR_NOTHING_LIKE_IT: no such variable, ignored\n" in said, said
    assert "k-3f9a-secret" not in said  # a value is never shown
    # the ones read (a section's in any case, the service's, the places) are not named
    assert "CORPDIR_UI_THEME:" not in said and "corpdir_ui_photos" not in said and "CORPDIR_DEMO_SIZE" not in said
    assert "CORPDIR_CONFIG" not in said and "CORPDIR_CACHE_DIR" not in said
