"""cache/lean.py: the C halves `corpdir lookup` reads the cache through answer as the
public modules do, and hand anything else to them."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpdir.cache import lean

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _same(a, b) -> bool:
    """Equal, NaN counting as equal to NaN (json reads 'NaN' as a float NaN)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.sampled_from([(",", ":"), (", ", ": ")]), st.booleans())
def test_loads_reads_what_json_dumps_wrote_as_json_loads_does(value, separators, ascii_only):
    text = json.dumps(value, separators=separators, ensure_ascii=ascii_only)
    assert _same(lean.loads(text), json.loads(text))
    assert _same(lean.loads(text.encode()), json.loads(text.encode()))


@pytest.mark.parametrize("text", [' {"a": 1}', '{"a": 1} ', '{"a": 1}x', '{"a": ', "", "[1,]", '"\\ud800"', "nul", "{'a': 1}"])
def test_anything_else_gets_json_loads_answer_or_its_error(text):
    try:
        want = json.loads(text)
    except json.JSONDecodeError as exc:
        with pytest.raises(json.JSONDecodeError) as got:
            lean.loads(text)
        assert (got.value.msg, got.value.pos) == (exc.msg, exc.pos)
    else:
        assert lean.loads(text) == want


def test_the_sqlite_connection_is_the_public_modules():
    import sqlite3

    conn = lean.sqlite3.connect(":memory:")
    assert isinstance(conn, sqlite3.Connection) and lean.sqlite3.OperationalError is sqlite3.OperationalError
    conn.close()


def test_zstd_loaded_by_path_is_the_module_the_package_then_uses():
    """In a fresh process: the C module first, then the package, which must share it (one
    set of types), and a frame the package wrote with a dictionary is read back."""
    code = (
        "from corpdir.cache import lean\n"
        "z = lean.zstd()\n"
        "assert z is not None\n"
        "import sys\n"
        "assert 'backports.zstd' not in sys.modules or sys.version_info >= (3, 14)\n"
        "d = z.ZstdDict(b'corpdir record ' * 40, is_raw=True).as_digested_dict\n"
        "from corpdir.cache.blobs import _zstd\n"
        "pub = _zstd()\n"
        "assert getattr(pub, '_zstd', z) is z or sys.version_info >= (3, 14)\n"
        "data = pub.compress(b'corpdir record 1', zstd_dict=d) + pub.compress(b'!', zstd_dict=d)\n"
        "assert lean.zstd_decompress(data, d) == pub.decompress(data, zstd_dict=d) == b'corpdir record 1!'\n"
        "try:\n"
        "    lean.zstd_decompress(data[:-2], d)\n"
        "except pub.ZstdError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('a cut frame must fail')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
