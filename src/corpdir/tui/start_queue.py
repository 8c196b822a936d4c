"""Waiting for the other sessions of a burst to draw their first screens.

When many SSH sessions open at once (a shift starting), `corpdir ssh-server` starts their
apps a few at a time. What an app does once its first rows are painted (the division tree
from the service, the start-up sync check, the desk phone: ~0.1 s of CPU each) would take
the CPU from the apps still starting, and on two cores twenty of them push the last first
screen back by a second. So the server names, in ``CORPDIR_START_QUEUE``, a FIFO whose
writing end it holds open while sessions wait their turn: the app opens it for reading and
goes on when it reads end-of-file, which the kernel gives as soon as the server closes it
(the queue is empty) or ends. No timer is involved, and an app started after the queue
emptied (the FIFO gone, or already closed) goes on at once.
"""

from __future__ import annotations

import asyncio
import os

ENV = "CORPDIR_START_QUEUE"


def open_queue() -> int | None:
    """A read end on the server's start queue, or None when there is none to wait for."""
    path = os.environ.get(ENV)
    if not path:
        return None
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:  # gone: the queue emptied before this app got here
        return None


async def queue_emptied(fd: int) -> None:
    """Returns once the server has closed the queue's writing end (closes ``fd``)."""
    loop = asyncio.get_running_loop()
    readable = asyncio.Event()
    loop.add_reader(fd, readable.set)
    try:
        while True:
            await readable.wait()
            readable.clear()
            try:
                if not os.read(fd, 512):  # end-of-file: no writer left
                    return
            except BlockingIOError:  # woken with the writer still there
                continue
    finally:
        loop.remove_reader(fd)
        os.close(fd)


async def burst_over() -> None:
    """Returns at once, unless this app started while others waited their turn: then once
    the server's start queue has emptied."""
    queue = open_queue()
    if queue is not None:
        await queue_emptied(queue)
