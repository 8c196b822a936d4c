"""The phone-directory interface as data: models, constraints, variants, operations.

Everything here is declarative and shared by the reference server, the client and the
forms of the TUI. Nothing here does I/O or imports Textual.
"""

from corpdir.spec.common import OMIT, Page, QueryModel, RequestModel, ResponseModel
from corpdir.spec.errors import DetailCode, ErrorDetail, ErrorObject, ErrorStatus, SpecViolation, details_from
from corpdir.spec.operations import BY_NAME, OPERATIONS, Operation, Permission, validate_body, validate_query
from corpdir.spec.variants import VARIANTS, Variant, get_variant

__all__ = [
    "BY_NAME", "OMIT", "OPERATIONS", "VARIANTS", "DetailCode", "ErrorDetail", "ErrorObject", "ErrorStatus",
    "Operation", "Page", "Permission", "QueryModel", "RequestModel", "ResponseModel", "SpecViolation", "Variant",
    "details_from", "get_variant", "validate_body", "validate_query",
]
