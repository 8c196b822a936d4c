"""`corpdir bulk` speaks of destinations and spots, never of the operations behind them
(U11, L1): its help, a refusal by the service (403) and a service that has no bulk
operation at all each say what was not done in the user's words."""

from __future__ import annotations

import contextlib
import io
import re

import httpx
import pytest

from corpdir.cli import main
from corpdir.client import DirectoryClient
from corpdir.commands.bulk import run_bulk
from corpdir.config import ServiceConfig
from corpdir.service.directory import DirectoryService
from corpdir.cache.store import CacheStore
from service_fixtures import BASE_URL, make_server, make_service

CODES = re.compile(r"\b(U11|L1)\b")
ROWS = {"destinations": "loginId,destinationId,destinationName\nreception,1,受付\n",
        "spots": "bleId,spotId\ntag-1,lobby\n"}


def test_the_help_names_destinations_and_spots_not_operations():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["bulk", "--help"])
    assert "destinations" in out.getvalue() and "spots" in out.getvalue()
    assert not CODES.search(out.getvalue()), out.getvalue()


@pytest.mark.parametrize("kind, words", [("destinations", "edit destinations in bulk"),
                                         ("spots", "register spot information")])
async def test_a_refusal_says_what_may_not_be_done(kind, words, tmp_path):
    path = tmp_path / f"{kind}.csv"
    path.write_text(ROWS[kind], encoding="utf-8")
    service = make_service(api_key="demo-reception")
    try:
        err = io.StringIO()
        assert await run_bulk(service, kind, str(path), io.StringIO(), err) == 2
    finally:
        await service.close()
    assert words in err.getvalue() and "Nothing was changed." in err.getvalue(), err.getvalue()
    assert not CODES.search(err.getvalue()), err.getvalue()


@pytest.mark.parametrize("kind", ["destinations", "spots"])
async def test_a_service_without_bulk_says_so_in_words(kind, tmp_path):
    path = tmp_path / f"{kind}.csv"
    path.write_text(ROWS[kind], encoding="utf-8")
    settings = ServiceConfig(base_url=BASE_URL, api_key="demo-admin", variant="A", max_retries=1)
    client = DirectoryClient(settings, transport=httpx.ASGITransport(app=make_server(variant="A")))
    service = DirectoryService(client, CacheStore(":memory:"), settings)
    try:
        err = io.StringIO()
        assert await run_bulk(service, kind, str(path), io.StringIO(), err) == 2
    finally:
        await service.close()
    assert f"does not take {kind} in bulk" in err.getvalue()
    assert not CODES.search(err.getvalue()), err.getvalue()
