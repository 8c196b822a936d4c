"""`corpdir ring NUMBER` from a script pops the caller in every running TUI of the user."""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from call_helpers import card_text, cards, desk_app, feed_ready
from corpdir.phone import for_display
from tui_helpers import wait_for


def ring(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "corpdir.cli", "ring", *args], capture_output=True, text=True,
                          env=os.environ.copy() if env is None else env)


async def test_ring_pops_the_caller_in_both_running_tuis(service, demo_user, _runtime_dir):
    first, second = desk_app(service), desk_app(service)
    async with first.run_test(size=(120, 36)) as one, second.run_test(size=(120, 36)) as two:
        assert await feed_ready(one, "ring") and await feed_ready(two, "ring")
        sockets = sorted(_runtime_dir.glob("ring-*.sock"))
        assert len(sockets) == 2
        for path in sockets:
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(_runtime_dir.stat().st_mode) == 0o700
        done = await asyncio.to_thread(ring, demo_user.phoneNum, "--name", "山田 太郎")
        assert done.returncode == 0, done.stderr
        for pilot in (one, two):
            assert await wait_for(pilot, lambda p=pilot: demo_user.fullname in card_text(p.app))
            assert "Ringing" in card_text(pilot.app)
            [card] = cards(pilot.app)
            assert card.ring.caller.kana == demo_user.fullnameKana and card.ring.caller.matched_field == "phone"


async def test_ring_with_no_tui_running_says_so():
    done = await asyncio.to_thread(ring, "0312345678")
    assert done.returncode == 1
    assert "no corpdir TUI" in done.stderr


