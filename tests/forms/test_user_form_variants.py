"""The user form offers only the fields the service's interface variant has: a field A or
B lacks would be refused as UNKNOWN_FIELD on save."""

from __future__ import annotations

import pytest

from corpdir.tui.forms.specs import user_form


@pytest.mark.parametrize(("variant", "shown"), [("A", False), ("B", False), ("C", True)])
def test_the_groupware_fields_are_offered_only_where_the_service_has_them(variant, shown):
    labels = user_form(None, variant).labels
    assert ("groupware" in labels) is shown and ("gwsAccount" in labels) is shown
    assert "fullname" in labels and "divisionIds" in labels
