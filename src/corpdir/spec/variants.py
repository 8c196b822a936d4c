"""The three variants of the interface (spec section 9) as data.

Variant C is the complete interface; A and B are subsets. Each difference of the
section 9 table is one attribute of :class:`Variant`, and models carry
``varies("rule")`` (value rules) and ``exists_in_variant("rule")`` (fields only some variants
have) markers that look the rule up here, so validating
``context={"variant": "B"}`` applies B's limits without any if-branches elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pydantic_core import PydanticCustomError

from corpdir.spec import constraints as c
from corpdir.spec.enums import SpCallSetting
from corpdir.spec.variant_operations import A_OPERATIONS, ALL_OPERATIONS, B_OPERATIONS


@dataclass(frozen=True)
class TextRule:
    max_len: int
    charset: c.Charset


@dataclass(frozen=True)
class Variant:
    """One row-set of spec section 9: everything that differs between A, B and C."""

    name: str
    operations: frozenset[str]
    payload_too_large: bool  # whether 413 exists
    division_ids_max: int
    division_ids_unique: bool
    groupware_fields: bool  # groupware, gwsAccount
    contact_details_url: bool  # user field and its select value
    u1_filters: frozenset[str]  # of loginIds, userType, includeSubDepartment
    sp_call_settings: frozenset[SpCallSetting]
    anpi_login_id: TextRule
    ble_id: TextRule
    login_id: c.Charset
    child_division_ids: bool
    division_code_max: int
    d1_filters: frozenset[str]  # of divisionCodes, firstLayer
    profile_self_updated_at: bool
    extra: Mapping[str, Any] = field(default_factory=dict)

    # -- what a response may carry in this variant -------------------------------------
    def absent_user_fields(self) -> frozenset[str]:
        absent = set()
        if not self.groupware_fields:
            absent |= {"groupware", "gwsAccount"}
        if not self.contact_details_url:
            absent.add("contactDetailsUrl")
        return frozenset(absent)

    def absent_division_fields(self) -> frozenset[str]:
        return frozenset() if self.child_division_ids else frozenset({"childDivisionIds"})

    def absent_profile_fields(self) -> frozenset[str]:
        return frozenset() if self.profile_self_updated_at else frozenset({"selfUpdatedAt"})

    def has(self, operation_code: str) -> bool:
        return operation_code in self.operations

    def offers(self, rule: str) -> bool:
        """Whether a field or filter only some variants have (a key of ``_PRESENCE``, e.g.
        "firstLayer", "includeSubDepartment", "groupware") exists in this one: callers ask
        this, never the variant's name."""
        return _PRESENCE[rule](self)

    # -- what /openapi.json says of the rules below (the same data, as JSON Schema) ---------
    def json_schema(self, rule: str, schema: dict[str, Any]) -> dict[str, Any]:
        """``schema`` (of a field marked ``varies(rule)`` / ``exists_in_variant(rule)``)
        with this variant's form of the rule; ``{"not": {}}`` for a field it lacks."""
        present = _PRESENCE.get(rule)
        if present is not None:
            return schema if present(self) else {"not": {}}
        text = {"anpiLoginId": self.anpi_login_id, "bleId": self.ble_id,
                "divisionCode": TextRule(self.division_code_max, c.DIVISION_CODE)}.get(rule)
        if text is not None:
            return c.publish({**schema, "maxLength": text.max_len}, {"pattern": text.charset.json_pattern})
        if rule == "loginId":
            return c.publish(schema, {"pattern": self.login_id.json_pattern})
        if rule == "divisionIds":
            return {**schema, "maxItems": self.division_ids_max, **({"uniqueItems": True} if self.division_ids_unique else {})}
        if rule == "spCallSetting":
            return {"type": "string", "enum": [s.value for s in SpCallSetting if s in self.sp_call_settings]}
        if rule == "userSelect":
            return {**schema, "enum": [v for v in schema["enum"] if v not in self.absent_user_fields()]}
        raise KeyError(rule)

    # -- the rules that `varies("name")` markers apply ------------------------------------
    def apply(self, rule: str, value: Any) -> Any:
        return getattr(self, f"_rule_{rule}")(value)

    def _rule_divisionIds(self, ids: list[int]) -> list[int]:
        if len(ids) > self.division_ids_max:
            raise PydanticCustomError(
                "TOO_MANY_ITEMS", "at most {max} items", {"max": self.division_ids_max, "variant": self.name}
            )
        # B says "unique"; A and C do not: there a repeated division is stored once
        return c._unique(ids) if self.division_ids_unique else c._first_of_duplicates(ids)

    def _rule_spCallSetting(self, value: SpCallSetting) -> SpCallSetting:
        """One spCallSettings item (so the detail names its index, like any enum error)."""
        if value not in self.sp_call_settings:
            allowed = sorted(self.sp_call_settings, key=lambda s: s.number)
            raise PydanticCustomError(
                "INVALID_ENUM",
                "{value} is not available on this service (interface variant {variant}); "
                "choose {first} or SETTING_1 to {last}",
                {"value": value.value, "variant": self.name, "first": allowed[0].value, "last": allowed[-1].value},
            )
        return value

    def _text(self, rule: TextRule, value: str) -> str:
        if len(value) > rule.max_len:
            raise PydanticCustomError(
                "TOO_LONG", "at most {max} characters", {"max": rule.max_len, "variant": self.name}
            )
        return rule.charset.check(value)

    def _rule_anpiLoginId(self, value: str) -> str:
        return self._text(self.anpi_login_id, value)

    def _rule_bleId(self, value: str) -> str:
        return self._text(self.ble_id, value)

    def _rule_loginId(self, value: str) -> str:
        return self.login_id.check(value)

    def _rule_divisionCode(self, value: str) -> str:
        return self._text(TextRule(self.division_code_max, c.DIVISION_CODE), value)

    def _present(self, present: bool, value: Any) -> Any:
        if not present:
            raise PydanticCustomError(
                "UNKNOWN_FIELD", "is not available on this service (interface variant {variant})", {"variant": self.name}
            )
        return value

    def _rule_groupware(self, value: Any) -> Any:
        return self._present(self.groupware_fields, value)

    def _rule_loginIds(self, value: Any) -> Any:
        return self._present("loginIds" in self.u1_filters, value)

    def _rule_userTypeFilter(self, value: Any) -> Any:
        return self._present("userType" in self.u1_filters, value)

    def _rule_includeSubDepartment(self, value: Any) -> Any:
        return self._present("includeSubDepartment" in self.u1_filters, value)

    def _rule_divisionCodes(self, value: Any) -> Any:
        return self._present("divisionCodes" in self.d1_filters, value)

    def _rule_firstLayer(self, value: Any) -> Any:
        return self._present("firstLayer" in self.d1_filters, value)

    def _rule_userSelect(self, value: str) -> str:
        """One U1 select value (the detail names its index, like any enum error)."""
        if value in self.absent_user_fields():
            raise PydanticCustomError(
                "INVALID_ENUM",
                "{value} is not available on this service (interface variant {variant})",
                {"value": value, "variant": self.name},
            )
        return value


