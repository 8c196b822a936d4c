import pytest

from corpdir.cache.store import CacheStore

from cache_data import CONTACTS, DIVISIONS, USERS


@pytest.fixture
def store() -> CacheStore:
    s = CacheStore(":memory:")
    s.put_divisions(DIVISIONS)
    s.put_users(USERS)
    s.put_contacts(CONTACTS)
    yield s
    s.close()
