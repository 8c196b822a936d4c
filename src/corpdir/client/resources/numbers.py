"""Phone numbers (N1): whose number is this? The caller-ID question, up to five numbers at once."""

from __future__ import annotations

from typing import Sequence

from corpdir.client._args import entries
from corpdir.client._base import BaseClient
from corpdir.spec.identify import IdentifyResult


class NumbersResource(BaseClient):
    """N1: caller-ID."""

    async def identify_numbers(self, phone_nums: Sequence[str]) -> IdentifyResult:
        """N1: who has these numbers (1 to 5 numbers)."""
        return await self._call("N1", body={"phoneNums": entries(phone_nums)})
