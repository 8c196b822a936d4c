"""What the command-line tests share: the reference server on 127.0.0.1, one a module."""

import pytest

from service_fixtures import LiveServer, make_server


@pytest.fixture(scope="module")
def server():
    live = LiveServer(make_server())
    yield live
    live.stop()
