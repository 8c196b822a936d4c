"""The start gate's queue: apps that start while other sessions wait their turn hold back
their after-first-rows work until the burst is over; a lone session is never held."""

import asyncio
import os

from corpdir.ssh.tui_session import StartGate
from corpdir.tui import start_queue


async def waiting_app(env: dict[str, str], monkeypatch) -> asyncio.Task:  # noqa: ANN001
    """What an app started with ``env`` does after its first rows: wait for the burst's end."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return asyncio.create_task(start_queue.burst_over())


async def two_at_once(gate: StartGate, monkeypatch):  # noqa: ANN001, ANN201
    """One session starting, a second waiting its turn, and an app of the burst held."""
    first = await gate.enter()
    entering = asyncio.create_task(gate.enter())
    await asyncio.sleep(0)  # it has asked for a slot, and waits
    return first, entering, await waiting_app(gate.queue_env(), monkeypatch)


async def test_a_burst_holds_its_apps_until_the_last_one_is_started(monkeypatch):
    gate = StartGate(1, linger=0)
    first = await gate.enter()
    assert gate.queue_env() == {}  # alone so far: nothing to wait for
    second_entering = asyncio.create_task(gate.enter())
    await asyncio.sleep(0)  # it has asked for a slot, and waits
    env = gate.queue_env()
    path = env[start_queue.ENV]
    assert os.stat(os.path.dirname(path)).st_mode & 0o777 == 0o700
    held = await waiting_app(env, monkeypatch)
    first.leave()  # the first app drew its first screen: the second starts
    second = await second_entering
    for _ in range(5):  # the loop polls the queue each turn: an emptied queue would be seen by now
        await asyncio.sleep(0)
    assert not held.done()  # one app is still starting
    second.leave()
    await asyncio.wait_for(held, 5)  # the burst is over: the held work goes on
    assert not os.path.exists(os.path.dirname(path))  # the queue is removed with its directory


async def test_a_new_session_within_the_linger_keeps_the_queue(monkeypatch):
    gate = StartGate(1, linger=30)
    first, entering, held = await two_at_once(gate, monkeypatch)
    first.leave()
    (await entering).leave()  # all started: the queue closes after the linger...
    third = await gate.enter()  # ...unless another session comes first
    third.leave()
    assert not held.done()
    gate.close()  # as the server does when it shuts down
    await asyncio.wait_for(held, 5)


async def test_a_session_that_leaves_while_waiting_does_not_keep_the_queue(monkeypatch):
    gate = StartGate(1, linger=0)
    first, entering, held = await two_at_once(gate, monkeypatch)
    first.leave()  # its turn has come...
    entering.cancel()  # ...but its client went away before it took it
    await asyncio.gather(entering, return_exceptions=True)
    await asyncio.wait_for(held, 5)
