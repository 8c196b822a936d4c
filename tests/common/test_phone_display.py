"""Numbers on screen: the region's own numbers are written by the rules the cache keeps,
exactly as phonenumbers writes them, and without importing it."""

import json
import random
import subprocess
import sys

import phonenumbers
import pytest

from corpdir.phone import digits, fold_number, for_display
from corpdir.phone_rules import region_rules, use_region_rules

FULL_WIDTH = str.maketrans({**{str(i): chr(0xFF10 + i) for i in range(10)}, "-": "ー", "+": "＋", "(": "（", ")": "）", " ": "\u3000"})


def by_phonenumbers(number: str, region: str) -> str:
    """The display rule computed by phonenumbers alone: national at home, else international."""
    if len(digits(number)) < 5:
        return number
    try:
        parsed = phonenumbers.parse(fold_number(number), region)
    except phonenumbers.NumberParseException:
        return number
    if not phonenumbers.is_possible_number(parsed):
        return number
    home = parsed.country_code == phonenumbers.country_code_for_region(region)
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.NATIONAL if home else
                                      phonenumbers.PhoneNumberFormat.INTERNATIONAL)


def spellings(national: str, country_code: str, rng: random.Random) -> list[str]:
    """One national number (with its trunk '0') as people write it: plain, hyphenated
    anywhere, with the country code, the international prefix, brackets, full width."""
    rest = national[1:]
    cut = sorted(rng.sample(range(1, len(national)), k=2))
    hyphenated = f"{national[:cut[0]]}-{national[cut[0]:cut[1]]}-{national[cut[1]:]}"
    written = [national, hyphenated, f"+{country_code}{rest}", f"+{country_code} {rest[:2]} {rest[2:]}",
               f"+{country_code}-{rest}", f"010-{country_code}-{rest}", f"({national[:3]}){national[3:]}",
               f"  {hyphenated} ", f"+{country_code} (0){rest}"]
    return written + [w.translate(FULL_WIDTH) for w in written[:4]]


def japanese_numbers(count: int) -> list[str]:
    rng = random.Random(28)
    heads = ["03", "06", "011", "0123", "045", "052", "092", "0467", "04992", "050", "070", "080", "090", "0120",
             "0800", "0570", "0990", "020", "0180", "00777", "0037"]
    out = []
    for _ in range(count):
        head = rng.choice(heads)
        national = head + "".join(rng.choice("0123456789") for _ in range(rng.randint(6, 11 - len(head) + 2)))
        out += spellings(national, "81", rng)
    return out


@pytest.fixture(autouse=True)
def rules_as_the_cache_keeps_them():
    """The rules through the cache's JSON, as the TUI gets them when it opens the cache."""
    for region in ("JP", "US", "GB", "DE"):
        use_region_rules(region, json.loads(json.dumps(region_rules(region).as_dict())))
    for_display.cache_clear()
    yield
    for_display.cache_clear()


def test_japanese_numbers_are_written_as_phonenumbers_writes_them():
    numbers = japanese_numbers(1500)
    assert len(numbers) > 15000
    for number in numbers:
        assert for_display(number, "JP") == by_phonenumbers(number, "JP"), number


def test_the_demo_tenants_numbers_are_written_as_phonenumbers_writes_them():
    from corpdir.server.demo import generate_tenant

    tenant = generate_tenant(size=300, seed=5)
    numbers = [v for record in [*tenant.users, *tenant.contacts] for k, v in record.items() if k.endswith("Num") and v]
    assert len(numbers) > 400
    for number in numbers:
        assert for_display(number, "JP") == by_phonenumbers(number, "JP"), number


@pytest.mark.parametrize(("region", "national", "country_code"), [
    ("US", "16502530000", "1"), ("GB", "02079460958", "44"), ("GB", "07911123456", "44"), ("DE", "030123456", "49"),
    ("DE", "015112345678", "49"),
])
def test_other_regions_and_foreign_numbers_are_written_as_phonenumbers_writes_them(region, national, country_code):
    rng = random.Random(3)
    numbers = spellings(national, country_code, rng) + ["+81 3-1234-5678", "+1 650 253 0000", "+44 20 7946 0958", "2251"]
    for number in numbers:
        for shown_in in (region, "JP"):
            assert for_display(number, shown_in) == by_phonenumbers(number, shown_in), (number, shown_in)


def test_the_regions_own_numbers_are_written_without_importing_phonenumbers():
    """What the TUI's first frame needs: the rules primed as the cache primes them, then
    every Japanese number on a list written without the library (its import was ~10 ms
    of the start)."""
    kept = json.dumps(region_rules("JP").as_dict())
    code = ("import sys, json\n"
            "from corpdir.phone import for_display\n"
            "from corpdir.phone_rules import use_region_rules\n"
            f"use_region_rules('JP', json.loads({kept!r}))\n"
            "print(for_display('0312345678'), for_display('+81 90 1234 5678'), for_display('０１２０ー１２３ー４５６'))\n"
            "print('phonenumbers' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["03-1234-5678 090-1234-5678 0120-123-456", "False"]
