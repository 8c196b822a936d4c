import asyncssh
import pytest

from ssh_helpers import DEMO_SIZE, prepare_demo_home


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory):
    """Data and cache folders with the small demo tenant generated and synced once, so a
    session's app paints at once instead of generating the tenant first."""
    home = tmp_path_factory.mktemp("ssh-home")
    prepare_demo_home(home)
    return home


@pytest.fixture
def demo_env(demo_home, tmp_path, monkeypatch):
    """This process's environment (which the server hands to its sessions) on the demo home."""
    monkeypatch.setenv("CORPDIR_DEMO_SIZE", DEMO_SIZE)
    monkeypatch.setenv("CORPDIR_DATA_DIR", str(demo_home / "data"))
    monkeypatch.setenv("CORPDIR_CACHE_DIR", str(demo_home / "cache"))
    monkeypatch.setenv("CORPDIR_STATE_DIR", str(tmp_path / "state"))
    return demo_home


@pytest.fixture(scope="session")
def client_key():
    return asyncssh.generate_private_key("ssh-ed25519", comment="desk-1")


@pytest.fixture(scope="session")
def stranger_key():
    return asyncssh.generate_private_key("ssh-ed25519", comment="stranger")


@pytest.fixture
async def start_server(demo_env, client_key, tmp_path):
    """``await start_server(**ServerOptions overrides)``: a server on a free 127.0.0.1 port
    that lets ``client_key`` in; every server started is closed at the end."""
    from corpdir.ssh.authorized import KeyRing
    from corpdir.ssh.server import DirectoryServer, ServerOptions

    started = []
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(b"restrict,pty " + client_key.export_public_key("openssh"))

    async def start(profiles=None, authorized_keys=None, **overrides):
        """``authorized_keys``: the file's text, when not just ``client_key``."""
        if authorized_keys is not None:
            authorized.write_text(authorized_keys, encoding="utf-8")
        overrides.setdefault("idle_timeout", None)
        overrides.setdefault("close_grace", 1.0)
        config = ServerOptions(keys=KeyRing.load(authorized, profiles), host_key=tmp_path / "host_key", port=0, **overrides)
        server = DirectoryServer(config)
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        await server.close()
