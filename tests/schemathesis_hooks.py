"""schemathesis hooks for the reference service (docs/server.md, "Checking the published
schema"): ``SCHEMATHESIS_HOOKS=tests.schemathesis_hooks schemathesis run ...``.

The service judges an upload a JPEG by its content (http-contract.md), which a schema's
``format: binary`` cannot say: without real JPEGs every generated upload would be 415 and
the photo and card operations would go untested behind it.
"""

from __future__ import annotations

import io

import schemathesis
from hypothesis import strategies as st
from PIL import Image


def _jpeg(size: tuple[int, int], color: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="JPEG")
    return out.getvalue()


JPEGS = st.builds(_jpeg, st.tuples(st.integers(1, 64), st.integers(1, 64)),
                  st.tuples(*[st.integers(0, 255)] * 3))

schemathesis.openapi.media_type("image/jpeg", JPEGS)