@pytest.fixture
def short_temp(monkeypatch):
    """A temp dir of this test's own, short enough for a socket's path whatever pytest's
    basetemp is (sun_path holds 107 bytes)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="cdr-", dir="/tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("runtime_dir", ["/proc/corpdir-no-such-dir", "/tmp/" + "a-long-runtime-folder/" * 5],
                         ids=["cannot-be-made", "too-long-for-a-socket"])
async def test_without_a_usable_runtime_dir_the_sockets_live_in_a_private_temp_folder(
        service, demo_user, monkeypatch, short_temp, runtime_dir):
    from corpdir.calls.ring_socket import ring as ring_all

    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", runtime_dir)
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        folder = short_temp / f"corpdir-{os.getuid()}"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and len(list(folder.glob("ring-*.sock"))) == 1
        assert (await asyncio.to_thread(ring_all, {"number": demo_user.phoneNum}))[0] == 1
        assert await wait_for(pilot, lambda: demo_user.fullname in card_text(pilot.app))


def test_a_temp_dir_too_long_for_a_socket_gives_a_folder_in_tmp_whose_sockets_fit(monkeypatch, tmp_path):
    """A TMPDIR set by a login or a test runner can leave no room in sun_path for the ring
    socket's name: binding there fails ("AF_UNIX path too long") and no ring would arrive."""
    import tempfile

    from corpdir.calls.ring_socket import SOCKET_NAME, runtime_dir
    from corpdir.unix_socket import fits

    monkeypatch.delenv("CORPDIR_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    long = tmp_path / ("x" * 60) / ("y" * 60)
    monkeypatch.setattr(tempfile, "tempdir", str(long))
    assert not fits(f"{long}/corpdir-{os.getuid()}/ring-0123456789.sock")
    folder = runtime_dir()
    assert folder == Path("/tmp") / f"corpdir-{os.getuid()}"
    assert fits(str(folder) + "x" * SOCKET_NAME)
    monkeypatch.setattr(tempfile, "tempdir", "/tmp/short")
    assert runtime_dir() == Path("/tmp/short") / f"corpdir-{os.getuid()}"


def test_a_runtime_dir_too_long_for_a_socket_is_named_once(monkeypatch, short_temp, caplog):
    """CORPDIR_RUNTIME_DIR is the user's own setting: when it cannot hold a socket, the
    sockets go to the private temp folder and a warning says so (it was replaced silently)."""
    from corpdir.calls.ring_socket import runtime_dir

    long = f"/tmp/{os.getpid()}-" + "a-long-runtime-folder-named-once/" * 4  # said once a process: a name of its own
    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", long)
    with caplog.at_level("WARNING", logger="corpdir.calls"):
        assert runtime_dir() == runtime_dir() == short_temp / f"corpdir-{os.getuid()}"
    said = [r.getMessage() for r in caplog.records if "CORPDIR_RUNTIME_DIR" in r.getMessage()]
    assert len(said) == 1 and f"{len(long)} bytes" in said[0] and str(short_temp) in said[0], said
    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", "/tmp/short-enough")
    caplog.clear()
    assert runtime_dir() == Path("/tmp/short-enough") and not caplog.records


def test_without_xdg_runtime_dir_ring_uses_the_private_temp_folder_and_says_nothing(monkeypatch, short_temp):
    """An SSH login without systemd-logind has no XDG_RUNTIME_DIR: platformdirs would warn on
    stderr and use a shared /tmp/runtime-UID; corpdir uses its own private folder, quietly."""
    import warnings

    from corpdir.calls.ring_socket import runtime_dir

    monkeypatch.delenv("CORPDIR_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        folder = runtime_dir()
    if sys.platform.startswith("linux"):
        assert folder == short_temp / f"corpdir-{os.getuid()}"


TMUX = shutil.which("tmux")


@pytest.mark.skipif(not TMUX, reason="tmux is needed to run a second TUI in a terminal of its own")
async def test_ring_pops_a_tui_in_another_process_and_one_here(service, demo_user, _runtime_dir, tmp_path):
    """One TUI under pilot, one a real `corpdir` process (the embedded demo) in a tmux
    terminal, both of this user and both asking for rings: `corpdir ring` reaches both."""
    server = ["tmux", "-L", f"corpdir-ring-{os.getpid()}", "-f", "/dev/null"]
    config = Path(os.environ["CORPDIR_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[calls]\nring_socket = true\n", encoding="utf-8")  # no feed: it asks for rings by name
    here = desk_app(service)
    async with here.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        subprocess.run([*server, "new-session", "-d", "-x", "120", "-y", "36",
                        f"{sys.executable} -m corpdir.cli --no-sync"], check=True, env=os.environ.copy())
        try:
            assert await wait_for(pilot, lambda: len(list(_runtime_dir.glob("ring-*.sock"))) == 2, tries=1500)

            def pane() -> str:
                return subprocess.run([*server, "capture-pane", "-p"], capture_output=True, text=True).stdout

            assert await wait_for(pilot, lambda: "phone: ring" in pane(), tries=500), pane()  # its status bar: listening
            done = await asyncio.to_thread(ring, demo_user.phoneNum, "--name", "山田 太郎")
            assert done.returncode == 0, done.stderr
            assert await wait_for(pilot, lambda: demo_user.fullname in card_text(here))
            assert await wait_for(pilot, lambda: "Ringing" in pane(), tries=500)
            # the embedded demo is another tenant: there the number is nobody's, shown as sent
            assert for_display(demo_user.phoneNum) in pane() and "sent as 山田 太郎" in pane(), pane()
        finally:
            subprocess.run([*server, "kill-server"], capture_output=True)


def _without_runtime_dir(short_temp) -> dict[str, str]:
    """An environment with no runtime dir: the ring sockets fall back to TMPDIR=short_temp."""
    env = {k: v for k, v in os.environ.items() if k not in ("CORPDIR_RUNTIME_DIR", "XDG_RUNTIME_DIR")}
    return {**env, "TMPDIR": str(short_temp)}


@pytest.fixture
def squatted(short_temp):
    """Another user's trap in the shared temp dir: ``corpdir-UID`` a symbolic link to a
    1777 folder where their listener waits for rings."""
    shared = short_temp / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (short_temp / f"corpdir-{os.getuid()}").symlink_to(shared)
    return shared


async def ring_feed_refusal(service, monkeypatch, short_temp, caplog) -> str:  # noqa: ANN001
    """Why a TUI's ring feed, with no runtime dir and short_temp as the temp dir, does not
    listen: the line the call hub logs when the feed stops (and is retried)."""
    import logging

    caplog.set_level(logging.INFO, logger="corpdir.calls")
    monkeypatch.setenv("CORPDIR_RUNTIME_DIR", "/proc/corpdir-no-such-dir")  # cannot be made: the temp fallback
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        def said() -> list[str]:
            return [r.getMessage() for r in caplog.records if r.getMessage().startswith("call feed ring dropped")]

        assert await wait_for(pilot, said, tries=500)
        return said()[0]


async def test_a_symlinked_fallback_folder_is_refused_by_the_tui_and_its_target_left_alone(service, squatted,
                                                                                          monkeypatch, short_temp, caplog):
    assert "symbolic link" in await ring_feed_refusal(service, monkeypatch, short_temp, caplog)
    assert stat.S_IMODE(squatted.stat().st_mode) == 0o1777 and not list(squatted.iterdir())


async def test_corpdir_ring_sends_nothing_into_a_symlinked_folder(squatted, short_temp):
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:  # the other user's "TUI"
        listener.bind(str(squatted / "ring-1-trap.sock"))
        listener.listen()
        listener.setblocking(False)
        done = await asyncio.to_thread(ring, "0312345678", "--name", "山田 太郎", env=_without_runtime_dir(short_temp))
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected
    assert done.returncode == 1 and "symbolic link" in done.stderr


@pytest.mark.skipif(os.getuid() != 0, reason="making a folder of another user needs root")
async def test_a_fallback_folder_of_another_user_is_refused_on_both_sides(service, monkeypatch, short_temp, caplog):
    import pwd

    folder = short_temp / f"corpdir-{os.getuid()}"
    folder.mkdir()
    folder.chmod(0o777)
    os.chown(folder, pwd.getpwnam("nobody").pw_uid, -1)
    done = await asyncio.to_thread(ring, "0312345678", env=_without_runtime_dir(short_temp))
    assert done.returncode == 1 and "belongs to another user" in done.stderr
    assert "another user" in await ring_feed_refusal(service, monkeypatch, short_temp, caplog)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o777 and not list(folder.iterdir())


def test_without_xdg_runtime_dir_every_call_gives_the_same_private_folder(monkeypatch, short_temp):
    """platformdirs warns of its fallback once a process: the second TUI of a process (or
    `ring` after a listener) must still find the same folder, not the shared one."""
    from corpdir.calls.ring_socket import runtime_dir

    monkeypatch.delenv("CORPDIR_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    assert {runtime_dir() for _ in range(3)} == {short_temp / f"corpdir-{os.getuid()}"}
