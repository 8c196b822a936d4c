import pytest

from service_fixtures import make_service


@pytest.fixture
async def service():
    """A synced DirectoryService on the small demo tenant, as the reception user."""
    svc = make_service()
    await svc.sync.run()
    yield svc
    await svc.close()


@pytest.fixture
def make_app(service):
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    def build(**kwargs):
        kwargs.setdefault("sync_on_start", False)
        return CorpdirApp(service, state=State(), **kwargs)

    return build
