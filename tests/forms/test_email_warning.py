"""An e-mail address that does not look like one ('a@@b') is questioned before it is sent,
and sent when the user says so: the spec allows it, the desk should still notice."""

from corpdir.service.backend import backend_of
from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.model_form import ModelForm
from form_helpers import save, type_into
from forms.write_helpers import edit_regular_user
from tui_helpers import screen_text, wait_for


async def _save_address(pilot, app, recorder, address):
    """Edit a regular user's first e-mail address to ``address`` and save: (user, form)."""
    user, form = await edit_regular_user(pilot, app)
    await type_into(pilot, form, "email1", address)
    recorder.clear()
    await save(pilot, form)
    return user, form


async def test_an_address_that_is_no_address_is_questioned_and_can_be_saved_anyway(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        user, form = await _save_address(pilot, app, recorder, "a@@b")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "“a@@b” does not look like an e-mail address" in screen_text(app)
        question = str(app.screen.query_one("#confirm-text").render())
        assert question.splitlines()[-1] == "Save it anyway?" and "\ufffd" not in question  # a line of its own
        await pilot.press("n")  # correct it: back in the form, on the field, nothing sent
        assert await wait_for(pilot, lambda: app.screen is form)
        assert form.widget("email1").has_focus and recorder.writes() == []
        await save(pilot, form)
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # save anyway
        assert await wait_for(pilot, lambda: not isinstance(app.screen, (ModelForm, ConfirmScreen)))
        assert recorder.writes()[0][2] == {"email1": "a@@b"}
        assert (await backend_of(admin).client.get_user(user.userId)).email1 == "a@@b"


async def test_a_good_address_is_sent_without_a_question(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        await _save_address(pilot, app, recorder, "taro.yamada@example.jp")
        assert await wait_for(pilot, lambda: bool(recorder.writes()))
        assert recorder.writes()[0][2] == {"email1": "taro.yamada@example.jp"}
        assert not isinstance(app.screen, ConfirmScreen)
