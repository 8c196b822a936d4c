"""Netstrings ('12:{"a":"b"...},'), the framing of baresip's ctrl_tcp module.

Hand-written (a dozen lines): the PyPI packages for this are unmaintained single-file
modules; see docs/calls.md."""

from __future__ import annotations

MAX_LENGTH = 1 << 20


class NetstringError(ValueError):
    pass


def encode(payload: bytes) -> bytes:
    return str(len(payload)).encode() + b":" + payload + b","


class Decoder:
    """Feed it bytes as they arrive; it yields each complete payload."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        out = []
        while True:
            head, colon, rest = self._buffer.partition(b":")
            if not colon:
                if len(head) > 7 or (head and not head.isdigit()):
                    self._buffer = b""
                    raise NetstringError(f"bad length prefix {head[:20]!r}")
                return out
            if not head.isdigit() or int(head) > MAX_LENGTH:
                self._buffer = b""
                raise NetstringError(f"bad length prefix {head[:20]!r}")
            size = int(head)
            if len(rest) < size + 1:
                return out
            payload, end, self._buffer = rest[:size], rest[size:size + 1], rest[size + 1:]
            if end != b",":
                raise NetstringError("netstring not terminated by ','")
            out.append(payload)
