"""A typo in the config file (``[servce]``, ``base_ulr``) is named on stderr, with its line
and the nearest real name, and the command still starts; a section that refuses unknown
keys (``[messages]``, a feed) names the nearest real key in its mistake."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir.config import SettingsError, load_settings

TYPOS = """\
[servce]
base_url = "https://directory.example.com/v1"

[service]
region = "JP"
base_ulr = "https://directory.example.com/v1"

[gateway]
prot = 8080

[ui]
zzzz = 1

[keymap]
app.lookup = "ctrl+l"
"""


def test_a_command_names_each_typo_its_line_and_the_nearest_name_and_still_runs(write_config):
    path = write_config(TYPOS)
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "doctor"], capture_output=True, text=True,
                          env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "service: the embedded demo" in done.stdout  # base_ulr was not taken for base_url
    warnings = [line for line in done.stderr.splitlines() if "no such" in line]
    assert warnings == [
        f"corpdir: {path}, line 1: [servce]: no such table, ignored (did you mean [service]?)",
        f"corpdir: {path}, line 6: [service] base_ulr: no such setting, ignored (did you mean base_url?)",
        f"corpdir: {path}, line 9: [gateway] prot: no such setting, ignored (did you mean port?)",
        f"corpdir: {path}, line 12: [ui] zzzz: no such setting, ignored (known: photos, read_only, theme)",
    ], done.stderr


def test_each_typo_is_said_once_however_often_the_settings_are_read(write_config, caplog):
    write_config("[gateway]\nport = 8080\nalow = [\"10.0.0.0/8\"]\n")
    load_settings()
    load_settings()
    said = [r.getMessage() for r in caplog.records if r.name == "corpdir.config"]
    assert len(said) == 1 and "[gateway] alow: no such setting, ignored (did you mean allow?)" in said[0]


def test_a_file_without_typos_says_nothing(write_config, caplog):
    write_config('[service]\nbase_url = "https://d.example/v1"\nregion = "US"\n[calls]\nrecent_calls = 2\n'
                 '[keymap]\nnot.a.binding = "f6"\n')
    assert (load_settings().service.base_url, load_settings().service.region) == ("https://d.example/v1", "US")
    assert not [r for r in caplog.records if r.name == "corpdir.config"]


@pytest.mark.parametrize(("config", "said"), [
    ('[messages]\nsmtp_hots = "mail.example.com"\n', "[messages] smtp_hots: no such setting (did you mean smtp_host?)"),
    ('[[calls.feeds]]\nname = "p"\nkind = "baresip"\nprot = 4444\n',
     "[calls] feeds[0].baresip.prot: no such setting (did you mean port?)"),
    ('[calls.presence]\nkind = "kamailio"\nevap = "127.0.0.1:8448"\n',
     "[calls] presence.kamailio.evap: no such setting (did you mean evapi?)"),
])
def test_a_section_that_refuses_unknown_keys_names_the_nearest(write_config, config, said):
    write_config(config)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert said in str(caught.value).splitlines()
