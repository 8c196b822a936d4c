"""The layering of architecture.md: nothing below the UI imports Textual."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["corpdir.spec", "corpdir.client", "corpdir.cache", "corpdir.cli"])
def test_module_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; assert 'textual' not in sys.modules, sorted(m for m in sys.modules if m.startswith('textual'))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
