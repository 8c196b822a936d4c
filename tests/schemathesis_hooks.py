"""schemathesis hooks for the reference service (docs/server.md, "Checking the published
schema"): ``SCHEMATHESIS_HOOKS=tests.schemathesis_hooks schemathesis run ...``.

The service judges an upload a JPEG by its content (http-contract.md), which a schema's
``format: binary`` cannot say: without real JPEGs every generated upload would be 415 and
the photo and card operations would go untested behind it.

``valid_requests_are_accepted`` stands in for schemathesis's ``positive_data_acceptance``
(turned off in schemathesis.toml), whose list of accepted statuses is one for every
operation: a schema-valid request may be refused only for the key, a missing path
resource or the rate limit, or with an answer the operation's openapi document marks
``x-valid-request-refusal`` (a reference to something that does not exist, the last
administrator...), and then, for a 400, with only the detail codes it names.
"""

from __future__ import annotations

import io
import json
from typing import Any

import schemathesis
from hypothesis import strategies as st
from PIL import Image

# refusals a schema never promises against: the caller's key, an id in the path, the rate limit
ALWAYS_ALLOWED = {401, 403, 404, 429}


def _jpeg(size: tuple[int, int], color: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="JPEG")
    return out.getvalue()


JPEGS = st.builds(_jpeg, st.tuples(st.integers(1, 64), st.integers(1, 64)),
                  st.tuples(*[st.integers(0, 255)] * 3))

schemathesis.openapi.media_type("image/jpeg", JPEGS)


def _detail_codes(text: str) -> set[str]:
    try:
        return {d.get("code", "") for d in json.loads(text)["error"]["details"]}
    except (ValueError, KeyError, TypeError, AttributeError):
        return set()


@schemathesis.check
def valid_requests_are_accepted(ctx: Any, response: Any, case: Any) -> bool | None:
    meta = case.meta
    status = response.status_code
    if meta is None or not meta.generation.mode.is_positive or status < 400 or status >= 500 or status in ALWAYS_ALLOWED:
        return None
    documented = case.operation.definition.raw.get("responses", {}).get(str(status), {})
    reasons = documented.get("x-valid-request-refusal")
    if reasons and (status != 400 or all(any(code and code in r for r in reasons) for code in _detail_codes(response.text))):
        return None
    raise AssertionError(f"A schema-valid request was refused with {status}, which the document does not give as an answer "
                         f"to a valid request of {case.operation.label}: {response.text[:500]}")
