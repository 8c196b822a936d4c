"""The phone-directory interface as data: models, constraints, variants, operations.

Everything here is declarative and shared by the reference server, the client and the
forms of the TUI. Nothing here does I/O or imports Textual.

Names are loaded on first use (PEP 562): importing one resource module (say
``corpdir.spec.user`` for the rows of the first screen) does not build the operation
table and every other model, which the TUI's first paint does not need. The models
build their validators on first use too (``defer_build`` in :mod:`corpdir.spec.common`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from corpdir.spec.common import OMIT, Page, QueryModel, RequestModel, ResponseModel
    from corpdir.spec.errors import DetailCode, ErrorDetail, ErrorObject, ErrorStatus, SpecViolation, details_from
    from corpdir.spec.operations import BY_NAME, OPERATIONS, Operation, Permission, validate_body, validate_query
    from corpdir.spec.variants import VARIANTS, Variant, get_variant

_EXPORTS = {
    **dict.fromkeys(("OMIT", "Page", "QueryModel", "RequestModel", "ResponseModel"), "corpdir.spec.common"),
    **dict.fromkeys(("DetailCode", "ErrorDetail", "ErrorObject", "ErrorStatus", "SpecViolation", "details_from"),
                    "corpdir.spec.errors"),
    **dict.fromkeys(("BY_NAME", "OPERATIONS", "Operation", "Permission", "validate_body", "validate_query"),
                    "corpdir.spec.operations"),
    **dict.fromkeys(("VARIANTS", "Variant", "get_variant"), "corpdir.spec.variants"),
}
__all__ = [
    "BY_NAME", "DetailCode", "ErrorDetail", "ErrorObject", "ErrorStatus", "OMIT", "OPERATIONS", "Operation",
    "Page", "Permission", "QueryModel", "RequestModel", "ResponseModel", "SpecViolation", "VARIANTS", "Variant",
    "details_from", "get_variant", "validate_body", "validate_query",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'corpdir.spec' has no attribute {name!r}")
