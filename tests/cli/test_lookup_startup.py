"""`corpdir lookup`'s command line: its own small argparse parser (help and errors name
`corpdir lookup`), and a start that imports neither pydantic nor platformdirs nor OpenSSL
(tests/common/test_paths.py: the folders and names agree all the same)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir import cli


@pytest.mark.parametrize(("argv", "expected"), [
    (["03-1234-5678"], {"numbers": ["03-1234-5678"], "json": False, "stdin": False, "offline": False, "base_url": None}),
    (["--offline", "1", "2"], {"numbers": ["1", "2"], "offline": True}),
    (["--json", "--base-url", "http://x/v1", "1"], {"numbers": ["1"], "json": True, "base_url": "http://x/v1"}),
    (["1", "2", "--json"], {"numbers": ["1", "2"], "json": True}),
    (["--stdin", "--offline"], {"numbers": [], "stdin": True, "offline": True}),
    (["--", "-5"], {"numbers": ["-5"]}),  # a dash-led "number" after --
    (["--off", "1"], {"offline": True}),  # argparse's abbreviations
])
def test_lookup_command_lines(argv, expected):
    args = vars(cli.parse_args(["lookup", *argv]))
    assert args["command"] == "lookup"
    assert {k: args[k] for k in expected} == expected


def test_help_and_errors_name_corpdir_lookup_and_only_its_options(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["lookup", "--help"])
    said = capsys.readouterr().out
    assert exc.value.code == 0 and said.startswith("usage: corpdir lookup") and "--offline" in said
    assert "--theme" not in said and "--read-only" not in said  # the TUI's flags are not lookup's
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["lookup", "1", "--json", "2"])
    assert exc.value.code == 2 and "corpdir lookup: error: unrecognized arguments: 2" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["lookup", "--theme", "x", "1"])
    assert exc.value.code == 2 and "unrecognized arguments: --theme" in capsys.readouterr().err


def test_the_whole_command_line_still_lists_lookup(capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--help"])
    assert "lookup" in capsys.readouterr().out


def _lookup_leaving_out(number: str, avoided: tuple[str, ...]) -> str:
    """A program that runs `corpdir lookup --offline NUMBER` in its process and fails if any
    of ``avoided`` was imported on the way."""
    return (f"import sys; sys.argv=['corpdir','lookup','--offline',{number!r}]\n"
            "from corpdir import cli\ncode = cli.main()\n"
            f"avoided = {avoided!r}\n"
            "assert not [m for m in avoided if m in sys.modules], [m for m in avoided if m in sys.modules]\n"
            "sys.exit(code)")


def test_lookup_start_up_imports_neither_pydantic_nor_platformdirs_nor_openssl(tmp_path):
    code = _lookup_leaving_out("03-1234-5678", ("pydantic", "platformdirs", "_hashlib", "hashlib", "httpx"))
    env = {**os.environ, "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1", "CORPDIR_API_KEY": "k"}
    for name in ("CORPDIR_CACHE_DIR", "CORPDIR_CONFIG", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        env.pop(name, None)  # the default folders, as a user has them
    env["HOME"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 2, result.stderr  # --offline with no cache: said, and no traceback
    assert "no cache" in result.stderr and result.stdout == ""


def test_lookup_start_up_leaves_out_typing_and_shutil(tmp_path):
    """The argparse parser costs the lookup ~23 M instructions; leaving typing (~14 M) and
    shutil (~7 M) out of the start-up path pays for it (docs/performance.md). Run without
    `site`, whose hook on some machines imports typing itself: only corpdir's own imports count."""
    import corpdir

    code = _lookup_leaving_out("03-1234-5678", ("typing", "shutil"))
    env = {**os.environ, "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1", "CORPDIR_API_KEY": "k", "HOME": str(tmp_path),
           "PYTHONPATH": os.path.dirname(os.path.dirname(corpdir.__file__))}
    for name in ("CORPDIR_CACHE_DIR", "CORPDIR_CONFIG", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        env.pop(name, None)
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 2, result.stderr  # --offline with no cache: said, and no traceback
    assert "no cache" in result.stderr and result.stdout == ""


def test_a_cache_hit_reads_its_record_without_typing_shutil_or_pydantic(tmp_path):
    """As above, but the number is in the cache: the record is expanded (Zstandard, from
    the installed backport or the standard library) and printed, and the start-up still
    leaves out typing, shutil, pydantic, platformdirs, hashlib and httpx, and argparse and
    pathlib (docs/performance.md, "the import budget of a cache hit")."""
    import site

    import corpdir
    from corpdir.cache.store import CacheStore
    from corpdir.paths import cache_file

    store = CacheStore(cache_file("http://127.0.0.1:9/v1", "k", tmp_path / "cache"))
    store.put_users([{"userId": 7, "loginId": "yamada", "fullname": "山田 太郎", "phoneNum": "03-1234-5678"}])
    store.close()
    code = _lookup_leaving_out("０３−１２３４−５６７８", ("typing", "shutil", "pydantic", "platformdirs", "hashlib", "_hashlib", "httpx",
                                                "argparse", "gettext", "pathlib"))
    env = {**os.environ, "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1", "CORPDIR_API_KEY": "k", "HOME": str(tmp_path),
           "CORPDIR_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([os.path.dirname(os.path.dirname(corpdir.__file__)), *site.getsitepackages()])}
    env.pop("CORPDIR_CONFIG", None)
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr
    assert "山田 太郎" in result.stdout


@pytest.mark.parametrize("argv", [
    ["03-1234-5678"], ["1", "2", "--json"], ["--json", "1", "2"], ["--offline", "--stdin"], ["--fresh", "1"],
    ["--base-url", "http://x/v1", "1"], ["--base-url=http://x/v1", "1"], ["1", "--base-url", "http://x/v1"],
    ["+81 3-1234-5678", "０３−１２３４−５６７８"], ["--json", "--json", "1"], [],
])
def test_the_plain_reading_of_a_command_line_is_argparse_s(argv):
    """What the lookup reads without argparse is exactly what argparse reads."""
    from corpdir.commands import lookup

    plain = lookup.parse_plain(argv)
    assert plain is not None
    assert vars(plain) == vars(lookup.parse_with_argparse(argv))


@pytest.mark.parametrize("argv", [
    ["1", "--json", "2"], ["--off", "1"], ["--", "-5"], ["-5"], ["--base-url"], ["--base-url", "--json", "1"],
    ["--help"], ["-h"], ["--json=1", "1"], ["--bogus", "1"],
])
def test_every_other_command_line_is_left_to_argparse(argv):
    from corpdir.commands import lookup

    assert lookup.parse_plain(argv) is None


@pytest.mark.parametrize(("number", "status"), [
    ("03-1234-5678", 0), ("０３−１２３４−５６７８", 0), ("+81 3-1234-5678", 0), ("81312345678", 0),
    ("sip:0312345678@pbx;user=phone", 0), ("TEL:+81-3-1234-5678;phone-context=x", 0),
    ("anonymous", 3), ("03-0000-0009", 1), ("1234", 1),
])
def test_a_cache_hit_in_the_usual_number_forms_imports_no_re(tmp_path, number, status):
    """The forms a PBX usually sends are read without `re` (with enum ~26 M instructions of
    a ~71 M lookup), the record without `datetime` (sqlite3's adapters), `json.decoder` or
    the Zstandard package's Python half (cache/lean.py; docs/performance.md). A form the
    region's rules cannot read ('0081...' or a line prefix before '0081': phonenumbers' full
    parse decides those) still imports phonenumbers and with it `re`, as before, and a
    URL-encoded one `urllib.parse`."""
    import site

    import corpdir
    from corpdir.cache.store import CacheStore
    from corpdir.paths import cache_file

    store = CacheStore(cache_file("http://127.0.0.1:9/v1", "k", tmp_path / "cache"))
    store.put_users([{"userId": 7, "loginId": "yamada", "fullname": "山田 太郎", "phoneNum": "03-1234-5678"}])
    store.close()
    code = _lookup_leaving_out(number, ("re", "enum", "datetime", "json.decoder", "backports.zstd", "phonenumbers"))
    env = {**os.environ, "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1", "CORPDIR_API_KEY": "k", "HOME": str(tmp_path),
           "CORPDIR_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([os.path.dirname(os.path.dirname(corpdir.__file__)), *site.getsitepackages()])}
    env.pop("CORPDIR_CONFIG", None)
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == status, result.stderr
    assert result.stdout.split("\t")[1] == {0: "山田 太郎", 1: "-", 3: "withheld"}[status]
