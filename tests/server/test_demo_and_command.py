"""The demo tenant loads and answers; `corpdir server` keeps its start-up light."""

from __future__ import annotations

import subprocess
import sys

from corpdir.cli import build_parser
from tests.server.conftest import client_for


async def test_demo_tenant_loads_and_answers_with_its_keys(make_app):
    from corpdir.server.demo import generate_tenant

    tenant = generate_tenant(size=120, seed=3, contacts=200)
    app = make_app(demo=tenant)
    assert app.state.bootstrap_key is None
    async with client_for(app, "demo-admin") as admin, client_for(app, "demo-reception") as reception, \
            client_for(app, "demo-noapi") as noapi:
        users = (await admin.get("/users", params={"pageSize": 100})).json()
        assert users["hasMore"] is True
        assert "roles" in (await admin.get("/users/1")).json()
        assert "roles" not in (await reception.get("/users/1")).json()
        assert (await noapi.get("/users")).status_code == 403
        some = tenant.users[5]
        found = (await admin.get("/users", params={"loginIds": [some["loginId"]]})).json()["items"]
        assert [u["userId"] for u in found] == [some["userId"]]
        with_phone = next(u for u in tenant.users if u.get("phoneNum"))
        items = (await admin.post("/phone-numbers/identify", json={"phoneNums": [with_phone["phoneNum"]]})).json()["items"]
        assert items[0].get("userId") == with_phone["userId"] or items[0]["phoneNumContactType"] != "USER"
        uid = next(iter(tenant.photos))
        thumb = await admin.get(f"/users/{uid}/photo", params={"size": "THUMBNAIL"})
        assert thumb.status_code == 200 and len(thumb.content) < len(tenant.photos[uid]) + 1
        assert (await admin.get("/contacts", params={"pageSize": 500})).json()["items"]
        assert (await reception.get("/me/incoming-calls")).status_code == 200


def test_server_command_options_and_light_imports():
    args = build_parser().parse_args(["server", "--port", "9000", "--data", "/tmp/x", "--variant", "B", "--demo", "--size", "50", "--seed", "2"])
    assert (args.port, args.data, args.variant, args.demo, args.size, args.seed) == (9000, "/tmp/x", "B", True, 50, 2)
    code = "import sys, corpdir.commands.server; assert 'fastapi' not in sys.modules and 'uvicorn' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


async def test_a_new_demo_server_has_calls_up_to_today(make_app, clock):
    """The embedded demo (and `corpdir server --demo`) fills a new data directory with call
    histories that end today, so the desk's views have something to show; the tenant the
    generator makes for a seed stays the same whatever the date."""
    from datetime import datetime, timedelta, timezone

    from corpdir.server.demo import generate_tenant

    app = make_app(demo=True, demo_size=40, demo_seed=1)
    now = datetime.fromtimestamp(clock(), timezone.utc)
    async with client_for(app, "demo-reception") as reception:
        newest = (await reception.get("/me/incoming-calls", params={"pageSize": 20, "orderDirection": "desc"})).json()["items"]
        oldest = (await reception.get("/me/incoming-calls", params={"pageSize": 20})).json()["items"]
    assert newest and oldest
    newest_at, oldest_at = (datetime.fromisoformat(calls[0]["calledAt"]) for calls in (newest, oldest))
    assert timedelta(0) <= now - newest_at <= timedelta(days=2)
    assert now - oldest_at <= timedelta(days=32)
    generated = generate_tenant(size=40, seed=1)
    assert generated.reference_time.year == 2025 and generated == generate_tenant(size=40, seed=1)
