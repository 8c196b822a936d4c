"""`corpdir` paints its first screen before pydantic is imported (issue 28: the start within
2x a bare Textual app): the settings that screen needs are read without it
(corpdir.config.first), the first rows and divisions as plain records (corpdir.cache.plain),
and the whole settings are checked right after. Run as a user runs it, under a terminal."""

from __future__ import annotations

import pytest

from ssh_helpers import corpdir_in_a_terminal, demo_home_env, prepare_demo_home

# corpdir run by an interpreter that notes, when pydantic is first imported, which
# functions were running then (the probe reads no private state of the app)
PROBE = """
import importlib.abc, os, runpy, sys, traceback

class Probe(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "pydantic":
            sys.meta_path.remove(self)
            with open(os.environ["PROBE_OUT"], "w") as out:
                out.write("\\n".join(frame.name for frame in traceback.extract_stack()))
        return None

sys.meta_path.insert(0, Probe())
sys.argv = ["corpdir", *sys.argv[1:]]
runpy.run_module("corpdir.cli", run_name="__main__")
"""


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("fast-start")
    prepare_demo_home(home)
    return home


def test_pydantic_is_first_imported_by_the_check_after_the_first_rows(demo_home, tmp_path):
    out = tmp_path / "stack.txt"
    env = {**demo_home_env(demo_home), "PROBE_OUT": str(out)}
    text = corpdir_in_a_terminal(env, lambda screen: "by name" in screen.text() and out.exists(),
                                 python=("-c", PROBE))
    assert "by name" in text, text  # the list is on screen
    stack = out.read_text().splitlines()
    # imported by the settings' check, which runs once the first rows are painted
    assert "_first_rows_painted" in stack and "settings_checked" in stack, stack


def test_a_setting_that_breaks_a_rule_still_ends_corpdir_with_its_rule(demo_home, tmp_path):
    """Checked after the first screen now, a mistyped gateway port ends `corpdir` as it did
    when it was checked before: status 2, the section, key and rule."""
    config = tmp_path / "config.toml"
    config.write_text('[gateway]\nport = "eighty"\n', encoding="utf-8")
    config.chmod(0o600)
    status: list[int] = []
    text = corpdir_in_a_terminal({**demo_home_env(demo_home), "CORPDIR_CONFIG": str(config)},
                                 lambda screen: False, status=status)
    assert status == [2], text
    assert "the configuration is not usable" in text and "[gateway] port" in text, text


def test_busy_lamps_are_read_with_the_whole_settings_before_the_first_screen(demo_home, tmp_path):
    """[calls.presence] puts a lamp column on the first screen: that screen then waits for the
    whole settings (corpdir.config.first), and pydantic comes before its rows."""
    out = tmp_path / "stack.txt"
    config = tmp_path / "config.toml"
    config.write_text(f'[calls.presence]\nkind = "kamailio"\nevapi = "127.0.0.1:9"\nrpc_socket = "{tmp_path}/none.sock"\n',
                      encoding="utf-8")
    config.chmod(0o600)
    env = {**demo_home_env(demo_home), "PROBE_OUT": str(out), "CORPDIR_CONFIG": str(config)}
    corpdir_in_a_terminal(env, lambda screen: out.exists(), python=("-c", PROBE))
    stack = out.read_text().splitlines()
    assert "_first_rows_painted" not in stack and "load" in stack, stack
