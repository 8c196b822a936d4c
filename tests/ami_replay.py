"""A server speaking the Asterisk manager protocol (Asterisk is not packaged here): it
greets, checks the Login, then replays a recorded event transcript to each manager that
logs in; it answers Originate with Success, CoreShowChannels with the channels of a
second transcript (none by default), ExtensionStateList with the hints' states of a third
(``states``: then the events follow that answer, as they would once a desk has listed
them), and keeps the actions it was sent.

``after`` names, per action, a transcript replayed right after its answer: what Asterisk
does next (Atxfer: the Local channel that calls the target, which rings, then answers or
ends; the desk's Hangup while it consults: the AttendedTransfer). Atxfer is answered as
Asterisk 18's manager does ("Atxfer successfully queued"; an error without Channel or
Exten)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from string import Template

GREETING = b"Asterisk Call Manager/7.0.3\r\n"
TRANSCRIPTS = Path(__file__).parent / "calls" / "ami"
ANSWERS = {"Originate": "Originate successfully queued", "Atxfer": "Atxfer successfully queued",
           "Hangup": "Channel Hungup"}


def parse_messages(data: str) -> list[dict[str, str]]:
    messages = []
    for block in data.split("\r\n\r\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\r\n") if ": " in line)
        if fields:
            messages.append(fields)
    return messages


class AmiReplay:
    def __init__(self, transcript: str, username: str, secret: str, *, channels: str | None = None,
                 states: str | None = None, after: dict[str, str] | None = None, **values: str) -> None:
        self.events = Template((TRANSCRIPTS / transcript).read_bytes().decode()).substitute(values).encode()  # CRLF kept
        listed = Template((TRANSCRIPTS / channels).read_bytes().decode()).substitute(values) if channels else ""
        self.channels = [block for block in listed.split("\r\n\r\n") if block.strip()]
        hints = (TRANSCRIPTS / states).read_bytes().decode() if states else ""
        self.states = [block for block in hints.split("\r\n\r\n") if block.strip()] if states else None
        self.after = {action: Template((TRANSCRIPTS / name).read_bytes().decode()).substitute(values).encode()
                      for action, name in (after or {}).items()}
        self.username = username
        self.secret = secret
        self.actions: list[dict[str, str]] = []
        self.logins = 0
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self, port: int = 0) -> AmiReplay:
        """Listening on ``port`` (0: a free one, in :attr:`port`)."""
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        self.drop()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def drop(self) -> None:
        """Cut every manager's connection (Asterisk restarting)."""
        for writer in self.writers:
            writer.close()
        self.writers.clear()

    def _listing(self, action_id: str, blocks: list[str], complete: str) -> bytes:
        """A list action's answer (CoreShowChannels, ExtensionStateList): its events, then the end of it."""
        head = {"Response": "Success", "ActionID": action_id, "EventList": "start", "Message": "Events will follow"}
        tail = {"Event": complete, "ActionID": action_id, "EventList": "Complete", "ListItems": str(len(blocks))}
        return (self._message(head) + b"".join(f"{block}\r\nActionID: {action_id}\r\n\r\n".encode()
                                                for block in blocks) + self._message(tail))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.append(writer)
        writer.write(GREETING)
        try:
            while True:
                block = await reader.readuntil(b"\r\n\r\n")
                [action] = parse_messages(block.decode())
                self.actions.append(action)
                reply = {"ActionID": action.get("ActionID", "")}
                if action.get("Action", "").lower() == "login":
                    ok = action.get("Username") == self.username and action.get("Secret") == self.secret
                    reply.update({"Response": "Success" if ok else "Error",
                                  "Message": "Authentication accepted" if ok else "Authentication failed"})
                    writer.write(self._message(reply))
                    if ok:
                        self.logins += 1
                        if action.get("Events", "on") != "off" and self.states is None:
                            writer.write(b"Event: FullyBooted\r\nPrivilege: system,all\r\nStatus: Fully Booted\r\n\r\n")
                            writer.write(self.events)
                elif action.get("Action") == "CoreShowChannels":
                    writer.write(self._listing(action.get("ActionID", ""), self.channels, "CoreShowChannelsComplete"))
                elif action.get("Action") == "ExtensionStateList" and self.states is not None:
                    writer.write(self._listing(action.get("ActionID", ""), self.states, "ExtensionStateListComplete"))
                    writer.write(self.events)
                elif action.get("Action") == "Atxfer" and not (action.get("Channel") and action.get("Exten")):
                    reply.update({"Response": "Error", "Message": "No channel specified" if not action.get("Channel")
                                  else "No extension specified"})
                    writer.write(self._message(reply))
                else:
                    reply.update({"Response": "Success", "Message": ANSWERS.get(action.get("Action", ""), "OK")})
                    writer.write(self._message(reply))
                    writer.write(self.after.get(action.get("Action", ""), b""))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    @staticmethod
    def _message(fields: dict[str, str]) -> bytes:
        return b"".join(f"{k}: {v}\r\n".encode() for k, v in fields.items()) + b"\r\n"
