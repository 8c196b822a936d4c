"""The layering of architecture.md: nothing below the UI imports Textual.

``corpdir.spec`` and ``corpdir.client`` load their names lazily (PEP 562), so importing the
package alone loads almost nothing: every module under spec, client and cache is imported
too, and each lazily exported name resolved, so a Textual import in any of them is caught.
"""

import subprocess
import sys

import pytest

_IMPORT_ALL = """
import importlib, pkgutil, sys
package = importlib.import_module({module!r})
for info in pkgutil.walk_packages(getattr(package, "__path__", []), package.__name__ + "."):
    importlib.import_module(info.name)
for name in getattr(package, "__all__", ()):
    getattr(package, name)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


@pytest.mark.parametrize("module", ["corpdir.spec", "corpdir.client", "corpdir.cache", "corpdir.cli"])
def test_module_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; assert 'textual' not in sys.modules, sorted(m for m in sys.modules if m.startswith('textual'))"
    result = _run(code)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("module", ["corpdir.spec", "corpdir.client", "corpdir.cache"])
def test_every_module_of_the_package_is_free_of_textual(module: str) -> None:
    code = _IMPORT_ALL.format(module=module) + (
        "loaded = sorted(m for m in sys.modules if m.startswith(package.__name__ + '.'))\n"
        "assert len(loaded) > 2, loaded\n"
        "assert 'textual' not in sys.modules, sorted(m for m in sys.modules if m.startswith('textual'))\n"
    )
    result = _run(code)
    assert result.returncode == 0, result.stderr


def test_spec_is_the_bottom_layer() -> None:
    """spec is shared by client and server: it imports no other corpdir package and no I/O library."""
    code = _IMPORT_ALL.format(module="corpdir.spec") + (
        "others = sorted(m for m in sys.modules if m.startswith('corpdir.') and not m.startswith('corpdir.spec'))\n"
        "assert not others, others\n"
        "io = [m for m in ('httpx', 'sqlite3', 'fastapi', 'starlette', 'PIL', 'textual') if m in sys.modules]\n"
        "assert not io, io\n"
    )
    result = _run(code)
    assert result.returncode == 0, result.stderr
