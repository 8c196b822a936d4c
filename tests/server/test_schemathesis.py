"""schemathesis over the in-process service on every run of the suite:
generated requests for every operation of /openapi.json answer as it says, never 5xx, and
a schema-valid request is refused only as the document says it can be
(tests/schemathesis_hooks.py). Examples are bounded per operation so the pass costs well
under two minutes on two cores; each case is recorded as a property of its test, and
tests/conftest.py prints the total at the end of the run, so the log shows it ran. The
full run (thousands of cases, all phases) is the command in docs/server.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

import tests.schemathesis_hooks  # noqa: F401 - JPEG uploads, valid_requests_are_accepted
from corpdir.server.app import create_app, open_storage
from corpdir.server.settings import RateLimitSettings, ServerSettings
from service_fixtures import demo_tenant

EXAMPLES_PER_OPERATION = 20
CASE_PROPERTY = "schemathesis_case"  # what tests/conftest.py counts

SETTINGS = ServerSettings(demo=demo_tenant(), rate_limit=RateLimitSettings(enabled=False, spots_window=False))
# the storage is passed in, so the lifespan that each generated call runs does not close it
APP = create_app(SETTINGS, storage=open_storage(SETTINGS)[0])
CONFIG = SchemathesisConfig.from_path(str(Path(__file__).parents[2] / "schemathesis.toml"))
# fuzzing only: the coverage phase is not bounded by examples (~4,800 cases, ~50 s of CPU
# on the demo tenant); docs/server.md's command runs it
CONFIG.projects.default.phases.coverage.enabled = False
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck))
def test_generated_requests_answer_as_the_schema_says(case: Any, record_property: Callable[[str, object], None]):
    record_property(CASE_PROPERTY, case.operation.label)
    case.call_and_validate(headers={"Authorization": "Bearer demo-admin"})
