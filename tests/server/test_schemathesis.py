"""A bounded schemathesis pass over the in-process service: generated
requests for every operation of /openapi.json answer as it says, never 5xx. The full run
(thousands of cases, all phases) is the command in docs/server.md."""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

import tests.schemathesis_hooks  # noqa: E402,F401 - JPEG uploads
from corpdir.server.app import create_app, open_storage  # noqa: E402
from corpdir.server.settings import RateLimitSettings, ServerSettings  # noqa: E402
from service_fixtures import demo_tenant  # noqa: E402

SETTINGS = ServerSettings(demo=demo_tenant(), rate_limit=RateLimitSettings(enabled=False, spots_window=False))
# the storage is passed in, so the lifespan that each generated call runs does not close it
APP = create_app(SETTINGS, storage=open_storage(SETTINGS)[0])
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
def test_generated_requests_answer_as_the_schema_says(case):
    case.call_and_validate(headers={"Authorization": "Bearer demo-admin"})
