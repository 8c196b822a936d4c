"""`corpdir lookup`'s light start-up: a plain command line is parsed as argparse would
(help and errors are argparse's), and the start imports neither argparse nor platformdirs
nor OpenSSL (tests/common/test_paths.py: the folders and names agree all the same)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import pytest

from corpdir import cli
from corpdir.commands import lookup


def argparse_result(argv: list[str]) -> dict | str:
    try:
        return vars(cli.build_parser("lookup").parse_args(["lookup", *argv]))
    except SystemExit as exc:
        return f"exit {exc.code}"


TOKENS = ["03-1234-5678", "+81 3 1234 5678", "", "abc", "-5", "-", "--", "--json", "--stdin", "--offline",
          "--base-url", "--base-url=http://x/v1", "--base-url=", "http://y/v1", "--off", "-h", "--help", "--theme",
          "--json=1", "-x 1"]


@pytest.mark.parametrize("length", [0, 1, 2, 3])
def test_plain_parse_agrees_with_argparse(length, capsys):
    for argv in itertools.product(TOKENS, repeat=length):
        argv = list(argv)
        fast = lookup.parse_plain(argv)
        if fast is not None:  # None: argparse decides (help, errors, the unusual)
            assert vars(fast) == argparse_result(argv), argv
    capsys.readouterr()


def test_everyday_command_lines_take_the_plain_parse():
    for argv in (["03-1234-5678"], ["--offline", "1", "2"], ["--json", "--base-url", "http://x/v1", "1"],
                 ["1", "2", "--json"], ["--stdin", "--offline"]):
        assert lookup.parse_plain(argv) is not None, argv
        assert vars(cli.parse_args(["lookup", *argv])) == argparse_result(argv)


def test_help_and_errors_are_argparse(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["lookup", "--help"])
    assert exc.value.code == 0 and "--offline" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["lookup", "1", "--json", "2"])
    assert exc.value.code == 2 and "unrecognized arguments: 2" in capsys.readouterr().err


def test_lookup_start_up_imports_neither_argparse_nor_platformdirs_nor_openssl(tmp_path):
    code = ("import sys; sys.argv=['corpdir','lookup','--offline','03-1234-5678']\n"
            "from corpdir import cli\ncode = cli.main()\n"
            "avoided = ('argparse', 'platformdirs', '_hashlib', 'hashlib')\n"
            "assert not [m for m in avoided if m in sys.modules], [m for m in avoided if m in sys.modules]\n"
            "sys.exit(code)")
    env = {**os.environ, "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1", "CORPDIR_API_KEY": "k"}
    for name in ("CORPDIR_CACHE_DIR", "CORPDIR_CONFIG", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        env.pop(name, None)  # the default folders, as a user has them
    env["HOME"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 1, result.stderr  # no cache: not found, and no traceback
    assert "03-1234-5678\t-\tnot found" in result.stdout
