"""The message form's list of whom a message is for: each match on one line, with what
tells two people of one name apart at a reception desk (extension and division)."""

import re
from collections import Counter

from rich.cells import cell_len
from textual.widgets import OptionList

from corpdir.calls.messages.slips import Outcome
from corpdir.service.backend import backend_of
from corpdir.tui.screens.message_slip import MATCHES_SHOWN, MessageSlipForm
from tui_helpers import screen_text, wait_for


async def test_each_match_names_the_extension_and_division_on_one_line(service, make_app):
    """(The big demo tenant has two 田中 陽子; their e-mail addresses were all that told
    them apart.) Searched by a family name several people share."""
    store = backend_of(service).store
    people = store.users(store.user_ids())
    families = Counter(u.fullname.split()[0] for u in people if u.fullname and u.extensionNum and u.divisions)
    name = next(family for family, n in families.most_common() if n > 1)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(MessageSlipForm(service))
        await pilot.press(*name)
        matches = app.screen.query_one("#slip-matches", OptionList)
        assert await wait_for(pilot, lambda: matches.display and matches.option_count >= 2)
        shown = [u for u in app.screen._matches if u.extensionNum and u.divisions]
        assert len(shown) >= 2
        lines = [str(matches.get_option_at_index(i).prompt) for i in range(matches.option_count)]
        text = screen_text(app)
        for user in shown:
            [line] = [line for line in lines if user.extensionNum in line]
            assert service.divisions.path(user.divisions[0]).split(" › ")[-1] in line
            assert re.sub(" +", " ", line) in text  # on the screen, whole (screen_text collapses spaces)
        # one line each: every match in sight, none cut by the list's four lines
        assert matches.option_count <= MATCHES_SHOWN
        assert matches.region.height == matches.option_count
        assert all(cell_len(line) <= matches.content_region.width for line in lines)


async def test_the_arrow_keys_choose_what_the_caller_wants(service, make_app):
    """→ on "please call back" chooses "called": the slip records what is highlighted, with
    no Enter or Space needed (Textual's radio set only moved its highlight)."""
    store = backend_of(service).store
    person = store.users(store.user_ids()[:1])[0]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        drafts = []
        await app.push_screen(MessageSlipForm(service, recipient=person, caller_name="青木", caller_number="0312345678"),
                              drafts.append)
        outcomes = app.screen.query_one("#slip-outcome")
        outcomes.focus()
        await pilot.press("right")
        assert await wait_for(pilot, lambda: outcomes.pressed_button is not None
                              and outcomes.pressed_button.name == Outcome.CALLED.value)
        await pilot.press("right", "left")  # and back
        assert outcomes.pressed_button.name == Outcome.CALLED.value
        app.screen.query_one("#slip-text").focus()
        await pilot.press(*"見積", "enter")
        assert await wait_for(pilot, lambda: drafts)
        assert drafts[0].outcome is Outcome.CALLED
