"""A config file with a mistake, as a new user writes one, stops each command with status 2
and a message naming the file or the table, key and rule: `corpdir lookup`'s fast reader
(no pydantic) included, and never a traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest


def corpdir(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "corpdir.cli", *args], capture_output=True, text=True,
                          env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize(("config", "said"), [
    ('[service]\nbase_url = 12\n', "[service] base_url: Input should be a valid string"),
    ("service = 3\n", "[service]: must be a table, not 3"),
    ('[service]\nstale_after = "15m"\n', "[service] stale_after: Input should be a valid number"),
    ('[service]\nbase_url = "http://127.0.0.1:9/v1"\napi_key_file = 3\n', "[service] api_key_file:"),
])
def test_lookup_names_a_mistyped_service_setting(write_config, config, said):
    write_config(config)
    done = corpdir("lookup", "03-1234-5678")
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("command", [["lookup", "03-1234-5678"], ["doctor"], ["sync", "--quiet"]])
def test_a_config_file_that_is_not_utf8_is_named(command):
    """Saved as Shift_JIS (テスト), as an editor on a Japanese desk may do."""
    path = Path(os.environ["CORPDIR_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes('[ui]\ntheme = "テスト"\n'.encode("shift_jis"))
    done = corpdir(*command)
    assert done.returncode == 2
    assert f"{path}: not UTF-8 text" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_lookup_keeps_answering_with_a_mistake_outside_the_service_section(write_config, server):
    """Caller ID reads [service] alone: a mistyped gateway port, a feed with a missing login,
    a mistyped mail key stop `corpdir gateway` and the TUI, not the name on a ringing phone,
    whether the cache or the service answers (docs/configuration.md)."""
    import json

    import lookup_helpers
    from service_fixtures import demo_tenant

    write_config('[gateway]\nport = -1\n[[calls.feeds]]\nname = "p"\nkind = "ami"\n[messages]\nsmtp_hots = "x"\n')
    lookup_helpers.fill_cache(server.base_url, [{"userId": 9001, "fullname": "山田 太郎", "phoneNum": "03-1234-5678"}])
    someone = next(u for u in demo_tenant().users if u.get("phoneNum", "").startswith("03-"))
    done = lookup_helpers.lookup("03-1234-5678", someone["phoneNum"], "--json", base_url=server.base_url)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    cached, asked = map(json.loads, done.stdout.splitlines())
    assert (cached["who"], cached["source"]) == ("山田 太郎", "cache")
    assert (asked["who"], asked["source"]) == (someone["fullname"], "service")
    sync = corpdir("sync", "--quiet")  # every other command still stops on them
    assert sync.returncode == 2 and "[gateway] port:" in sync.stderr and "smtp_hots" in sync.stderr
