"""Phone keys: one number however written, and the fast path agrees with phonenumbers."""

import random

import pytest

from corpdir.phone import _parsed_e164, digits, e164, fold_number, match_key, same_number, split_numbers


@pytest.mark.parametrize("written", ["+81 3-1234-5678", "03(1234)5678", "0312345678", "03-1234-5678", "+81-3-1234-5678",
                                     "010 81 3 1234 5678", "+81312345678"])
def test_one_tokyo_number_however_written(written):
    assert match_key(written) == "+81312345678"


def test_extensions_and_short_codes_stay_digits():
    assert match_key("1234") == "1234" and match_key("12-34") == "1234"
    assert not same_number("1234", "5678")


def test_other_regions():
    assert match_key("(650) 253-0000", "US") == "+16502530000"
    assert match_key("+1 650 253 0000") == "+16502530000"
    assert match_key("020 7946 0958", "GB") == "+442079460958"


def _spellings(rng: random.Random) -> list[str]:
    area = rng.choice(["3", "6", "45", "52", "90", "80", "70", "120", "50"])
    rest = "".join(rng.choice("0123456789") for _ in range(10 - len(area) - (1 if area in ("90", "80", "70", "50") else 0)))
    national = area + rest
    return [f"0{national}", f"0{area}-{rest[:4]}-{rest[4:]}", f"+81 {area} {rest}", f"+81-{national}", f"(0{area}) {rest}",
            f"010-81-{national}", f"+81 (0){national}", f"0{national[:3]}.{national[3:]}"]


@pytest.mark.parametrize("region", ["JP", "US", "GB", "DE"])
def test_fast_path_agrees_with_a_full_parse(region):
    rng = random.Random(7)
    for _ in range(400):
        for written in _spellings(rng):
            assert e164(written, region) == _parsed_e164(written.strip(), region), (written, region)


def test_demo_numbers_agree_with_a_full_parse():
    from corpdir.server.demo import generate_tenant

    tenant = generate_tenant(size=200, seed=3)
    numbers = [v for u in tenant.users for k, v in u.items() if k.endswith("Num") and v]
    numbers += [v for c in tenant.contacts for k, v in c.items() if k.endswith("Num") and v]
    assert len(numbers) > 300
    for number in numbers:
        expected = _parsed_e164(number.strip(), "JP") if len(number) >= 5 else None
        assert e164(number) == expected, number


def _awkward_japanese_numbers() -> list[str]:
    """Trunk and international prefixes, short and long forms, odd hyphenation."""
    rng = random.Random(7)
    out = ["03-1234-5678", "0312345678", "090-1234-5678", "0120-123-456", "0570-000-111", "0312-34-5678",
           "011-222-3333", "0-312345678", "010-1-212-555-0100", "01039245179", "000-2345-6789", "0037680-12345"]
    for _ in range(3000):
        head = rng.choice(["0", "01", "010", "03", "06", "070", "080", "090", "050", "0120", "0800", "0570", "099", "000"])
        digits = head + "".join(rng.choice("0123456789") for _ in range(rng.randint(5, 12)))
        cut = sorted(rng.sample(range(1, len(digits)), k=2))
        out += [digits, digits[:cut[0]] + "-" + digits[cut[0]:cut[1]] + "-" + digits[cut[1]:]]
    return out


def test_fast_path_agrees_on_awkward_japanese_numbers():
    for number in _awkward_japanese_numbers():
        expected = _parsed_e164(number, "JP") if len(number.replace("-", "")) >= 5 else None
        assert e164(number) == expected, number


@pytest.mark.parametrize("region", ["JP", "US", "GB"])
def test_short_digit_strings_agree_with_a_full_parse(region):
    rng = random.Random(11)
    for _ in range(1500):
        number = "".join(rng.choice("0123456789") for _ in range(rng.randint(5, 11)))
        assert e164(number, region) == _parsed_e164(number, region), (number, region)
    assert match_key("605701") == "605701"  # a six-digit extension stays its digits


@pytest.mark.parametrize("written", ["０３−６４４０−２９７９", "０３ー６４４０ー２９７９", "03‐6440‐2979", "03－6440－2979",
                                     "（０３）６４４０−２９７９", "＋８１　３ー６４４０ー２９７９", "03–6440—2979"])
def test_full_width_digits_and_japanese_hyphens_are_the_same_number(written):
    assert match_key(written) == "+81364402979"
    assert fold_number(written).replace(" ", "") in ("03-6440-2979", "(03)6440-2979", "+813-6440-2979")


def test_full_width_extensions_are_their_digits_and_other_text_is_kept():
    assert match_key("２３１０") == "2310"
    assert fold_number("田中 ルーシー") == "田中 ル-シ-" and digits("田中") == ""


def test_the_mixed_entry_of_the_lookup_screen_splits_into_five():
    assert split_numbers("0756784245 2310 ０３６４４０２９７９ 999-9999 abc") == [
        "0756784245", "2310", "0364402979", "999-9999", "abc"]


def test_a_dialable_number_is_folded_before_it_is_sent():
    from corpdir.service.identify import dialable

    assert dialable("（０３）６４４０ー２９７９") == "036440-2979"


def test_a_phone_field_sends_the_spec_characters_and_keeps_what_validation_must_refuse():
    from corpdir.phone import phone_field_text

    assert phone_field_text("（０３）６４４０−２９７９") == "036440-2979"
    assert phone_field_text("０３　６４４０　２９７９") == "0364402979"
    assert phone_field_text("０３−１２ａ４") == "03-12ａ4"
