"""What the start warns about (an unknown key in the config file, a file holding a secret
open to others) is shown in the app: on stderr alone it was hidden by the app's screen the
moment it started, and read only after quitting (corpdir.commands.tui.warnings_kept)."""

from __future__ import annotations

import logging

import pytest

from corpdir.commands.tui import warnings_kept
from ssh_helpers import corpdir_in_a_terminal, demo_home_env, prepare_demo_home


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("start-notes")
    prepare_demo_home(home)
    return home


def screen_once(env: dict[str, str], *words: str) -> str:
    """The terminal's text once every one of ``words`` is on it."""
    return corpdir_in_a_terminal(env, lambda screen: all(word in screen.text() for word in words))


def test_an_unknown_key_in_the_config_file_is_shown_in_the_app(demo_home, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nthem = "corpdir-light"\n', encoding="utf-8")
    config.chmod(0o600)
    text = screen_once({**demo_home_env(demo_home), "CORPDIR_CONFIG": str(config)}, "by name", "them:", "theme?)")
    assert "by name" in text, text  # the app is running: the list is on screen
    # the notification's lines (the path wraps where the test's folder name says)
    assert all(word in text for word in ("Settings", "[ui] them:", "setting,", "ignored", "theme?)")), text


def test_a_config_file_open_to_others_is_shown_in_the_app(demo_home, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[ui]\ntoken = "s3cr3t-value"\n', encoding="utf-8")  # any key named so counts
    config.chmod(0o644)
    text = screen_once({**demo_home_env(demo_home), "CORPDIR_CONFIG": str(config)}, "by name", "chmod")
    assert "by name" in text, text
    assert all(word in text for word in ("Settings", "holds", "ui.token", "others", "chmod")), text
    assert "s3cr3t-value" not in text  # named, never shown


def test_the_kept_warnings_still_reach_the_handlers_configured(caplog, capsys):
    caplog.set_level(logging.WARNING)
    with warnings_kept("corpdir.config") as notes:
        logging.getLogger("corpdir.config").warning("corpdir: %s", "[ui] them: no such setting")
        logging.getLogger("corpdir.gateway").warning("not one of those named")
    logging.getLogger("corpdir.config").warning("after the start")
    assert notes == ["[ui] them: no such setting"]
    assert [r.getMessage() for r in caplog.records] == ["corpdir: [ui] them: no such setting", "not one of those named",
                                                        "after the start"]
    assert "them" not in capsys.readouterr().err  # handled there: not printed on stderr a second time


def test_with_no_handler_the_kept_warnings_still_go_to_stderr(capsys):
    root = logging.getLogger()
    theirs = root.handlers[:]  # as `corpdir` runs: no handler anywhere (pytest adds its own; given back after)
    for handler in theirs:
        root.removeHandler(handler)
    try:
        with warnings_kept("corpdir.config") as notes:
            logging.getLogger("corpdir.config").warning("corpdir: %s", "[ui] them: no such setting")
    finally:
        for handler in theirs:
            root.addHandler(handler)
    assert notes == ["[ui] them: no such setting"]
    assert "corpdir: [ui] them: no such setting" in capsys.readouterr().err
