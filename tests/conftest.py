"""Every test runs with its own config, data, cache and state folders: nothing reads or
writes the real home directory, and no test sees another's settings."""

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path, tmp_path_factory, monkeypatch):
    for name in [name for name in os.environ if name.startswith("CORPDIR_")]:  # every section reads some
        monkeypatch.delenv(name)
    # there, empty (a CORPDIR_CONFIG naming no file is warned about), and beside the test's
    # tmp_path, which tests look into to see what a command left behind
    config = tmp_path_factory.mktemp("config") / "config.toml"
    config.touch(mode=0o600)
    monkeypatch.setenv("CORPDIR_CONFIG", str(config))
    monkeypatch.setenv("CORPDIR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CORPDIR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CORPDIR_STATE_DIR", str(tmp_path / "state"))
    for name in ("CORPDIR_BASE_URL", "CORPDIR_API_KEY", "CORPDIR_API_KEY_FILE", "CORPDIR_REGION"):
        monkeypatch.delenv(name, raising=False)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The number of schemathesis cases the run sent (tests/server/test_schemathesis.py
    records one property per case), so the CI log shows the fuzzer ran and how much."""
    reports = [r for key in ("passed", "failed") for r in terminalreporter.stats.get(key, []) if r.when == "call"]
    cases = [value for r in reports for name, value in getattr(r, "user_properties", ()) if name == "schemathesis_case"]
    if cases:
        terminalreporter.write_line(f"schemathesis: {len(cases)} generated cases over {len(set(cases))} operations")


@pytest.fixture
def write_config():
    """Writes this test's config.toml (the file CORPDIR_CONFIG names) and returns its path."""

    def write(text: str) -> Path:
        path = Path(os.environ["CORPDIR_CONFIG"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return write
