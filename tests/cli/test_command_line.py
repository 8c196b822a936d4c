"""The command line as its help describes it: a version, every option explained, every
exit status listed (in --help and in README), options and arguments in either order."""

from __future__ import annotations

import argparse
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from corpdir.cli import COMMANDS, EXIT_STATUS, build_parser, parse_args

README = Path(__file__).resolve().parents[2] / "README.md"


def test_version():
    result = subprocess.run([sys.executable, "-m", "corpdir.cli", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == f"corpdir {version('corpdir')}"


def test_export_takes_its_options_before_the_kind_as_the_help_shows_them():
    args = parse_args(["export", "--search", "田中", "users"])
    assert args.kind == "users" and args.search == ["田中"]
    assert parse_args(["export", "contacts", "--search", "田中 一郎"]).search == ["田中", "一郎"]


def _options(parser: argparse.ArgumentParser, name: str):
    for action in parser._actions:  # argparse has no public list of its actions
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _options(sub, sub_name)
        else:
            yield name, action


def test_every_option_of_every_command_has_help_text():
    missing = [(name, action.option_strings or action.dest) for name, action in _options(build_parser(), "corpdir")
               if not action.help or action.help == argparse.SUPPRESS]
    assert missing == []


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_exit_status_is_in_help_and_readme(command):
    argv = [command, "--help"] if command else ["--help"]
    shown = subprocess.run([sys.executable, "-m", "corpdir.cli", *argv], capture_output=True, text=True)
    assert shown.returncode == 0
    assert " ".join(("exit status: " + EXIT_STATUS[command]).split()) in " ".join(shown.stdout.split())
    assert f"| `corpdir{' ' + command if command else ''}` | {EXIT_STATUS[command]} |" in README.read_text(encoding="utf-8")


@pytest.mark.parametrize("number", ["", "  "])
def test_ring_with_an_empty_number_is_a_usage_error_not_a_withheld_call(number, capsys):
    """A script's unset variable (`corpdir ring "$CALLER"`) popped up "Number withheld"."""
    with pytest.raises(SystemExit) as exited:
        parse_args(["ring", number])
    said = capsys.readouterr().err
    assert exited.value.code == 2 and "argument number: is empty" in said and "'anonymous'" in said
    assert parse_args(["ring", "anonymous"]).number == "anonymous"  # a withheld caller, as a phone system names it
