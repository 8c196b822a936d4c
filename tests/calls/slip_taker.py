"""A desk process that takes one message slip and e-mails it, for the tests that kill it
(``kill -9``) at a chosen moment: ``python slip_taker.py SETTINGS_JSON SLIPS_FILE CA_FILE``.
It prints ``taken <state>`` once the first try is over and then waits to be killed."""

from __future__ import annotations

import asyncio
import json
import ssl
import sys
from pathlib import Path

from corpdir.calls.messages.courier import MessageCourier
from corpdir.calls.messages.slips import Outcome, SlipBook, new_slip
from corpdir.config.messages import MessagesConfig


async def main(settings: str, slips: str, ca: str) -> None:
    courier = MessageCourier(SlipBook(Path(slips)), MessagesConfig(**json.loads(settings)),
                             tls=ssl.create_default_context(cafile=ca))
    slip = await courier.take(new_slip(for_name="山田 太郎", for_email="yamada@example.co.jp", caller_name="青木 明美",
                                       caller_number="09012345678", outcome=Outcome.CALL_BACK, text="見積の件"))
    print("taken", slip.state.value, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
