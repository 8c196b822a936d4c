"""A division is named by its path, shortened from the top when space is short."""

import pytest

from corpdir.division_path import cells, division_path

QA_1 = ["本社", "技術本部", "品質保証部", "1課"]


def test_full_path_joins_names_top_first():
    assert division_path(QA_1) == "本社 › 技術本部 › 品質保証部 › 1課"


@pytest.mark.parametrize("width", range(1, 40))
def test_a_short_width_drops_the_top_first_and_never_overflows(width):
    text = division_path(QA_1, width)
    assert cells(text) <= width
    full = division_path(QA_1)
    if cells(full) <= width:
        assert text == full
    elif width >= cells("… › 1課"):
        assert text.startswith("…") and text.endswith(" › 1課")
        assert full.endswith(text[1:])  # what is kept is the path's end: it is cut from the left only


def test_shortened_keeps_the_parent_that_tells_two_1ka_apart():
    assert division_path(QA_1, 20) == "… › 品質保証部 › 1課"
    assert division_path(["本社", "営業本部", "第一営業部", "1課"], 20) == "… › 第一営業部 › 1課"


def test_a_parent_too_long_for_its_whole_name_keeps_its_end():
    """'… › 1課' would name eleven divisions: as much of the parent as fits is kept."""
    assert division_path(QA_1, 14) == "…保証部 › 1課"
    assert division_path(["本社", "営業本部", "第一営業部", "1課"], 16) == "…一営業部 › 1課"
    assert division_path(["本社", "営業本部", "第二営業部", "1課"], 16) == "…二営業部 › 1課"


def test_a_long_own_name_keeps_its_end():
    assert division_path(["本社", "とても長い名前のある部署"], 9) == "…ある部署"


def test_blank_names_are_skipped():
    assert division_path([None, "", "本社", "1課"]) == "本社 › 1課"

