"""Helpers shared by the table-driven spec tests: accept / reject with the exact detail."""

from __future__ import annotations

from typing import Any, Mapping

import pytest

from corpdir.spec import SpecViolation, validate_body, validate_query
from corpdir.spec.operations import OPERATIONS

# The smallest valid body of each create operation, so a case only states the field under test.
MINIMAL: dict[str, dict[str, Any]] = {
    "U2": {"loginId": "taro", "fullname": "Taro Yamada"},
    "U4": {},
    "U10": {},
    "U11": {"destinations": [{"loginId": "taro", "destinationId": 1}]},
    "D2": {"divisionCode": "SALES", "divisionName": "Sales"},
    "D4": {},
    "X2": {"folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "Hanako Sato"},
    "X3": {},
    "P2": {"folderName": "Clients"},
    "P3": {},
    "N1": {"phoneNums": ["0312345678"]},
    "H2": {"answered": True, "calledAt": "2024-04-01T09:30:00+09:00"},
    "H3": {},
    "H5": {"toNum": "0312345678", "answered": False, "callingAt": "2024-04-01T09:30:00Z"},
    "H6": {},
    "L1": {"locations": [{"bleId": "tag1", "spotId": "spot1"}]},
}
MINIMAL_QUERY: dict[str, dict[str, Any]] = {
    "X5": {"directory": "SHARED", "folderNum": 1},
}


def _validate(code: str, data: Any, variant: str, context: Mapping[str, Any] | None, json: bool) -> Any:
    if OPERATIONS[code].body is not None:
        if not json and isinstance(data, Mapping):
            data = {**MINIMAL.get(code, {}), **data}
        return validate_body(code, data, variant=variant, json=json, context=context)
    assert context is None and not json
    return validate_query(code, {**MINIMAL_QUERY.get(code, {}), **data}, variant=variant)


def accepts(code: str, data: Any, *, variant: str = "C", context: Mapping[str, Any] | None = None, json: bool = False) -> Any:
    """Validate ``data`` (merged over the operation's minimal body) and return the model."""
    try:
        return _validate(code, data, variant, context, json)
    except SpecViolation as exc:  # pragma: no cover - shown on failure
        pytest.fail(f"{code} variant {variant} rejected {data!r}: {exc}")


def rejects(
    code: str,
    data: Any,
    field: str,
    detail_code: str,
    *,
    variant: str = "C",
    context: Mapping[str, Any] | None = None,
    json: bool = False,
) -> SpecViolation:
    """Validate ``data`` and assert a detail with exactly ``field`` and ``detail_code``."""
    with pytest.raises(SpecViolation) as info:
        _validate(code, data, variant, context, json)
    found = [(d.field, d.code) for d in info.value.details]
    assert (field, detail_code) in found, f"expected ({field!r}, {detail_code!r}), got {found}"
    for d in info.value.details:
        assert d.description, f"detail {d.field} {d.code} has no description"
    return info.value


def detail(exc: SpecViolation, field: str):
    matches = [d for d in exc.details if d.field == field]
    assert matches, f"no detail for {field}: {exc}"
    return matches[0]
