"""A fault-injecting TCP proxy on 127.0.0.1, in front of a real HTTP server (the reference
service under uvicorn): what a flaky network does to whole processes, which a transport
wrapper inside the test cannot reach.

``mode`` is read for every chunk as it passes: ``pass`` forwards both ways; ``hold`` keeps
what the client sends (the request never reaches the server, the client waits);
``drop_answer`` forwards requests and throws the server's answers away (the write reached
the service, its answer is lost, the client waits). Stopping it is an outage: the port
refuses connections and the open ones are cut."""

from __future__ import annotations

import asyncio


class FaultProxy:
    def __init__(self, target_port: int, port: int) -> None:
        self.target_port = target_port
        self.port = port
        self.mode = "pass"
        self.posts_held = 0  # POST requests kept from the server
        self.posts_forwarded = 0
        self.answers_dropped = 0
        self._server: asyncio.base_events.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port, reuse_address=True)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_w.close()
            return
        self._writers |= {client_w, server_w}
        try:
            await asyncio.gather(self._pump(client_r, server_w, upstream=True),
                                 self._pump(server_r, client_w, upstream=False))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            for writer in (client_w, server_w):
                writer.close()
                self._writers.discard(writer)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, upstream: bool) -> None:
        while data := await reader.read(65536):
            if upstream:
                post = data.startswith(b"POST ")
                if self.mode == "hold":
                    self.posts_held += post
                    continue
                self.posts_forwarded += post
            elif self.mode == "drop_answer":
                self.answers_dropped += 1
                continue
            writer.write(data)
            await writer.drain()
        writer.close()