_PRESENCE: Mapping[str, Callable[[Variant], bool]] = {
    # the fields and filters only some variants have: is it there in this one?
    "groupware": lambda v: v.groupware_fields,
    "loginIds": lambda v: "loginIds" in v.u1_filters,
    "userTypeFilter": lambda v: "userType" in v.u1_filters,
    "includeSubDepartment": lambda v: "includeSubDepartment" in v.u1_filters,
    "divisionCodes": lambda v: "divisionCodes" in v.d1_filters,
    "firstLayer": lambda v: "firstLayer" in v.d1_filters,
    "childDivisionIds": lambda v: v.child_division_ids,
}


_SETTINGS_1_5 = frozenset(s for s in SpCallSetting if s.number <= 5)

A = Variant(
    name="A",
    operations=A_OPERATIONS,
    payload_too_large=False,
    division_ids_max=2,
    division_ids_unique=False,
    groupware_fields=False,
    contact_details_url=False,
    u1_filters=frozenset(),
    sp_call_settings=_SETTINGS_1_5,
    anpi_login_id=TextRule(32, c.ANPI_LOGIN_ID_NARROW),
    ble_id=TextRule(64, c.BLE_ID_NARROW),
    login_id=c.LOGIN_ID_WITH_COLON,
    child_division_ids=False,
    division_code_max=50,
    d1_filters=frozenset(),
    profile_self_updated_at=False,  # n/a: A has no profile operations
)
B = Variant(
    name="B",
    operations=B_OPERATIONS,
    payload_too_large=True,
    division_ids_max=2,
    division_ids_unique=True,
    groupware_fields=False,
    contact_details_url=True,
    u1_filters=frozenset({"loginIds"}),
    sp_call_settings=_SETTINGS_1_5,
    anpi_login_id=TextRule(32, c.ANPI_LOGIN_ID_NARROW),
    ble_id=TextRule(64, c.BLE_ID_NARROW),
    login_id=c.LOGIN_ID,
    child_division_ids=False,
    division_code_max=50,
    d1_filters=frozenset(),
    profile_self_updated_at=False,
)
C = Variant(
    name="C",
    operations=ALL_OPERATIONS,
    payload_too_large=True,
    division_ids_max=10,
    division_ids_unique=False,
    groupware_fields=True,
    contact_details_url=True,
    u1_filters=frozenset({"loginIds", "userType", "includeSubDepartment"}),
    sp_call_settings=frozenset(SpCallSetting),
    anpi_login_id=TextRule(40, c.ANPI_LOGIN_ID),
    ble_id=TextRule(64, c.BLE_ID),
    login_id=c.LOGIN_ID,
    child_division_ids=True,
    division_code_max=100,
    d1_filters=frozenset({"divisionCodes", "firstLayer"}),
    profile_self_updated_at=True,
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (A, B, C)}


def get_variant(name: str | Variant) -> Variant:
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name.upper()]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}: choose A, B or C") from None


def variant_from_context(context: Any) -> Variant:
    if isinstance(context, Mapping) and context.get("variant") is not None:
        return get_variant(context["variant"])
    return C
