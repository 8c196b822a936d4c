"""The packages load names on first use, so the TUI paints its first rows before httpx,
the operation table or Pillow are imported (docs/decisions.md, "Start-up order")."""

import subprocess
import sys

import corpdir.client
import corpdir.spec


def test_every_exported_name_resolves():
    for package in (corpdir.spec, corpdir.client):
        for name in package.__all__:
            assert getattr(package, name) is not None, f"{package.__name__}.{name}"
    assert callable(corpdir.client.diff)  # the function, not its submodule of the same name


def test_the_first_screen_imports_no_http_client_operation_table_pillow_or_other_screens_models():
    code = ("import sys\n"
            "from corpdir.config import load_settings\n"
            "from corpdir.service.directory import DirectoryService\n"
            "import corpdir.tui.app, corpdir.tui.screens.directory\n"
            "print(sorted(m for m in ('httpx', 'corpdir.spec.operations', 'PIL', 'rich_pixels', 'corpdir.spec.contact',"
            " 'corpdir.spec.calls') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
