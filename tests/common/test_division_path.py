"""A division is named by its path, shortened from the top when space is short."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from corpdir.division_path import cells, division_path
from corpdir.text import printable
from corpdir.tui.text import cell

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



SALES_1 = ["本社", "営業本部", "第一営業部", "1課"]


def test_a_marker_goes_beside_the_names_that_tell_two_1ka_apart_never_over_them():
    """' +1' (more divisions) costs the top of the path, never the parent: where it would
    cut '第一営業部' it is left out (the detail pane lists every division)."""
    assert division_path(SALES_1, 22, " +1") == "…第一営業部 › 1課 +1"  # the grandparent made room
    assert division_path(SALES_1, 19, " +1") == "…第一営業部 › 1課"  # as a person in one division
    assert division_path(SALES_1, 19) == "…第一営業部 › 1課"
    assert division_path(SALES_1, 40, " +1") == "本社 › 営業本部 › 第一営業部 › 1課 +1"
    assert division_path(SALES_1, None, " +1") == "本社 › 営業本部 › 第一営業部 › 1課 +1"


# Characters a name may hold whose width `unicodedata.east_asian_width` and Rich disagree
# on (a decomposed dakuten, a combining accent, an I Ching trigram, Hangul jamo), that
# agree but are "ambiguous" in East Asian fonts ('›', '…', Greek, Cyrillic, box drawing),
# joined sequences (an emoji ZWJ sequence, a variation selector), a bidi override shown
# as <U+202E>, and kanji, kana and Latin.
ODD = "シ\u3099e\u0301☰\u1160α Ж─›…👩\u200d💻☎\ufe0f\u202e1課営業部ﾃｽﾄ"


@settings(max_examples=300, deadline=None)
@given(names=st.lists(st.text(alphabet=ODD, min_size=1, max_size=8), min_size=1, max_size=4),
       width=st.integers(min_value=1, max_value=40), marker=st.sampled_from(["", " +1", " (+2)"]))
def test_a_shortened_path_fits_as_rich_measures_it_and_is_painted_uncut(names, width, marker):
    """What is measured is what Rich lays out: the shortened path (made printable) fits its
    cells, and the list's cell (Rich's ``set_cell_size``) pads it without cutting any of it."""
    text = division_path(names, width, marker)
    assert cell_len(text) <= width
    assert cell(text, width) == text + " " * (width - cell_len(text))  # not cut again, mid-character or at all
    assert printable(text) == text  # shown as it was measured: nothing widens when painted
    whole = printable(division_path(names))
    path = text[:-len(marker)] if marker and text.endswith(marker) else text
    assert path == whole or path.startswith("…") and whole.endswith(path[1:]) or path in ("", "…")


def test_cells_is_rich_measure():
    """Widths where east_asian_width and Rich differ, as the screen lays them out: a
    decomposed dakuten adds nothing, a trigram takes two, '›…αЖ─' one each."""
    widths = {"シ\u3099": 2, "☰": 2, "e\u0301": 1, "1課": 3, "›…αЖ─": 5}
    assert {text: cells(text) for text in widths} == widths
    assert all(cells(text) == cell_len(text) for text in widths)
