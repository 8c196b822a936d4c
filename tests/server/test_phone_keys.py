"""The server's fast path for Japanese numbers gives exactly corpdir.phone.match_key's keys."""

from __future__ import annotations

import random

import pytest

from corpdir.phone import match_key
from corpdir.server.storage.phones import jp_domestic_key


def _samples() -> list[str]:
    rng = random.Random(7)
    out = ["03-1234-5678", "0312345678", "090-1234-5678", "09012345678", "0120-123-456", "0570-000-111",
           "045-111-2222", "06-5555-0000", "050-1234-5678", "0312-34-5678", "011-222-3333", "0-312345678", "010-1-212-555-0100", "01039245179"]
    for _ in range(3000):
        head = rng.choice(["0", "0", "01", "010", "03", "06", "070", "080", "090", "050", "0120", "0800", "0570", "099"])
        body = "".join(rng.choice("0123456789") for _ in range(rng.randint(5, 12)))
        digits = head + body
        cut = sorted(rng.sample(range(1, len(digits)), k=min(2, len(digits) - 1)))
        out.append(digits)
        out.append(digits[: cut[0]] + "-" + digits[cut[0]: cut[-1]] + "-" + digits[cut[-1]:])
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_fast_keys_equal_match_key(chunk):
    samples = _samples()[chunk::4]
    for number in samples:
        fast = jp_domestic_key(number)
        if fast is not None:
            assert fast == match_key(number, "JP"), number
