"""`corpdir` in a real terminal: the first screen arrives whole. Textual draws the first
frame while it holds repaints for the app's start and drops it; what reached the terminal
first were then only the widgets changed since (the rows, the tree), the search box above
them blank until a repaint 50-100 ms later (corpdir.tui.textual_compat.WholeFirstFrame).
(The detail pane's title is not asked for: it is written once the pane knows its width,
which under load may be a frame after the rows.)"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios

import pytest

from ssh_helpers import Screen, demo_home_env, prepare_demo_home


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("first-frame")
    prepare_demo_home(home)
    return home


def first_screen_with_rows(env: dict[str, str], cols: int, rows: int) -> str:
    """The terminal's text at the moment the list's caption (its third line) first shows,
    read as the bytes arrive; then Ctrl+Q."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "--no-sync"], stdin=slave, stdout=slave,
                               stderr=slave, env={**env, "TERM": "xterm-256color"}, start_new_session=True)
    os.close(slave)
    screen = Screen(cols, rows)
    try:
        while process.poll() is None:
            if not select.select([master], [], [], 30)[0]:
                break  # nothing for 30 s: the screen as it stands fails the test below
            chunk = os.read(master, 65536)
            for start in range(0, len(chunk), 64):  # a frame drawn line by line: look every 64 bytes
                screen.feed(chunk[start:start + 64])
                if "by name" in screen.lines()[2]:
                    return screen.text()
        return screen.text()
    finally:
        os.write(master, b"\x11")
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(master)


@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["120x36", "80x24"])
def test_the_first_rows_reach_the_terminal_with_the_whole_screen(demo_home, size):
    cols, rows = size
    text = first_screen_with_rows(demo_home_env(demo_home), cols, rows)
    assert "by name" in text, text
    assert "Search name" in text, text  # the search box, above the rows
